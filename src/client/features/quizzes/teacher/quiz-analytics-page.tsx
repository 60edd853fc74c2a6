import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, Check, CircleDot, Download, X } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isDescription } from '#shared/question-types';
import { type AttemptRecord, type QuizQuestion, type TeacherQuizDetail } from '#shared/quizzes';
import { QuestionImage, QuestionText } from '../question-text.tsx';
import { keyText, outcomeOf, questionNumbers, responseText, type Outcome } from '../question-response.ts';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { teacherDetailQuery } from '../teacher-detail-query.ts';
import { cn } from '../../../lib/cn.ts';
import { STACKED_TABLE } from '../../../components/ui/stacked-table.ts';
import { ExportGiftButton } from './export-gift-button.tsx';
import { QuestionHeader } from './question-header.tsx';
import { QuestionStatsSection } from './question-stats-section.tsx';
import {
  compareNames,
  formatDateTime,
  formatDay,
  formatNumber,
  formatPercent,
  formatScore,
} from '../../../lib/format.ts';
import { QUESTION_TYPE_MESSAGES } from './question-type-labels.ts';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { EmptyState } from '../../../components/ui/status-cards.tsx';
import { cardVariants } from '../../../components/ui/card.tsx';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { downloadBlob } from '../../../lib/download-file.ts';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { QueryPage } from '../../../components/query-page.tsx';
import { QuizLifecycleActions } from './quiz-lifecycle-actions.tsx';
import { AccommodationsSection, accommodationQueries } from './accommodations-section.tsx';
import { RollNumber } from '../../../components/ui/roll-number.tsx';

// On the teacher's request (check-bundle's LOADED_ON_USER_ACTION): the screen is at its budget.
const LiveGamesList = lazy(async () => ({ default: (await import('./live-games-section.tsx')).LiveGamesList }));

const ALL_QUIZ_PATH = '/dashboard/teacher/all-quiz';

async function downloadCsv(quiz: TeacherQuizDetail) {
  // Loaded on the click (check-bundle's LOADED_ON_USER_ACTION): the screen shows without it.
  const { attemptsCsv, attemptsCsvFileName } = await import('./analytics-csv.ts');
  // The byte order mark makes spreadsheet programs read the file as UTF-8.
  downloadBlob(
    new Blob(['\uFEFF', attemptsCsv(quiz)], { type: 'text/csv;charset=utf-8' }),
    attemptsCsvFileName(quiz.title),
  );
}

const OUTCOME_STYLE: Record<Outcome | 'awaiting', { cell: string; label: MessageDescriptor }> = {
  full: { cell: 'bg-success-soft text-success', label: msg({ comment: 'An answer’s outcome', message: 'correct' }) },
  partial: { cell: 'bg-warning-soft text-warning', label: msg`partly correct` },
  none: { cell: 'bg-danger-soft text-danger-strong', label: msg`wrong` },
  // An essay not marked yet (decision 046): neither right nor wrong.
  awaiting: { cell: 'bg-surface text-fg', label: msg`awaiting marking` },
};

/** Points as a person reads them: up to two decimals, the locale's digits. */
const pointsNumber = (points: number) => formatNumber(points, { maximumFractionDigits: 2 });
const pointsPlural = (points: number) => plural(points, { one: '# point', other: '# points' });

/** A question's column name, "Q1", as its header says it: on a phone it names the line of each card. */
const questionLabel = (index: number) => {
  const number = formatNumber(index + 1);
  return translate({ comment: 'A table column: Q1 is question 1', message: `Q${number}` });
};

/**
 * At phone width the table reads as one card per attempt (STACKED_TABLE, issue 32: no sideways
 * scrolling at 390 px): the student, then a line per column after its name. The sort buttons
 * and the question headers (Q1..., a tap shows the question, issue 30 point 13) stay on screen as
 * a row above the cards, whose lines carry the same names. The first column is kept in view only
 * where the table scrolls (sm up).
 */
