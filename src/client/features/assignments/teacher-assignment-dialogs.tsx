import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router';
import { ASSIGNMENT_LIMITS, duplicateAssignmentSchema, type TeacherAssignment } from '#shared/assignments';
import { deleteAssignment, duplicateAssignment } from '#shared/contract/assignments';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { call } from '../../lib/api.ts';
import { myClassesQuery } from '../classes/my-classes-query.ts';
import { assignmentFieldOf } from './assignment-draft.ts';
import { ASSIGNMENTS_PATH, assignmentPath } from './assignment-paths.ts';
import { assignmentQueries } from './assignment-queries.ts';
import { CheckField } from './teacher-check-field.tsx';
import { fromSchoolInput, toSchoolInput, useSchoolTimeZone } from './assignment-time.ts';
import { runtimeTimeZone } from '#shared/time-zones';
import { formatTimeZone } from '../../lib/time-zone-names.ts';

/** Duplicate: a copy without hand-ins into other active classes of the teacher, titled as they like. */
export function DuplicateDialog({ assignment, onClose }: { assignment: TeacherAssignment; onClose(): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const classes = useQuery(myClassesQuery());
  const active = (classes.data ?? []).filter((taught) => !taught.isArchived);
  const [classIds, setClassIds] = useState<string[]>([]);
  const original = assignment.title;
  const [title, setTitle] = useState(() => t`${original} (copy)`);
  const zone = useSchoolTimeZone() ?? runtimeTimeZone();
  // The original's due time when it is still ahead; a past one would make the copy missing at once.
  const [due, setDue] = useState(() =>
    assignment.dueAt && new Date(assignment.dueAt).getTime() > Date.now() ? toSchoolInput(assignment.dueAt, zone) : '',
  );
  const zoneName = formatTimeZone(zone);
  const zoneHint = t`In the school’s time zone: ${zoneName}.`;
  const form = useEndpointForm({
    schema: duplicateAssignmentSchema,
    toBody: () => ({ classIds, title, dueAt: fromSchoolInput(due, zone) }),
    fieldOf: assignmentFieldOf,
    labels: { dueAt: t`Due` },
    onSubmit: async (_data, { body }) => {
      const { data } = await call(duplicateAssignment, { params: { id: assignment._id }, body });
      const copy = data.title;
      toast.success(t`Copy “${copy}” created`);
      await queryClient.invalidateQueries({ queryKey: assignmentQueries.all });
      await navigate(assignmentPath(data._id));
    },
  });
  const classesError = form.errors['classIds'];
  return (
    <ModalDialog
      title={t`Duplicate the assignment`}
      description={t`The copy has the same instructions, points, late rule and attachments, and no hand-ins.`}
      onClose={onClose}
    >
      {(close) => (
        <form {...form.formProps} className="mt-4 flex flex-col gap-4">
          <TextField
            label={t`Title of the copy`}
            {...form.field('title')}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            required
            autoComplete="off"
            maxLength={ASSIGNMENT_LIMITS.title}
          />
          <TextField
            label={t`Due`}
            {...form.field('dueAt')}
            type="datetime-local"
            value={due}
            onChange={(event) => setDue(event.target.value)}
            hint={t`Optional. ${zoneHint}`}
          />
          <fieldset aria-describedby={classesError ? 'duplicate-classes-error' : undefined}>
            <legend className="text-sm font-medium text-fg">{t`Into the classes`}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {active.map((taught, index) => (
                <CheckField
                  key={taught._id}
                  name="classIds"
                  {...(index === 0 ? { dataField: 'classIds' } : {})}
                  label={taught.name}
                  checked={classIds.includes(taught._id)}
                  onChange={(isOn) =>
                    setClassIds((current) =>
                      isOn ? [...current, taught._id] : current.filter((id) => id !== taught._id),
                    )
                  }
                />
              ))}
            </div>
            {classesError ? (
              <p id="duplicate-classes-error" className="mt-2 text-sm text-danger">
                {classesError}
              </p>
            ) : null}
          </fieldset>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={form.isSubmitting}>
              {t`Duplicate`}
            </Button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

/** Delete, asked first: with work handed in it is archived (kept for its grades), otherwise removed. */
export function DeleteDialog({ assignment, onClose }: { assignment: TeacherAssignment; onClose(): void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const title = assignment.title;
  const hasWork = assignment.handIns.handedIn > 0;
  const run = async () => {
    try {
      const { data } = await call(deleteAssignment, { params: { id: assignment._id } });
      toast.success(data.outcome === 'archived' ? t`“${title}” archived` : t`“${title}” deleted`);
      await queryClient.invalidateQueries({ queryKey: assignmentQueries.all });
      await navigate(ASSIGNMENTS_PATH);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    }
  };
  return (
    <ConfirmDialog
      title={t`Delete “${title}”?`}
      description={
        hasWork
          ? t`Students have handed in work, so it is archived instead: it leaves the class’s list and takes no more hand-ins, while you keep grading and returning what was handed in and students keep their work and grades.`
          : t`Nobody has handed anything in: the assignment and the students’ drafts are removed for good.`
      }
      confirmLabel={hasWork ? t`Archive` : t`Delete`}
      widthClassName="w-[min(30rem,calc(100%-2rem))]"
      onConfirm={() => void run()}
      onClose={onClose}
    />
  );
}
