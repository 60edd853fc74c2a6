import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { listAccommodations, removeAccommodation, setAccommodation } from '#shared/contract/quiz-accommodations';
import {
  ACCOMMODATION_LIMITS,
  accommodationInputSchema,
  type Accommodation,
  type AccommodationPayload,
} from '#shared/quiz-accommodations';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { Button } from '../../../components/ui/button.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../../components/ui/confirm-dialog.tsx';
import { Field, TextField } from '../../../components/ui/field.tsx';
import { call } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { classQueries } from '../../classes/classes-queries.ts';
import { StaffTable } from '../../school/staff-table.tsx';
import { toDeadlineIso, toLocalInputValue } from './quiz-draft.ts';

/** A quiz's accommodations (decision 036), as its teacher reads and changes them. */
export const accommodationQueries = {
  list: (quizId: string) =>
    queryOptions({
      queryKey: ['quiz', 'accommodations', quizId],
      queryFn: async ({ signal }) => (await call(listAccommodations, { params: { id: quizId } }, { signal })).data,
    }),
};

/** "+5 min, +50 %: 20 min", or what the quiz gives. */
export function describeExtraTime(entry: Accommodation, quizMinutes: number): string {
  const extras = [
    entry.extraMinutes ? `+${entry.extraMinutes} min` : null,
    entry.extraPercent ? `+${entry.extraPercent} %` : null,
  ].filter(Boolean);
  return extras.length === 0
    ? `${quizMinutes} min (the quiz’s)`
    : `${entry.effectiveMaxTime} min (${extras.join(', ')})`;
}

/** An empty box is none; anything else is read as a number (the schema says what is wrong with it). */
const numberOrNull = (text: FormDataEntryValue | null) => {
  const value = typeof text === 'string' ? text.trim() : '';
  return value === '' ? null : Number(value);
};