const PHONE_CELL = 'max-sm:border-0 max-sm:px-3';

type AttemptAnswer = AttemptRecord['quiz']['questions'][number];

export function AnswerCell({
  question,
  answer,
  label: columnLabel,
}: {
  question: QuizQuestion;
  answer: AttemptAnswer | undefined;
  /** The column's name, "Q1", shown before the answer on a phone. */
  label?: string;
}) {
  const text = responseText(question, answer?.response);
  const earned = answer?.earnedPoints ?? 0;
  const outcome = answer?.awaitingMarking ? 'awaiting' : outcomeOf(earned, question.points);
  const Icon = outcome === 'full' ? Check : outcome === 'partial' || outcome === 'awaiting' ? CircleDot : X;
  const { t, i18n } = useLingui();
  const label = i18n._(OUTCOME_STYLE[outcome].label);
  const given = pointsNumber(earned);
  const worth = pointsPlural(question.points);
  return (
    <td
      className={cn(
        'border-s border-b border-line px-3 py-2 align-top',
        columnLabel !== undefined && cn(STACKED_TABLE.line, PHONE_CELL, 'max-sm:my-0.5 max-sm:rounded'),
        OUTCOME_STYLE[outcome].cell,
      )}
      data-outcome={outcome}
      data-label={columnLabel}
    >
      {/* Words stay whole: wider screens scroll the table sideways instead of writing "M/ar/s". */}
      <span className="flex max-w-56 min-w-20 items-start gap-1.5 max-sm:max-w-none max-sm:min-w-0">
        <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {text !== '' ? <QuestionText text={text} className="wrap-break-word" /> : <span aria-hidden="true">—</span>}
        <span className="sr-only">
          {text === ''
            ? t({
                comment: 'An answer cell: correct, 1 of 2 points',
                message: `Unanswered (${label}, ${given} of ${worth})`,
              })
            : ` ${t({ comment: 'An answer cell: correct, 1 of 2 points', message: `(${label}, ${given} of ${worth})` })}`}
        </span>
      </span>
    </td>
  );
}

/** The questions with an answer and points: the table's columns (a description has neither, decision 045). */
const answeredQuestions = (quiz: TeacherQuizDetail) =>
  quiz.quiz.questions.filter((question) => !isDescription(question));

function AttemptRow({
  attempt,
  quiz,
  isAccommodated,
}: {
  attempt: AttemptRecord;
  quiz: TeacherQuizDetail;
  isAccommodated: boolean;
}) {
  const answers = new Map(attempt.quiz.questions.map((answer) => [answer._id, answer]));
  const { i18n } = useLingui();
  const line = cn('border-b border-line px-3 py-2 align-top whitespace-nowrap', STACKED_TABLE.line, PHONE_CELL);
  return (
    <tr className={cn(STACKED_TABLE.row, 'max-sm:border-b max-sm:border-line')}>
      <th
        scope="row"
        className={cn(
          'start-0 z-10 border-b border-line bg-surface px-3 py-2 text-start align-top font-medium sm:sticky',
          STACKED_TABLE.heading,
          PHONE_CELL,
        )}
      >
        <span className="block max-w-48 min-w-28 wrap-break-word text-fg max-sm:max-w-none">{attempt.user.name}</span>
        <span className="block text-xs font-normal text-muted">
          <RollNumber value={attempt.user.rollNumber} />
        </span>
        {isAccommodated ? (
          <span className="mt-1 inline-flex rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
            <Trans>Accommodated</Trans>
          </span>
        ) : null}
      </th>
      <td data-label={i18n._(SORTS.score.label)} className={cn(line, 'tabular-nums max-sm:flex-wrap')}>
        {formatScore(attempt.score, quiz.totalPoints)}
        {attempt.awaitingMarking ? (
          <span className="block text-xs text-muted">
            <Trans>so far: awaiting marking</Trans>
          </span>
        ) : null}
      </td>
      <td data-label={i18n._(SORTS.accuracy.label)} className={cn(line, 'tabular-nums')}>
        {formatPercent(attempt.accuracy)}
      </td>
      <td data-label={i18n._(SORTS.attemptedAt.label)} className={cn(line, 'max-sm:whitespace-normal')}>
        <time dateTime={attempt.attemptedAt}>{formatDateTime(attempt.attemptedAt)}</time>
      </td>
      {answeredQuestions(quiz).map((question, index) => (
        <AnswerCell
          key={question._id}
          question={question}
          answer={answers.get(question._id)}
          label={questionLabel(index)}
        />
      ))}
    </tr>
  );
}

