import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import toast from 'react-hot-toast/headless';
import { listEssaysToMark, markEssay } from '#shared/contract/quiz-marking';
import { parseNumber, QUESTION_LIMITS } from '#shared/question-types';
import { essayMarkInputSchema, MARKING_LIMITS, type EssayToMark, type MarkingView } from '#shared/quiz-marking';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../../components/ui/status-cards.tsx';
import { ApiError, call } from '../../../lib/api.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { earnedOfLabel } from '../points.ts';
import { QuestionText } from '../question-text.tsx';
import { RollNumber } from '../../../components/ui/roll-number.tsx';

/**
 * The marking screen (decision 046): a quiz's essays, awaiting marking or marked, question by
 * question as the server sorts them, each with the student's text and a form for its points and
 * comment. Its own route and chunk, reached from the quiz's analytics (their budget).
 */

const VIEWS: { view: MarkingView; label: MessageDescriptor }[] = [
  { view: 'awaiting', label: msg`Awaiting marking` },
  { view: 'marked', label: msg({ comment: 'Which essays: those already marked', message: 'Marked' }) },
];

/** Points as a person reads them: up to two decimals, the locale's digits. */
const pointsNumber = (points: number) => formatNumber(points, { maximumFractionDigits: 2 });
const pointsPlural = (points: number) => plural(points, { one: '# point', other: '# points' });

export const essaysQueryKey = (quizId: string) => ['quiz', 'essays', quizId] as const;

function useEssays(quizId: string, view: MarkingView) {
  const query = useInfiniteQuery({
    queryKey: [...essaysQueryKey(quizId), view],
    queryFn: ({ pageParam, signal }) =>
      call(
        listEssaysToMark,
        { params: { id: quizId }, query: { view, offset: pageParam, limit: MARKING_LIMITS.pageSizeDefault } },
        { signal },
      ),
    initialPageParam: 0,
    getNextPageParam: ({ page }) => (page?.hasMore ? page.offset + page.limit : undefined),
  });
  return { ...query, items: query.data?.pages.flatMap((page) => page.data) ?? [] };
}

/** One essay's form: points (half steps, up to the question's) and a comment the student sees with them. */
export function MarkForm({ quizId, essay }: { quizId: string; essay: EssayToMark }) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const name = `${essay.attemptId}-${essay.question._id}`;
  const studentName = essay.student.name;
  const questionNumber = formatNumber(essay.question.number);
  const form = useEndpointForm({
    schema: essayMarkInputSchema,
    toBody: (element) => {
      const data = new FormData(element);
      const textOf = (key: string) => {
        const value = data.get(key);
        return typeof value === 'string' ? value : '';
      };
      const points = textOf('points').trim();
      return {
        points: points === '' ? Number.NaN : (parseNumber(points) ?? Number.NaN),
        comment: textOf('comment'),
        version: essay.version,
      };
    },
    refineErrors: (found) => {
      if (found.points) return found;
      const element = document.getElementById(`${name}-points`) as HTMLInputElement | null;
      const points = parseNumber(element?.value ?? '');
      return points !== undefined && points > essay.question.points
        ? {
            ...found,
            points: () => {
              const worth = pointsPlural(essay.question.points);
              return t`At most ${worth}: what the question is worth`;
            },
          }
        : found;
    },
    onSubmit: async (_data, { body }) => {
      try {
        await call(markEssay, {
          params: { id: quizId, attemptId: essay.attemptId, questionId: essay.question._id },
          body,
        });
        toast.success(t`Essay marked: ${studentName}`);
      } finally {
        // Marked (it moves to "Marked") or marked meanwhile by someone else: show the list as it is now.
        await queryClient.invalidateQueries({ queryKey: essaysQueryKey(quizId) });
      }
    },
  });
  const zero = formatNumber(0);
  const most = pointsNumber(essay.question.points);
  const example = formatNumber(1.5);
  const pointsHint = t`${zero} to ${most}, in halves (${example}).`;
  return (
    <form
      {...form.formProps}
      aria-label={t`Mark of ${studentName}, question ${questionNumber}`}
      className="mt-4 grid gap-4 border-t border-line pt-4 sm:grid-cols-[10rem_1fr]"
    >
      <TextField
        label={t`Points`}
        id={`${name}-points`}
        {...form.field('points')}
        inputMode="decimal"
        autoComplete="off"
        required
        defaultValue={essay.mark ? String(essay.mark.points) : ''}
        hint={pointsHint}
      />
      <TextAreaField
        label={t`Comment for the student (optional)`}
        id={`${name}-comment`}
        {...form.field('comment')}
        maxLength={QUESTION_LIMITS.commentMax}
        defaultValue={essay.mark?.comment ?? ''}
        hint={t`Shown with the points when the quiz’s review options show each question’s points.`}
      />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={form.isSubmitting}>
          {essay.mark ? t`Change mark` : t`Save mark`}
        </Button>
      </div>
    </form>
  );
}