function AccommodationForm({
  quiz,
  editing,
  onDone,
}: {
  quiz: TeacherQuizDetail;
  editing: Accommodation | null;
  onDone(): void;
}) {
  const queryClient = useQueryClient();
  const roster = useQuery(classQueries.roster(quiz.classId));
  const [studentId, setStudentId] = useState(editing?.student._id ?? '');
  const form = useEndpointForm({
    schema: accommodationInputSchema,
    toBody: (element): AccommodationPayload => {
      const data = new FormData(element);
      const entered = data.get('deadline');
      const deadline = typeof entered === 'string' ? entered : '';
      return {
        extraMinutes: numberOrNull(data.get('extraMinutes')),
        extraPercent: numberOrNull(data.get('extraPercent')),
        deadline: deadline === '' ? null : toDeadlineIso(deadline),
      };
    },
    refineErrors: (found) => (studentId ? found : { studentId: 'Choose a student', ...found }),
    onSubmit: async (_input, { body }) => {
      const { message } = await call(setAccommodation, { params: { id: quiz._id, studentId }, body });
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: accommodationQueries.list(quiz._id).queryKey });
      onDone();
    },
  });
  const field = (name: 'extraMinutes' | 'extraPercent' | 'deadline') => form.field(name);
  return (
    <form
      {...form.formProps}
      aria-label={editing ? `Accommodation of ${editing.student.name}` : 'New accommodation'}
      className="mt-4 grid gap-4 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4"
    >
      <Field
        label="Student"
        id={undefined}
        error={form.errors['studentId']}
        control={(attributes) => (
          <select
            {...attributes}
            data-field="studentId"
            value={studentId}
            disabled={editing !== null}
            onChange={(event) => {
              setStudentId(event.target.value);
              form.clearErrors((name) => name === 'studentId');
            }}
          >
            <option value="">{roster.isPending ? 'Loading the class…' : 'Choose a student'}</option>
            {(roster.data ?? []).map((student) => (
              <option key={student._id} value={student._id}>
                {student.name} ({student.rollNumber})
              </option>
            ))}
          </select>
        )}
      />
      <TextField
        label="Extra minutes"
        {...field('extraMinutes')}
        type="number"
        inputMode="numeric"
        min={0}
        max={ACCOMMODATION_LIMITS.extraMinutesMax}
        step={1}
        defaultValue={editing?.extraMinutes ?? ''}
        hint={`0 to ${ACCOMMODATION_LIMITS.extraMinutesMax}.`}
      />
      <TextField
        label="Extra time (%)"
        {...field('extraPercent')}
        type="number"
        inputMode="numeric"
        min={0}
        max={ACCOMMODATION_LIMITS.extraPercentMax}
        step={1}
        defaultValue={editing?.extraPercent ?? ''}
        hint={`Of the ${quiz.maxTime} minutes; 0 to ${ACCOMMODATION_LIMITS.extraPercentMax}.`}
      />
      <TextField
        label="Later deadline"
        {...field('deadline')}
        type="datetime-local"
        min={toLocalInputValue(new Date(quiz.deadline))}
        defaultValue={editing?.deadline ? toLocalInputValue(new Date(editing.deadline)) : ''}
        hint="Optional. Your local time, after the quiz’s."
      />
      <div className="flex flex-wrap gap-3 sm:col-span-2 lg:col-span-4">
        <Button type="submit" disabled={form.isSubmitting}>
          Save accommodation
        </Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The analytics page's accommodations: each student's extra time and later deadline, added,
 * changed and removed here. The server moves a running attempt's end at once.
 */
export function AccommodationsSection({ quiz }: { quiz: TeacherQuizDetail }) {
  const queryClient = useQueryClient();
  const list = useQuery(accommodationQueries.list(quiz._id));
  // null: no form; 'new', or the accommodation being changed.
  const [editing, setEditing] = useState<Accommodation | 'new' | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const remove = useMutation({
    mutationFn: (studentId: string) => call(removeAccommodation, { params: { id: quiz._id, studentId } }),
    onSuccess: async ({ message }) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: accommodationQueries.list(quiz._id).queryKey });
    },
  });
  const entries = list.data ?? [];
  return (
    <section aria-labelledby="accommodations-heading" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="accommodations-heading" className="text-lg font-semibold text-fg">
          Accommodations
        </h2>
        {editing === null ? (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            Add accommodation
          </Button>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-muted">
        Extra time or a later deadline for one student. The correct answers and scores shown “after the deadline” wait
        until every accommodated student has finished.
      </p>
      {editing !== null ? (
        <AccommodationForm
          key={editing === 'new' ? 'new' : editing.student._id}
          quiz={quiz}
          editing={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      {list.isError ? (
        <p role="alert" className="mt-3 text-sm text-danger-strong">
          {list.error.message}
        </p>
      ) : list.isPending ? null : entries.length === 0 ? (
        <p className="mt-3 text-sm text-muted">No student has an accommodation on this quiz.</p>
      ) : (
        <div className="mt-3">
          <StaffTable
            caption="Students with accommodations"
            headers={['Student', 'Time', 'Deadline', 'Actions']}
            rows={entries.map((entry) => ({
              key: entry.student._id,
              heading: (
                <span>
                  {entry.student.name} <span className="font-normal text-muted">({entry.student.rollNumber})</span>
                </span>
              ),
              cells: [
                describeExtraTime(entry, quiz.maxTime),
                entry.deadline ? (
                  <time key="deadline" dateTime={entry.deadline}>
                    {formatDateTime(entry.deadline)}
                  </time>
                ) : (
                  'The quiz’s'
                ),
                <span key="actions" className="flex gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Change the accommodation of ${entry.student.name}`}
                    onClick={() => setEditing(entry)}
                  >
                    Change
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={remove.isPending}
                    aria-label={`Remove the accommodation of ${entry.student.name}`}
                    onClick={() =>
                      setPending({
                        title: `Remove ${entry.student.name}’s accommodation?`,
                        description: 'They get the quiz’s own time and deadline; an attempt under way ends sooner.',
                        confirmLabel: 'Remove accommodation',
                        run: () => remove.mutate(entry.student._id),
                      })
                    }
                  >
                    Remove
                  </Button>
                </span>,
              ],
            }))}
          />
        </div>
      )}
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </section>
  );
}