type SortColumn = 'name' | 'score' | 'accuracy' | 'attemptedAt';
type Sort = { column: SortColumn; direction: 'ascending' | 'descending' };

/** Each column's order, and which way a first click sorts it (names A-Z, numbers and dates best or latest first). */
const SORTS: Record<
  SortColumn,
  { label: MessageDescriptor; firstDirection: Sort['direction']; compare(a: AttemptRecord, b: AttemptRecord): number }
> = {
  name: { label: msg`Name`, firstDirection: 'ascending', compare: (a, b) => compareNames(a.user.name, b.user.name) },
  score: { label: msg`Score`, firstDirection: 'descending', compare: (a, b) => a.score - b.score },
  accuracy: {
    label: msg`Accuracy`,
    firstDirection: 'descending',
    compare: (a, b) => Number(a.accuracy) - Number(b.accuracy),
  },
  attemptedAt: {
    label: msg`Attempted at`,
    firstDirection: 'descending',
    compare: (a, b) => Date.parse(a.attemptedAt) - Date.parse(b.attemptedAt),
  },
};

/** Attempts in the chosen order; equal values by name, so the order is stable. */
export function sortAttempts(attempts: AttemptRecord[], sort: Sort | null): AttemptRecord[] {
  if (!sort) return attempts;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...attempts].sort(
    (a, b) => sign * SORTS[sort.column].compare(a, b) || compareNames(a.user.name, b.user.name),
  );
}

/** Of the attempts, the share that earned all of each question's points. */
function percentCorrect(quiz: TeacherQuizDetail, question: QuizQuestion): number {
  const right = quiz.attempts.filter((attempt) => {
    const answer = attempt.quiz.questions.find((chosen) => chosen._id === question._id);
    return outcomeOf(answer?.earnedPoints ?? 0, question.points) === 'full';
  }).length;
  return Math.round((right / quiz.attempts.length) * 10_000) / 100;
}

function SortableHeader({
  column,
  sort,
  onSort,
  className,
}: {
  column: SortColumn;
  sort: Sort | null;
  onSort(sort: Sort): void;
  className?: string;
}) {
  const { label, firstDirection } = SORTS[column];
  const { i18n } = useLingui();
  const direction = sort?.column === column ? sort.direction : undefined;
  const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <th scope="col" aria-sort={direction ?? 'none'} className={className}>
      <button
        type="button"
        onClick={() =>
          onSort({
            column,
            direction: direction ? (direction === 'ascending' ? 'descending' : 'ascending') : firstDirection,
          })
        }
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 font-semibold hover:text-brand-800"
      >
        {i18n._(label)}
        <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      </button>
    </th>
  );
}

