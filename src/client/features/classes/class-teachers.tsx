import { useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router';
import { addCoTeacher, removeClassTeacher } from '#shared/contract/classes';
import { addCoTeacherSchema, type TeacherClass } from '#shared/classes';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { call } from '../../lib/api.ts';
import { Badge, StaffTable } from '../../components/staff-table.tsx';
import { CLASSES_PATH } from './class-paths.ts';
import { classQueries, putClass, useClassMutation } from './classes-queries.ts';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';

/**
 * The teachers of a class (decision 031): any of them adds a co-teacher and may leave; only the
 * owner removes another. A refusal (the last teacher, not the owner) is said here, in the section.
 */
export function ClassTeachers({ entry, ownId }: { entry: TeacherClass; ownId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<PendingChange | null>(null);
  const { t } = useLingui();
  const className = entry.name;
  const isOwner = entry.teachers.some((teacher) => teacher._id === ownId && teacher.isOwner);
  const remove = useClassMutation(
    (teacherId: string) => call(removeClassTeacher, { params: { id: entry._id, memberId: teacherId } }),
    () => t`Teacher removed from the class`,
    { meta: { errorToast: false } },
  );
  const leave = useMutation({
    mutationFn: () => call(removeClassTeacher, { params: { id: entry._id, memberId: ownId } }),
    meta: { errorToast: false },
    onSuccess: async () => {
      toast.success(t`You left ${className}`);
      await navigate(CLASSES_PATH);
      await queryClient.invalidateQueries({ queryKey: classQueries.all });
    },
  });
  const failure = remove.error ?? leave.error;

  const askRemove = ({ _id, name: teacherName }: TeacherClass['teachers'][number]) =>
    setPending({
      title: t`Remove ${teacherName} from ${className}?`,
      description: t`${teacherName} no longer sees the class, its roster or its code. Their quizzes and resources stay.`,
      confirmLabel: t`Remove teacher`,
      run: () => {
        leave.reset();
        remove.mutate(_id);
      },
    });
  const askLeave = () =>
    setPending({
      title: t`Leave ${className}?`,
      description: isOwner
        ? t`The class goes to its other teacher first by name. You no longer see it, its roster or its code.`
        : t`You no longer see the class, its roster or its code.`,
      confirmLabel: t`Leave class`,
      run: () => {
        remove.reset();
        leave.mutate();
      },
    });

  return (
    <div className="flex flex-col gap-4">
      {failure ? (
        <p role="alert" className="rounded-lg border border-danger/25 bg-danger-soft p-3 text-sm text-danger-strong">
          {failure.message}
        </p>
      ) : null}
      <StaffTable
        caption={t`Teachers of ${className}`}
        headers={[t`Name`, t`Role`, t`Actions`]}
        rows={entry.teachers.map((teacher) => {
          const teacherName = teacher.name;
          return {
            key: teacher._id,
            heading: (
              <span className="flex flex-wrap items-center gap-2">
                {teacher.name}
                {teacher._id === ownId ? (
                  <span className="font-normal text-muted">
                    {t({ comment: "After the teacher's own name in the class's teachers", message: '(you)' })}
                  </span>
                ) : null}
              </span>
            ),
            cells: [
              teacher.isOwner ? (
                <Badge key="role" tone="brand">
                  {t({ comment: 'Role of a teacher in a class: the one who owns it', message: 'Owner' })}
                </Badge>
              ) : (
                t`Co-teacher`
              ),
              teacher._id === ownId ? (
                <Button key="leave" size="sm" variant="secondary" disabled={leave.isPending} onClick={askLeave}>
                  {t`Leave class`}
                </Button>
              ) : isOwner ? (
                <Button
                  key="remove"
                  size="sm"
                  variant="secondary"
                  disabled={remove.isPending}
                  aria-label={t`Remove ${teacherName}`}
                  onClick={() => askRemove(teacher)}
                >
                  {t({ comment: 'Button: remove a co-teacher from the class', message: 'Remove' })}
                </Button>
              ) : null,
            ],
          };
        })}
      />
      <AddCoTeacherForm entry={entry} />
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </div>
  );
}

/** A select of the school's active teachers who do not teach the class yet. */
function AddCoTeacherForm({ entry }: { entry: TeacherClass }) {
  const queryClient = useQueryClient();
  const colleagues = useQuery(classQueries.colleagues());
  const [teacherId, setTeacherId] = useState('');
  const teaching = new Set(entry.teachers.map((teacher) => teacher._id));
  const choices = (colleagues.data ?? []).filter((colleague) => !teaching.has(colleague._id));
  const { t } = useLingui();
  const form = useEndpointForm({
    schema: addCoTeacherSchema,
    toBody: () => ({ teacherId }),
    onSubmit: async (_input, { body }) => {
      const { data } = await call(addCoTeacher, { params: { id: entry._id }, body });
      toast.success(t`Co-teacher added`);
      setTeacherId('');
      putClass(queryClient, data);
      await queryClient.invalidateQueries({ queryKey: classQueries.all });
    },
  });
  return (
    <form {...form.formProps} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <Field
        label={t`Add a co-teacher`}
        error={form.errors.teacherId}
        hint={
          colleagues.isSuccess && choices.length === 0 ? t`Every active teacher of the school teaches it.` : undefined
        }
        id={undefined}
        className="flex-1"
        control={(attributes) => (
          <select
            {...attributes}
            name="teacherId"
            value={teacherId}
            onChange={(event) => setTeacherId(event.target.value)}
          >
            <option value="">{colleagues.isPending ? t`Loading the teachers…` : t`Choose a teacher`}</option>
            {choices.map((colleague) => (
              <option key={colleague._id} value={colleague._id}>
                {colleague.name}
              </option>
            ))}
          </select>
        )}
      />
      <Button type="submit" variant="secondary" disabled={form.isSubmitting} className="sm:mt-7">
        {t`Add co-teacher`}
      </Button>
    </form>
  );
}
