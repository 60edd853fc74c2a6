import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCw, Send } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { ASSIGNMENT_LIMITS, gradeBodySchema, type HandInDetail, type TeacherAssignment } from '#shared/assignments';
import { gradeHandIn, returnHandIn } from '#shared/contract/assignments';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Badge } from '../../components/staff-table.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { LoadFailure } from '../../components/ui/status-cards.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { parsePoints } from './assignment-draft.ts';
import { CommentThread } from './comment-thread.tsx';
import { HandInFiles } from './hand-in-files.tsx';
import { assignmentQueries } from './assignment-queries.ts';
import { HAND_IN_STATUS_LABELS, handInStatusOf, isGradedLate } from './assignment-states.ts';
import { LateBadge } from './late-badge.tsx';

/** Points as a person reads them: up to two decimals, the locale's digits. */
const pointsNumber = (points: number) => formatNumber(points, { maximumFractionDigits: 2 });

/** A grade's points and feedback as typed, kept through a reload after a conflict. */
type GradeDraft = { points: string; feedback: string };

const gradeDraftOf = (handIn: HandInDetail): GradeDraft => ({
  points: handIn.points === null ? '' : String(handIn.points),
  feedback: handIn.feedback ?? '',
});

/**
 * The grade of one hand-in: points (0 to the assignment's, in halves; none when ungraded) and
 * feedback, sent with the hand-in's version (HAND_IN_CHANGED: it changed since it was read; the
 * teacher reloads it, the form keeps what they typed). A graded hand-in is returned from here;
 * a returned one can be graded again (the student sees the new grade at once, decision 058).
 */