function AttemptsTable({ quiz }: { quiz: TeacherQuizDetail }) {
  const [sort, setSort] = useState<Sort | null>(null);
  // The students with extra time or a later deadline (decision 036), marked in their rows.
  const accommodations = useQuery(accommodationQueries.list(quiz._id));
  const accommodated = new Set((accommodations.data ?? []).map((entry) => entry.student._id));
  const { t } = useLingui();
  // On a phone the sort buttons and the question headers are a row of their own above the cards.
  const headerCell =
    'border-b border-line-strong bg-surface-muted py-2 text-start font-semibold whitespace-nowrap max-sm:border-0 max-sm:bg-transparent max-sm:p-0';
  const sortCell = cn(headerCell, 'px-3');
  const footerCell = 'border-t bg-surface-sunken px-3 py-2 font-semibold tabular-nums';
  return (
    <div
      role="region"
      aria-label={t`Attempts table`}
      tabIndex={0}
      // relative: the sr-only labels inside are absolutely placed and must scroll (and clip) with the table.
      className="relative mt-3 overflow-x-auto rounded-xl border border-line bg-surface shadow-sm"
    >
      <table className={cn('min-w-full border-separate border-spacing-0 text-sm text-fg', STACKED_TABLE.table)}>
        <caption className="sr-only">
          <Trans>
            One row per attempt. Each question column shows the answer given, marked correct, partly correct or wrong.
            The last row gives the share of attempts that earned all of each question’s points. Sort with the column
            buttons.
          </Trans>
        </caption>
        <thead className="max-sm:block">
          <tr className="max-sm:flex max-sm:flex-wrap max-sm:gap-x-4 max-sm:gap-y-1 max-sm:border-b max-sm:border-line-strong max-sm:bg-surface-muted max-sm:px-3 max-sm:py-2">
            <SortableHeader
              column="name"
              sort={sort}
              onSort={setSort}
              className={cn(sortCell, 'start-0 z-20 sm:sticky')}
            />
            <SortableHeader column="score" sort={sort} onSort={setSort} className={sortCell} />
            <SortableHeader column="accuracy" sort={sort} onSort={setSort} className={sortCell} />
            <SortableHeader column="attemptedAt" sort={sort} onSort={setSort} className={sortCell} />
            {answeredQuestions(quiz).map((question, index) => (
              <th key={question._id} scope="col" className={cn(headerCell, 'border-s px-1.5')}>
                <QuestionHeader number={index + 1} text={question.question_text} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED_TABLE.body}>
          {sortAttempts(quiz.attempts, sort).map((attempt) => (
            <AttemptRow
              key={attempt._id}
              attempt={attempt}
              quiz={quiz}
              isAccommodated={accommodated.has(attempt.user._id)}
            />
          ))}
        </tbody>
        <tfoot className="max-sm:block">
          <tr className={cn(STACKED_TABLE.row, 'max-sm:bg-surface-sunken')}>
            <th
              scope="row"
              className={cn(
                footerCell,
                'start-0 z-10 border-line-strong text-start sm:sticky',
                STACKED_TABLE.heading,
                PHONE_CELL,
              )}
            >
              <Trans>% correct</Trans>
            </th>
            <td className={cn(footerCell, 'border-line-strong max-sm:sr-only')} colSpan={3}>
              <span className="sr-only">
                <Trans>Per question:</Trans>
              </span>
            </td>
            {answeredQuestions(quiz).map((question, index) => (
              <td
                key={question._id}
                data-label={questionLabel(index)}
                className={cn(footerCell, 'border-s border-line', STACKED_TABLE.line, PHONE_CELL)}
              >
                {formatPercent(percentCorrect(quiz, question))}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** To the marking screen (decision 046, its own route and chunk), when the quiz has essays: how many await marking. */
function MarkEssaysLink({ quiz }: { quiz: TeacherQuizDetail }) {
  const { t } = useLingui();
  if (!quiz.quiz.questions.some((question) => question.type === 'essay')) return null;
  const awaiting = quiz.attempts.reduce(
    (count, attempt) => count + attempt.quiz.questions.filter((answer) => answer.awaitingMarking).length,
    0,
  );
  const count = formatNumber(awaiting);
  return (
    <Link
      to={`/dashboard/teacher/quiz-analytics/${encodeURIComponent(quiz._id)}/marking`}
      className={buttonVariants({ variant: awaiting > 0 ? 'primary' : 'secondary' })}
    >
      {awaiting > 0 ? t`Mark essays (${count} awaiting)` : t`Mark essays`}
    </Link>
  );
}

function QuizAnalytics({ quiz }: { quiz: TeacherQuizDetail }) {
  const numbers = questionNumbers(quiz.quiz.questions);
  const { t } = useLingui();
  const minutes = formatNumber(quiz.maxTime);
  const facts: [string, React.ReactNode][] = [
    [t`Class`, quiz.class],
    [t`Subject`, quiz.subject],
    [t`Created`, <time dateTime={quiz.date}>{formatDay(quiz.date)}</time>],
    [t`Deadline`, <time dateTime={quiz.deadline}>{formatDateTime(quiz.deadline)}</time>],
    [t`Time limit`, t`${minutes} min`],
    [t`Total points`, pointsNumber(quiz.totalPoints)],
    ...(quiz.archivedAt
      ? ([[t({ comment: 'When the quiz was archived', message: 'Archived' }), formatDay(quiz.archivedAt)]] as [
          string,
          string,
        ][])
      : []),
    [t`Total attempts`, formatNumber(quiz.attempts.length)],
  ];
  return (
    <>
      <PageTitle>{t`Quiz analytics`}</PageTitle>
      <PageHeader
        className="mt-3"
        title={quiz.title}
        actions={
          <>
            <MarkEssaysLink quiz={quiz} />
            <ExportGiftButton quizId={quiz._id} />
            <QuizLifecycleActions quiz={quiz} />
          </>
        }
      />
      {quiz.regrades.map((regrade) => {
        const date = formatDateTime(regrade.at);
        const { attemptsChanged } = regrade;
        const changed = plural(attemptsChanged, { one: '# attempt changed', other: '# attempts changed' });
        return (
          <p key={regrade.at} className="mt-3 text-sm text-fg">
            <Trans>
              Regraded on {date} ({changed})
            </Trans>
          </p>
        );
      })}
      <dl className={cn(cardVariants(), 'mt-4 grid grid-cols-2 gap-4 p-4 sm:grid-cols-3 sm:p-5 lg:grid-cols-6')}>
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</dt>
            <dd className="mt-1 wrap-anywhere text-fg">{value}</dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="attempts-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="attempts-heading" className="text-lg font-semibold text-fg">
            <Trans>Attempts</Trans>
          </h2>
          {quiz.attempts.length > 0 ? (
            <Button variant="secondary" onClick={() => void downloadCsv(quiz)}>
              <Download className="size-4" aria-hidden="true" />
              <Trans>Download CSV</Trans>
            </Button>
          ) : null}
        </div>
        {quiz.attempts.length === 0 ? (
          <EmptyState className="mt-3" title={t`No attempts made`} />
        ) : (
          <>
            <p className="mt-1 text-sm text-muted">
              <Trans>
                Hover or focus a question number to read the question. Green with a tick: all its points; amber with a
                dot: some; red with a cross: none (wrong or unanswered).
              </Trans>
            </p>
            <AttemptsTable quiz={quiz} />
          </>
        )}
      </section>

      <AccommodationsSection quiz={quiz} />

      <QuestionStatsSection quiz={quiz} />

      <LiveGamesSection quizId={quiz._id} />

      <section aria-labelledby="questions-heading" className="mt-8">
        <h2 id="questions-heading" className="text-lg font-semibold text-fg">
          <Trans>Questions</Trans>
        </h2>
        <ol className="mt-3 flex flex-col gap-2">
          {quiz.quiz.questions.map((question) => (
            <li key={question._id} className="rounded-lg border border-line bg-surface px-4 py-3 text-sm">
              <p className="wrap-anywhere text-fg">
                <QuestionNumber number={numbers.get(question._id)} /> <QuestionText text={question.question_text} />
              </p>
              {question.image ? (
                <QuestionImage
                  image={question.image}
                  className="mt-2 max-h-32 w-auto max-w-full rounded-md border border-line bg-surface-muted object-contain"
                />
              ) : null}
              <QuestionFacts question={question} />
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

/**
 * The quiz's finished live games (issue 34 point 6), listed once asked for: `?live=1` keeps the
 * list open in the address, so the way back from a game's report finds it open.
 */
function LiveGamesSection({ quizId }: { quizId: string }) {
  const [search, setSearch] = useSearchParams();
  const isOpen = search.get('live') === '1';
  return (
    <section aria-labelledby="live-games-heading" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="live-games-heading" className="text-lg font-semibold text-fg">
          <Trans>Live games</Trans>
        </h2>
        {isOpen ? null : (
          <Button
            variant="secondary"
            onClick={() => setSearch({ live: '1' }, { replace: true, preventScrollReset: true })}
          >
            <Trans>Show finished live games</Trans>
          </Button>
        )}
      </div>
      {isOpen ? (
        <Suspense
          fallback={
            <LoadingStatus className="mt-3">
              <Trans>Loading the live games…</Trans>
            </LoadingStatus>
          }
        >
          <LiveGamesList quizId={quizId} />
        </Suspense>
      ) : null}
    </section>
  );
}

/** "Q3." before a question's text; nothing for a description, which takes no number. */
function QuestionNumber({ number: count }: { number: number | undefined }) {
  const { t } = useLingui();
  if (count === undefined) return null;
  const number = formatNumber(count);
  return (
    <span className="font-semibold">{t({ comment: 'Q1 is question 1, before its text', message: `Q${number}.` })}</span>
  );
}

/** A question's type, scoring and worth, and its key. */
function QuestionFacts({ question }: { question: QuizQuestion }) {
  const { t, i18n } = useLingui();
  const type = i18n._(QUESTION_TYPE_MESSAGES[question.type]);
  if (isDescription(question)) return <p className="mt-1 text-xs text-muted">{t`${type}: no answer, no points`}</p>;
  const worth = pointsPlural(question.points);
  const answerKey = keyText(question);
  return (
    <>
      <p className="mt-1 text-xs text-muted">
        {question.type !== 'multiple'
          ? t`${type} · ${worth}`
          : question.scoring === 'partial'
            ? t`${type}, partial credit · ${worth}`
            : t`${type}, all or nothing · ${worth}`}
      </p>
      <p className="mt-1 wrap-anywhere text-muted">
        {question.type === 'short-text' ? (
          <Trans>
            Accepted answers: <QuestionText text={answerKey} className="font-medium whitespace-pre-wrap text-success" />
          </Trans>
        ) : question.type === 'matching' ? (
          <Trans>
            Correct matches: <QuestionText text={answerKey} className="font-medium whitespace-pre-wrap text-success" />
          </Trans>
        ) : (
          <Trans>
            Correct answer: <QuestionText text={answerKey} className="font-medium whitespace-pre-wrap text-success" />
          </Trans>
        )}
      </p>
    </>
  );
}

/** /dashboard/teacher/quiz-analytics/:quizID (SPEC §2 teacher quiz analytics). */
export function Component() {
  const { quizID = '' } = useParams();
  const quiz = useQuery(teacherDetailQuery(quizID));
  const { t } = useLingui();
  return (
    <QueryPage
      query={quiz}
      backLink={
        <BackLink to={ALL_QUIZ_PATH}>
          <Trans>All quizzes</Trans>
        </BackLink>
      }
      title={t`Quiz analytics`}
      loading={<Trans>Loading the attempts…</Trans>}
      failures={{
        notFound: { heading: t`Quiz not found`, detail: t`There is no quiz at this address.` },
        forbidden: { heading: t`Not your quiz`, detail: t`Only the teacher who created a quiz can see its analytics.` },
        failed: t`Quiz analytics could not be loaded`,
      }}
    >
      {(data) => <QuizAnalytics quiz={data} />}
    </QueryPage>
  );
}
