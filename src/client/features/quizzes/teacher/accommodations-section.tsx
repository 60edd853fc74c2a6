import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { removeAccommodation } from '#shared/contract/quiz-accommodations';
import type { Accommodation } from '#shared/quiz-accommodations';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { Button } from '../../../components/ui/button.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../../components/ui/confirm-dialog.tsx';
import { call } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { StaffTable } from '../../../components/staff-table.tsx';
import { accommodationQueries } from './accommodation-queries.ts';

export { accommodationQueries };

const AccommodationForm = lazy(async () => ({ default: (await import('./accommodation-form.tsx')).AccommodationForm }));

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
        <Suspense fallback={<p className="mt-3 text-sm text-muted">Loading the form…</p>}>
          <AccommodationForm
            key={editing === 'new' ? 'new' : editing.student._id}
            quiz={quiz}
            editing={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        </Suspense>
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