function GradeForm({ assignment, handIn }: { assignment: TeacherAssignment; handIn: HandInDetail }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => gradeDraftOf(handIn));
  const [isStale, setIsStale] = useState(false);
  const [isReturning, setIsReturning] = useState(false);
  const studentName = handIn.student.name;
  const maximum = assignment.points;
  const params = { id: assignment._id, studentId: handIn.student._id };
  const refresh = () => queryClient.invalidateQueries({ queryKey: assignmentQueries.all });

  const form = useEndpointForm({
    schema: gradeBodySchema,
    toBody: () => ({
      points: maximum === null ? null : (parsePoints(draft.points) ?? Number.NaN),
      feedback: draft.feedback,
      version: handIn.version,
    }),
    refineErrors: (found) => {
      const points = parsePoints(draft.points);
      if (found['points'] || maximum === null || points === undefined || points <= maximum) return found;
      return {
        ...found,
        points: () => {
          const worth = plural(maximum, { one: '# point', other: '# points' });
          return t`At most ${worth}: what the assignment is worth`;
        },
      };
    },
    onSubmit: async (_data, { body }) => {
      try {
        await call(gradeHandIn, { params, body });
        toast.success(t`Grade saved: ${studentName}`);
        setIsStale(false);
      } catch (error) {
        const isStaleNow = error instanceof ApiError && ['HAND_IN_CHANGED', 'HAND_IN_LOCKED'].includes(error.code);
        if (isStaleNow) setIsStale(true);
        throw error;
      } finally {
        await refresh();
      }
    },
  });

  const handleReturn = async () => {
    setIsReturning(true);
    try {
      await call(returnHandIn, { params, body: null });
      toast.success(t`Returned to ${studentName}`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    } finally {
      setIsReturning(false);
      await refresh();
    }
  };

  const zero = formatNumber(0);
  const most = maximum === null ? '' : pointsNumber(maximum);
  const example = formatNumber(1.5);
  const isGraded = handIn.state === 'graded' || handIn.state === 'returned';
  return (
    <form {...form.formProps} aria-label={t`Grade of ${studentName}`} className="flex flex-col gap-4">
      {isStale ? (
        <div role="alert" className="rounded-lg border border-warning/40 bg-warning-soft p-3 text-sm text-fg">
          <p>
            {t`This hand-in changed since you opened it: the student took it back, or another teacher graded it. Reload it to see it as it is now; your points and feedback stay in the form.`}
          </p>
          <Button
            variant="secondary"
            size="sm"
            className="mt-2"
            onClick={() => {
              setIsStale(false);
              void refresh();
            }}
          >
            <RotateCw className="size-4" aria-hidden="true" />
            {t`Reload the hand-in`}
          </Button>
        </div>
      ) : null}
      {maximum === null ? (
        <p className="text-sm text-muted">{t`Ungraded assignment: feedback only.`}</p>
      ) : (
        <TextField
          className="max-w-48"
          label={t`Points`}
          {...form.field('points')}
          value={draft.points}
          onChange={(event) => setDraft((current) => ({ ...current, points: event.target.value }))}
          inputMode="decimal"
          autoComplete="off"
          required
          hint={t`${zero} to ${most}, in halves (${example}).`}
        />
      )}
      <TextAreaField
        label={t`Feedback for the student`}
        {...form.field('feedback')}
        value={draft.feedback}
        onChange={(event) => setDraft((current) => ({ ...current, feedback: event.target.value }))}
        maxLength={ASSIGNMENT_LIMITS.feedback}
        rows={4}
        dir="auto"
        hint={handIn.state === 'returned' ? t`Returned: a new grade shows to the student at once.` : undefined}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={form.isSubmitting}>
          {isGraded ? t`Change grade` : t`Save grade`}
        </Button>
        {handIn.state === 'graded' ? (
          <Button variant="secondary" disabled={isReturning} onClick={() => void handleReturn()}>
            <Send className="size-4 rtl:-scale-x-100" aria-hidden="true" />
            {t`Return to the student`}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/**
 * One student's hand-in as a teacher reads it to grade (decision 063): its state, when it was
 * handed in, its text (React text: nothing the student typed becomes markup), then the grade.
 */
export function HandInPanel({
  assignment,
  studentId,
  isFocusedOnOpen,
}: {
  assignment: TeacherAssignment;
  studentId: string;
  /** Chosen in the list (not opened from the address): the focus moves to the panel's heading. */
  isFocusedOnOpen: boolean;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (isFocusedOnOpen) headingRef.current?.focus();
  }, [isFocusedOnOpen]);
  const { t, i18n } = useLingui();
  const handIn = useQuery(assignmentQueries.handIn(assignment._id, studentId));
  const data = handIn.data;
  const status = data ? handInStatusOf(data) : null;
  return (
    <section aria-labelledby="hand-in-heading" className={cn(cardVariants(), 'flex flex-col gap-4 p-4 sm:p-6')}>
      <h2 id="hand-in-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-fg outline-none">
        {data ? (
          <Trans>
            Hand-in of <bdi>{data.student.name}</bdi>
          </Trans>
        ) : (
          t`Hand-in`
        )}
      </h2>
      {handIn.isError ? (
        <LoadFailure
          title={t`The hand-in could not be loaded.`}
          message={handIn.error.message}
          onRetry={() => void handIn.refetch()}
        />
      ) : !data ? (
        <LoadingStatus>{t`Loading the hand-in…`}</LoadingStatus>
      ) : (
        <>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
            {status ? (
              <Badge tone={status === 'missing' || status === 'late' ? 'warning' : 'neutral'}>
                {i18n._(HAND_IN_STATUS_LABELS[status])}
              </Badge>
            ) : null}
            {data && isGradedLate(data) ? <LateBadge /> : null}
            {data.submittedAt ? (
              <Trans>
                Handed in <time dateTime={data.submittedAt}>{formatDateTime(data.submittedAt)}</time>
              </Trans>
            ) : null}
            {data.returnedAt ? (
              <Trans>
                Returned <time dateTime={data.returnedAt}>{formatDateTime(data.returnedAt)}</time>
              </Trans>
            ) : null}
            {data.gradeChangedAfterReturn ? <Badge tone="brand">{t`Grade changed after its return`}</Badge> : null}
          </p>
          {data.state === 'not-handed-in' ? (
            <p className="text-sm text-muted">{t`Nothing handed in yet. A draft stays the student’s own until they hand it in.`}</p>
          ) : (
            <div>
              <h3 className="text-sm font-medium text-fg">{t`Their text`}</h3>
              {data.text.trim() === '' ? (
                <p className="mt-1 text-sm text-muted">{t`No text: see the files.`}</p>
              ) : (
                <div
                  dir="auto"
                  className="mt-2 max-h-[28rem] overflow-y-auto rounded-lg border border-line bg-surface-muted p-3 text-sm wrap-anywhere whitespace-pre-wrap text-fg"
                >
                  {data.text}
                </div>
              )}
            </div>
          )}
          {data.state === 'not-handed-in' ? null : (
            <HandInFiles of={{ assignmentId: assignment._id, studentId: data.student._id }} />
          )}
          {data.state === 'not-handed-in' ? null : (
            <GradeForm key={data.student._id} assignment={assignment} handIn={data} />
          )}
          <CommentThread thread={{ assignmentId: assignment._id, studentId: data.student._id }} />
        </>
      )}
    </section>
  );
}
