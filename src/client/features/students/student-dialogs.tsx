import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { resetStudentPassword, updateStudentDetails } from '#shared/contract/students';
import { FIELD_LIMITS } from '#shared/limits';
import { studentDetailsSchema } from '#shared/students';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { call } from '../../lib/api.ts';
import { withLoading } from '../../stores/app-store.ts';
import type { ManagedStudent, StudentAction } from './student-actions.tsx';
import { studentQueries } from './students-queries.ts';

const DIALOG_WIDTH = 'w-[min(32rem,calc(100%-2rem))]';

// Labels as descriptors, worded at render in the active locale (decision 054).
const DETAIL_FIELDS = [
  { name: 'name', label: msg`Name`, type: 'text', autoComplete: 'off', maxLength: FIELD_LIMITS.name },
  {
    name: 'rollNumber',
    label: msg`Account username`,
    type: 'text',
    autoComplete: 'off',
    maxLength: FIELD_LIMITS.rollNumber,
  },
  { name: 'email', label: msg`Email`, type: 'email', autoComplete: 'off', maxLength: FIELD_LIMITS.email },
  { name: 'parentName', label: msg`Parent name`, type: 'text', autoComplete: 'off', maxLength: FIELD_LIMITS.name },
  {
    name: 'parentEmail',
    label: msg`Parent email`,
    type: 'email',
    autoComplete: 'off',
    maxLength: FIELD_LIMITS.email,
  },
] as const satisfies readonly { name: keyof ManagedStudent; [key: string]: unknown }[];

/**
 * A teacher corrects a student's details (decision 033) through the one form layer: the shared
 * schema checks before sending, a taken username or email shows at its field.
 */
export function EditStudentDialog({
  student,
  onClose,
  onSaved,
}: {
  student: ManagedStudent;
  onClose(): void;
  /** More lists to read again once saved (a class's roster); the students screen's always are. */
  onSaved?(): Promise<unknown>;
}) {
  const { t } = useLingui();
  const studentName = student.name;
  return (
    <ModalDialog
      title={t`Edit ${studentName}`}
      description={t`Their class stays as it is; their password is reset on its own.`}
      widthClassName={DIALOG_WIDTH}
      onClose={onClose}
    >
      {(close) => (
        <EditStudentForm
          student={student}
          onSaved={async () => {
            await onSaved?.();
            close();
          }}
          onCancel={close}
        />
      )}
    </ModalDialog>
  );
}

function EditStudentForm({
  student,
  onSaved,
  onCancel,
}: {
  student: ManagedStudent;
  onSaved(): Promise<void>;
  onCancel(): void;
}) {
  const queryClient = useQueryClient();
  const { t, i18n } = useLingui();
  const form = useEndpointForm({
    schema: studentDetailsSchema,
    onSubmit: async (_details, { body }) => {
      const { data } = await withLoading(() => call(updateStudentDetails, { params: { id: student._id }, body }));
      const studentName = data.name;
      toast.success(t`${studentName}'s details were saved`);
      await queryClient.invalidateQueries({ queryKey: studentQueries.all });
      await onSaved();
    },
  });
  return (
    <form {...form.formProps} className="mt-5 flex flex-col gap-4">
      {DETAIL_FIELDS.map((field) => (
        <TextField
          key={field.name}
          {...form.field(field.name)}
          label={i18n._(field.label)}
          type={field.type}
          autoComplete={field.autoComplete}
          maxLength={field.maxLength}
          defaultValue={student[field.name]}
          required
        />
      ))}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          {t`Cancel`}
        </Button>
        <Button type="submit" disabled={form.isSubmitting}>
          {t`Save details`}
        </Button>
      </div>
    </form>
  );
}

/**
 * Resetting a student's password (decision 033): a question first (it signs the student out
 * everywhere), then the temporary password, shown once with a copy button.
 */
export function ResetPasswordDialogs({ student, onClose }: { student: ManagedStudent; onClose(): void }) {
  const { t } = useLingui();
  const studentName = student.name;
  // 'asking' until the teacher answers; then 'sending' until the password arrives.
  const [stage, setStage] = useState<'asking' | 'sending' | { temporaryPassword: string }>('asking');
  const isConfirmed = useRef(false);
  // The question's dialog is gone when the password's opens: the focus goes back to the button by hand.
  const [trigger] = useState(() => document.activeElement);
  const handleDone = () => {
    onClose();
    if (trigger instanceof HTMLElement && trigger.isConnected) trigger.focus();
  };
  const reset = useMutation({
    mutationFn: () => withLoading(() => call(resetStudentPassword, { params: { id: student._id } })),
    onSuccess: ({ data }) => setStage(data),
    // The failure is the cache's toast; nothing is shown.
    onError: onClose,
  });
  if (stage === 'asking') {
    return (
      <ConfirmDialog
        title={t`Reset ${studentName}'s password?`}
        description={t`${studentName} is signed out on every device and must choose a new password at the next sign-in. You will see a temporary password once, to give to the student.`}
        confirmLabel={t`Reset password`}
        widthClassName={DIALOG_WIDTH}
        onConfirm={() => {
          isConfirmed.current = true;
          setStage('sending');
          reset.mutate();
        }}
        onClose={() => {
          if (!isConfirmed.current) onClose();
        }}
      />
    );
  }
  if (stage === 'sending') return null;
  return <TemporaryPasswordDialog student={student} password={stage.temporaryPassword} onClose={handleDone} />;
}

function TemporaryPasswordDialog({
  student,
  password,
  onClose,
}: {
  student: ManagedStudent;
  password: string;
  onClose(): void;
}) {
  const { t } = useLingui();
  const studentName = student.name;
  const username = student.rollNumber;
  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      toast.success(t`Password copied`);
    } catch {
      toast.error(t`The password could not be copied: select it and copy it by hand.`);
    }
  };
  return (
    <ModalDialog
      title={t`${studentName}'s temporary password`}
      description={t`Give it to ${studentName}, who signs in with the account username ${username} and then chooses a new password.`}
      initialFocus="#temporary-password"
      widthClassName={DIALOG_WIDTH}
      onClose={onClose}
    >
      {(close) => (
        <div className="mt-4 flex flex-col gap-4">
          <p className="rounded-lg border border-warning-line bg-warning-soft p-3 text-sm font-semibold text-warning">
            {t`It is shown only once: write it down or copy it now. It cannot be shown again.`}
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="temporary-password" className="sr-only">
              {t`Temporary password`}
            </label>
            <input
              id="temporary-password"
              readOnly
              value={password}
              onFocus={(event) => event.currentTarget.select()}
              dir="ltr"
              className="min-w-0 flex-1 rounded-lg border border-line-strong bg-surface px-3 py-2 font-mono text-lg tracking-wider text-fg"
            />
            <Button variant="secondary" onClick={() => void handleCopy()}>
              <Copy className="size-4" aria-hidden="true" />
              {t`Copy`}
            </Button>
          </div>
          <div className="flex justify-end">
            <Button onClick={close}>{t`Done`}</Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}

/** The dialog of one action on a student: what student-actions.tsx loads when a teacher asks for it. */
export function StudentActionDialog({
  action,
  student,
  onSaved,
  onClose,
}: {
  action: StudentAction;
  student: ManagedStudent;
  onSaved?(): Promise<unknown>;
  onClose(): void;
}) {
  return action === 'edit' ? (
    <EditStudentDialog student={student} onClose={onClose} {...(onSaved ? { onSaved } : {})} />
  ) : (
    <ResetPasswordDialogs student={student} onClose={onClose} />
  );
}
