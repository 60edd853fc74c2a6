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
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../../components/ui/status-cards.tsx';
import { ApiError, call } from '../../../lib/api.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QuestionText } from '../question-text.tsx';
import { formatPoints, pointsLabel } from '../question-response.ts';

/**
 * The marking screen (decision 046): a quiz's essays, awaiting marking or marked, question by
 * question as the server sorts them, each with the student's text and a form for its points and
 * comment. Its own route and chunk, reached from the quiz's analytics (their budget).
 */

const VIEWS: { view: MarkingView; label: string }[] = [
  { view: 'awaiting', label: 'Awaiting marking' },
  { view: 'marked', label: 'Marked' },
];

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
  const name = `${essay.attemptId}-${essay.question._id}`;
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
        ? { ...found, points: `At most ${pointsLabel(essay.question.points)}: what the question is worth` }
        : found;
    },
    onSubmit: async (_data, { body }) => {
      try {
        const { message } = await call(markEssay, {
          params: { id: quizId, attemptId: essay.attemptId, questionId: essay.question._id },
          body,
        });
        toast.success(`${message}: ${essay.student.name}`);
      } finally {
        // Marked (it moves to "Marked") or marked meanwhile by someone else: show the list as it is now.
        await queryClient.invalidateQueries({ queryKey: essaysQueryKey(quizId) });
      }
    },
  });
  const pointsHint = `0 to ${formatPoints(essay.question.points)}, in halves (1.5).`;
  return (
    <form
      {...form.formProps}
      aria-label={`Mark of ${essay.student.name}, question ${essay.question.number}`}
      className="mt-4 grid gap-4 border-t border-line pt-4 sm:grid-cols-[10rem_1fr]"
    >
      <TextField
        label="Points"
        id={`${name}-points`}
        {...form.field('points')}
        inputMode="decimal"
        autoComplete="off"
        required
        defaultValue={essay.mark ? String(essay.mark.points) : ''}
        hint={pointsHint}
      />
      <TextAreaField
        label="Comment for the student (optional)"
        id={`${name}-comment`}
        {...form.field('comment')}
        maxLength={QUESTION_LIMITS.commentMax}
        defaultValue={essay.mark?.comment ?? ''}
        hint="Shown with the points when the quiz’s review options show each question’s points."
      />
      <div className="sm:col-span-2">
        <Button type="submit" disabled={form.isSubmitting}>
          {essay.mark ? 'Change mark' : 'Save mark'}
        </Button>
      </div>
    </form>
  );
}

function EssayCard({ quizId, essay }: { quizId: string; essay: EssayToMark }) {
  const headingId = `essay-${essay.attemptId}-${essay.question._id}`;
  return (
    <li>
      <Card padding="md" aria-labelledby={headingId} role="group" data-testid="essay-to-mark">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 id={headingId} className="text-base font-semibold text-fg">
            {essay.student.name}
            <span className="ms-2 text-sm font-normal text-muted">{essay.student.rollNumber}</span>
          </h2>
          <p className="text-sm text-muted">
            Submitted <time dateTime={essay.submittedAt}>{formatDateTime(essay.submittedAt)}</time>
          </p>
        </div>
        <p className="mt-2 text-sm text-fg">
          <span className="font-semibold text-brand-700">
            Q{essay.question.number} ({pointsLabel(essay.question.points)}).{' '}
          </span>
          <QuestionText text={essay.question.question_text} />
        </p>
        {essay.question.guidance ? (
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer rounded font-medium text-brand-800">Marking guidance</summary>
            <p className="mt-1 wrap-anywhere whitespace-pre-wrap text-fg">{essay.question.guidance}</p>
          </details>
        ) : null}
        <div className="mt-3 rounded-lg bg-surface-muted p-3">
          <p className="text-xs font-semibold text-muted uppercase">Answer</p>
          <p className="mt-1 wrap-anywhere whitespace-pre-wrap text-fg">{essay.text}</p>
        </div>
        {essay.mark ? (
          <p className="mt-3 text-sm text-muted">
            Marked {formatPoints(essay.mark.points)} / {pointsLabel(essay.question.points)}
            {essay.mark.markedBy ? ` by ${essay.mark.markedBy}` : ''} on{' '}
            <time dateTime={essay.mark.markedAt}>{formatDateTime(essay.mark.markedAt)}</time>
          </p>
        ) : null}
        {/* Keyed by version: a mark given meanwhile refills the form with it. */}
        <MarkForm key={essay.version} quizId={quizId} essay={essay} />
      </Card>
    </li>
  );
}

function describeFailure(error: Error) {
  if (error instanceof ApiError && error.code === 'FORBIDDEN')
    return 'Only the teachers of the quiz’s class can mark its essays.';
  if (error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED'))
    return 'There is no quiz at this address.';
  return error.message;
}

/** /dashboard/teacher/quiz-analytics/:quizID/marking */
export function Component() {
  const { quizID = '' } = useParams();
  const [view, setView] = useState<MarkingView>('awaiting');
  const essays = useEssays(quizID, view);
  const analyticsPath = `/dashboard/teacher/quiz-analytics/${encodeURIComponent(quizID)}`;
  return (
    <div className="mx-auto w-full max-w-4xl">
      <BackLink to={analyticsPath}>Quiz analytics</BackLink>
      <PageHeader
        className="mt-3"
        title="Mark essays"
        description="Give each written answer its points and, if you like, a comment. The score of an attempt is final once all its essays are marked."
      />
      <div role="group" aria-label="Which essays" className="mt-4 flex flex-wrap gap-2">
        {VIEWS.map((option) => (
          <Button
            key={option.view}
            variant={view === option.view ? 'primary' : 'secondary'}
            aria-pressed={view === option.view}
            onClick={() => setView(option.view)}
          >
            {option.label}
          </Button>
        ))}
      </div>
      {essays.isPending ? (
        <LoadingStatus className="mt-4">Loading the essays…</LoadingStatus>
      ) : essays.isError ? (
        <LoadFailure
          className="mt-4"
          title="The essays could not be loaded"
          message={describeFailure(essays.error)}
          onRetry={() => void essays.refetch()}
        />
      ) : essays.items.length === 0 ? (
        <EmptyState className="mt-4" title={view === 'awaiting' ? 'No essays await marking' : 'No essays marked yet'} />
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