function EssayCard({ quizId, essay }: { quizId: string; essay: EssayToMark }) {
  const headingId = `essay-${essay.attemptId}-${essay.question._id}`;
  const { t } = useLingui();
  const submittedAt = formatDateTime(essay.submittedAt);
  const number = formatNumber(essay.question.number);
  const worth = pointsPlural(essay.question.points);
  return (
    <li>
      <Card padding="md" aria-labelledby={headingId} role="group" data-testid="essay-to-mark">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 id={headingId} className="text-base font-semibold text-fg">
            {essay.student.name}
            <RollNumber value={essay.student.rollNumber} className="ms-2 text-sm font-normal text-muted" />
          </h2>
          <p className="text-sm text-muted">
            <Trans>
              Submitted <time dateTime={essay.submittedAt}>{submittedAt}</time>
            </Trans>
          </p>
        </div>
        <p className="mt-2 text-sm text-fg">
          <span className="font-semibold text-brand-700">
            {t({ comment: 'Q1 is question 1, then what it is worth', message: `Q${number} (${worth}).` })}{' '}
          </span>
          <QuestionText text={essay.question.question_text} />
        </p>
        {essay.question.guidance ? (
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer rounded font-medium text-brand-800">
              <Trans>Marking guidance</Trans>
            </summary>
            <p className="mt-1 wrap-anywhere whitespace-pre-wrap text-fg">{essay.question.guidance}</p>
          </details>
        ) : null}
        <div className="mt-3 rounded-lg bg-surface-muted p-3">
          <p className="text-xs font-semibold text-muted uppercase">
            <Trans>Answer</Trans>
          </p>
          <p className="mt-1 wrap-anywhere whitespace-pre-wrap text-fg">{essay.text}</p>
        </div>
        {essay.mark ? <MarkLine mark={essay.mark} worth={essay.question.points} /> : null}
        {/* Keyed by version: a mark given meanwhile refills the form with it. */}
        <MarkForm key={essay.version} quizId={quizId} essay={essay} />
      </Card>
    </li>
  );
}

/** "Marked 3.5 / 4 points by Ms Doe on 21 Nov 2026, 16:05". */
function MarkLine({ mark, worth }: { mark: NonNullable<EssayToMark['mark']>; worth: number }) {
  // One reading, ordered by its own message ("3.5 / 4 points"; Arabic "٣٫٥ من أصل ٤ نقاط").
  const score = earnedOfLabel(mark.points, worth);
  const markedAt = formatDateTime(mark.markedAt);
  const { markedBy } = mark;
  return (
    <p className="mt-3 text-sm text-muted">
      {markedBy ? (
        <Trans>
          Marked {score} by <bdi>{markedBy}</bdi> on <time dateTime={mark.markedAt}>{markedAt}</time>
        </Trans>
      ) : (
        <Trans>
          Marked {score} on <time dateTime={mark.markedAt}>{markedAt}</time>
        </Trans>
      )}
    </p>
  );
}

function describeFailure(error: Error) {
  if (error instanceof ApiError && error.code === 'FORBIDDEN')
    return translate`Only the teachers of the quiz’s class can mark its essays.`;
  if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED'))
    return translate`There is no quiz at this address.`;
  return error.message;
}

/** /dashboard/teacher/quiz-analytics/:quizID/marking */
export function Component() {
  const { quizID = '' } = useParams();
  const [view, setView] = useState<MarkingView>('awaiting');
  const essays = useEssays(quizID, view);
  const analyticsPath = `/dashboard/teacher/quiz-analytics/${encodeURIComponent(quizID)}`;
  const { t, i18n } = useLingui();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <BackLink to={analyticsPath}>
        <Trans>Quiz analytics</Trans>
      </BackLink>
      <PageTitle>{t`Mark essays`}</PageTitle>
      <PageHeader
        className="mt-3"
        title={t`Mark essays`}
        description={t`Give each written answer its points and, if you like, a comment. The score of an attempt is final once all its essays are marked.`}
      />
      <div role="group" aria-label={t`Which essays`} className="mt-4 flex flex-wrap gap-2">
        {VIEWS.map((option) => (
          <Button
            key={option.view}
            variant={view === option.view ? 'primary' : 'secondary'}
            aria-pressed={view === option.view}
            onClick={() => setView(option.view)}
          >
            {i18n._(option.label)}
          </Button>
        ))}
      </div>
      {essays.isPending ? (
        <LoadingStatus className="mt-4">
          <Trans>Loading the essays…</Trans>
        </LoadingStatus>
      ) : essays.isError ? (
        <LoadFailure
          className="mt-4"
          title={t`The essays could not be loaded`}
          message={describeFailure(essays.error)}
          onRetry={() => void essays.refetch()}
        />
      ) : essays.items.length === 0 ? (
        <EmptyState
          className="mt-4"
          title={view === 'awaiting' ? t`No essays await marking` : t`No essays marked yet`}
        />
      ) : (
        <ol className={cn('mt-4 flex flex-col gap-4')}>
          {essays.items.map((essay) => (
            <EssayCard key={`${essay.attemptId}-${essay.question._id}`} quizId={quizID} essay={essay} />
          ))}
        </ol>
      )}
      <LoadMoreButton list={essays} />
    </div>
  );
}
