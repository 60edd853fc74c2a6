import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { moveClassStudent } from '#shared/contract/classes';
import { moveClassStudentSchema, type RosterEntry, type TeacherClass } from '#shared/classes';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { call } from '../../lib/api.ts';
import { classQueries } from './classes-queries.ts';

/**
 * Moves a student of this class into another active class of the teacher's in one step
 * (issue 19 point 7, decision 031): the server leaves them in exactly one of the two.
 */
export function MoveStudentDialog({
  entry,
  student,
  onMoved,
  onClose,
}: {
  entry: TeacherClass;
  student: RosterEntry;
  onMoved(): Promise<unknown>;
  onClose(): void;
}) {
  const classes = useQuery(classQueries.mine());
  const [toClassId, setToClassId] = useState('');
  const { t } = useLingui();
  const choices = (classes.data ?? []).filter((taught) => !taught.isArchived && taught._id !== entry._id);
  const studentName = student.name;
  const className = entry.name;
  const form = useEndpointForm({
    schema: moveClassStudentSchema,
    toBody: () => ({ toClassId }),
    onSubmit: async (_input, { body }) => {
      await call(moveClassStudent, {
        params: { id: entry._id, memberId: student._id },
        body,
      });
      const targetName = choices.find((taught) => taught._id === body.toClassId)?.name;
      toast.success(targetName ? t`${studentName} moved to ${targetName}` : t`${studentName} moved to the class`);
      await onMoved();
      onClose();
    },
  });
  return (
    <ModalDialog
      title={t`Move ${studentName} to another class`}
      description={t`${studentName} leaves ${className} and joins the class you choose. Their account and past attempts stay.`}
      onClose={onClose}
    >
      {(close) => (
        <form {...form.formProps} className="mt-5 flex flex-col gap-4">
          <Field
            label={t`Move to`}
            error={form.errors.toClassId}
            hint={
              classes.isSuccess && choices.length === 0
                ? t`You teach no other active class: create one on the Classes screen first.`
                : undefined
            }
            id={undefined}
            isRequired
            control={(attributes) => (
              <select
                {...attributes}
                name="toClassId"
                value={toClassId}
                onChange={(event) => setToClassId(event.target.value)}
              >
                <option value="">{classes.isPending ? t`Loading your classes…` : t`Choose a class`}</option>
                {choices.map((taught) => (
                  <option key={taught._id} value={taught._id}>
                    {taught.subject ? `${taught.name} (${taught.subject})` : taught.name}
                  </option>
                ))}
              </select>
            )}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" onClick={close}>
              {t`Cancel`}
            </Button>
            <Button type="submit" disabled={form.isSubmitting || choices.length === 0}>
              {t`Move student`}
            </Button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
