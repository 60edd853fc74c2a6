import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { removeAccommodation } from '#shared/contract/quiz-accommodations';
import type { Accommodation } from '#shared/quiz-accommodations';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { Button } from '../../../components/ui/button.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../../components/ui/confirm-dialog.tsx';
import { call } from '../../../lib/api.ts';
import { formatDateTime, formatNumber, formatPercent } from '../../../lib/format.ts';
import { StaffTable } from '../../../components/staff-table.tsx';
import { accommodationQueries } from './accommodation-queries.ts';
import { RollNumber } from '../../../components/ui/roll-number.tsx';

export { accommodationQueries };

const AccommodationForm = lazy(async () => ({ default: (await import('./accommodation-form.tsx')).AccommodationForm }));

/** "20 min (+5 min, +50%)", or what the quiz gives, in the active locale. */
export function describeExtraTime(entry: Accommodation, quizMinutes: number): string {
  const extraMinutes = entry.extraMinutes ? formatNumber(entry.extraMinutes) : null;
  const extraPercent = entry.extraPercent ? formatPercent(entry.extraPercent) : null;
  const minutes = formatNumber(quizMinutes);
  const effective = formatNumber(entry.effectiveMaxTime);
  if (extraMinutes && extraPercent)
    return translate({
      comment: 'A time limit in minutes, then the extra minutes and extra percent that make it',
      message: `${effective} min (+${extraMinutes} min, +${extraPercent})`,
    });
  if (extraMinutes) return translate`${effective} min (+${extraMinutes} min)`;
  if (extraPercent) return translate`${effective} min (+${extraPercent})`;
  return translate`${minutes} min (the quiz’s)`;
}

export function AccommodationsSection({ quiz }: { quiz: TeacherQuizDetail }) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const list = useQuery(accommodationQueries.list(quiz._id));
  // null: no form; 'new', or the accommodation being changed.
  const [editing, setEditing] = useState<Accommodation | 'new' | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const remove = useMutation({
    mutationFn: (studentId: string) => call(removeAccommodation, { params: { id: quiz._id, studentId } }),
    onSuccess: async () => {
      toast.success(t`Accommodation removed`);
      await queryClient.invalidateQueries({ queryKey: accommodationQueries.list(quiz._id).queryKey });
    },
  });
  const entries = list.data ?? [];
  return (
    <section aria-labelledby="accommodations-heading" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="accommodations-heading" className="text-lg font-semibold text-fg">
          <Trans>Accommodations</Trans>
        </h2>
        {editing === null ? (
          <Button variant="secondary" onClick={() => setEditing('new')}>
            <Trans>Add accommodation</Trans>
          </Button>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          Extra time or a later deadline for one student. The correct answers and scores shown “after the deadline” wait
          until every accommodated student has finished.
        </Trans>
      </p>
      {editing !== null ? (
        <Suspense
          fallback={
            <p className="mt-3 text-sm text-muted">
              <Trans>Loading the form…</Trans>
            </p>
          }
        >
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
        <p className="mt-3 text-sm text-muted">
          <Trans>No student has an accommodation on this quiz.</Trans>
        </p>
      ) : (
        <div className="mt-3">
          <StaffTable
            caption={t`Students with accommodations`}
            headers={[t`Student`, t`Time`, t`Deadline`, t`Actions`]}
            rows={entries.map((entry) => {
              const { name } = entry.student;
              return {
                key: entry.student._id,
                heading: (
                  <span>
                    <bdi>{name}</bdi>{' '}
                    <span className="font-normal text-muted">
                      (<RollNumber value={entry.student.rollNumber} />)
                    </span>
                  </span>
                ),
                cells: [
                  describeExtraTime(entry, quiz.maxTime),
                  entry.deadline ? (
                    <time key="deadline" dateTime={entry.deadline}>
                      {formatDateTime(entry.deadline)}
                    </time>
                  ) : (
                    t({ comment: 'The deadline column: the quiz’s own deadline holds', message: 'The quiz’s' })
                  ),
                  <span key="actions" className="flex gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t`Change the accommodation of ${name}`}
                      onClick={() => setEditing(entry)}
                    >
                      <Trans>Change</Trans>
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={remove.isPending}
                      aria-label={t`Remove the accommodation of ${name}`}
                      onClick={() =>
                        setPending({
                          title: t`Remove ${name}’s accommodation?`,
                          description: t`They get the quiz’s own time and deadline; an attempt under way ends sooner.`,
                          confirmLabel: t`Remove accommodation`,
                          run: () => remove.mutate(entry.student._id),
                        })
                      }
                    >
                      <Trans>Remove</Trans>
                    </Button>
                  </span>,
                ],
              };
            })}
          />
        </div>
      )}
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </section>
  );
}
