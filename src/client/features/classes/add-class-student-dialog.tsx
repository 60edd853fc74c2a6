import { useLingui } from '@lingui/react/macro';
import toast from 'react-hot-toast/headless';
import { addClassStudent } from '#shared/contract/classes';
import { addClassStudentSchema, type TeacherClass } from '#shared/classes';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { call } from '../../lib/api.ts';
import { AccountForm } from '../../components/auth-form.tsx';
import { studentAccountFields } from '../auth/student-account-fields.ts';

/** The account fields of a student added by a teacher, but the class: the class is this one. */
// Called when shown, not when the module loads: the labels are worded in the active locale (decision 054).
const classStudentFields = () =>
  studentAccountFields({ isForSomeoneElse: true }).filter((field) => field.name !== 'class');

/** A new student's account, straight into this class. */
export function AddClassStudentDialog({
  entry,
  onAdded,
  onClose,
}: {
  entry: TeacherClass;
  onAdded(): Promise<unknown>;
  onClose(): void;
}) {
  const { t } = useLingui();
  const className = entry.name;
  return (
    <ModalDialog
      title={t`Add a student to ${className}`}
      description={t`Creates the student's account in this class. They log in with the account username and password you set.`}
      widthClassName="w-[min(40rem,calc(100%-2rem))]"
      onClose={onClose}
    >
      {(close) => (
        <AccountForm
          schema={addClassStudentSchema}
          fields={classStudentFields()}
          submitLabel={t`Add student`}
          className="mt-5 grid gap-x-6 gap-y-4 sm:grid-cols-2"
          submitClassName="min-w-36"
          actions={
            <Button type="button" variant="ghost" onClick={close}>
              {t`Cancel`}
            </Button>
          }
          onSubmit={async (values) => {
            const { data } = await call(addClassStudent, { params: { id: entry._id }, body: values });
            const studentName = data.name;
            toast.success(t`Student ${studentName} added to ${className}`);
            await onAdded();
            close();
          }}
        />
      )}
    </ModalDialog>
  );
}
