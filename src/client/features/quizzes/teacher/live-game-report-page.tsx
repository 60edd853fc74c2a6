import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, CircleDot, Download, Minus, X } from 'lucide-react';
import { useParams } from 'react-router';
import { setLiveGameLeaderboard } from '#shared/contract/live-games';
import { isRightTypedAnswer } from '#shared/live-game-answers';
import type { Distribution, LiveGameReport } from '#shared/live-games';
import type { QuizQuestion } from '#shared/quizzes';
import { cardVariants } from '../../../components/ui/card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { QueryPage } from '../../../components/query-page.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { EmptyState } from '../../../components/ui/status-cards.tsx';
import { STACKED_TABLE } from '../../../components/ui/stacked-table.ts';
import { call } from '../../../lib/api.ts';
import { downloadBlob } from '../../../lib/download-file.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime, formatNumber, isolate } from '../../../lib/format.ts';
import { keyText, matchedPairText, responseText, trueFalseText } from '../question-response.ts';
import { QuestionText } from '../question-text.tsx';
import { liveGameQueries } from './live-game-queries.ts';
import { QuestionHeader } from './question-header.tsx';
import {
  AnswerSharesTable,
  OTHER_ANSWERS,
  QuestionFigureList,
  QuestionHeading,
  type AnswerShare,
} from './per-question-parts.tsx';
import { QUESTION_TYPE_MESSAGES } from './question-type-labels.ts';

/**
 * A finished live game's report (issue 34 point 6, decision 066), under its quiz's analytics:
 * per question its key and how the answers spread, per student their rank, score and answers
 * with their points; the CSV; and whether the game counts toward the class leaderboard.
 */

type ReportQuestion = LiveGameReport['questions'][number];
type ReportPlayer = LiveGameReport['players'][number];
type ReportAnswer = ReportPlayer['answers'][number];

/** Back to the quiz's analytics with its list of live games open. */
const analyticsPath = (quizId: string) => `/dashboard/teacher/quiz-analytics/${encodeURIComponent(quizId)}?live=1`;

/** The distribution's keys (decision 066) read as the question's options, True/False, matches or typed text. */
export function distributionRows(question: QuizQuestion, distribution: Distribution): AnswerShare[] {
  const options = new Map((question.options ?? []).map((option) => [option._id, option]));
  const prompts = new Map((question.prompts ?? []).map((prompt) => [prompt._id, prompt]));
  const choices = new Map((question.choices ?? []).map((choice) => [choice._id, choice.text]));
  return distribution.counts.map(({ key, count }) => {
    switch (question.type) {
      case 'single':
      case 'multiple': {
        const option = options.get(key);
        return { key, count, label: option?.text ?? key, isCorrect: option?.correct === true };
      }
      case 'true-false': {
        const value = key === 'true';
        return { key, count, label: trueFalseText(value), isCorrect: question.correct === value };
      }
      case 'matching': {
        const [promptId = '', choiceId = ''] = key.split('>');
        const prompt = prompts.get(promptId);
        const label = matchedPairText(prompt?.text ?? promptId, choices.get(choiceId) ?? choiceId);
        return { key, count, label, isCorrect: prompt?.match === choiceId };
      }
      case 'short-text':
      case 'numeric':
      case 'essay':
      case 'description':
        // Typed answers (short text, numbers) as the quiz compares them; those worth all of the
        // points are marked correct, as a right option is (and counted in `right`).
        return { key, count, label: key, isCorrect: isRightTypedAnswer(question, key) };
    }
  });
}

/** How an answer did in the quiz's own scoring: all of the points, some, or none. */
const outcomeOf = (answer: ReportAnswer | undefined) =>
  !answer ? 'none' : answer.fraction >= 1 ? 'right' : answer.fraction > 0 ? 'partial' : 'wrong';

const OUTCOMES: Record<ReturnType<typeof outcomeOf>, { cell: string; label: MessageDescriptor; Icon: typeof Check }> = {
  right: {
    cell: 'bg-success-soft text-success',
    label: msg({ comment: 'An answer’s outcome', message: 'correct' }),
    Icon: Check,
  },
  partial: { cell: 'bg-warning-soft text-warning', label: msg`partly correct`, Icon: CircleDot },
  wrong: { cell: 'bg-danger-soft text-danger-strong', label: msg`wrong`, Icon: X },
  none: { cell: 'bg-surface text-muted', label: msg`no answer`, Icon: Minus },
};

const livePoints = (points: number) => plural(points, { one: '# point', other: '# points' });

async function downloadReport(report: LiveGameReport) {
  // Loaded on the click: the report shows without the CSV writer.
  const { liveReportCsvFile } = await import('./live-game-csv.ts');
  const { blob, fileName } = liveReportCsvFile(report);
  downloadBlob(blob, fileName);
}

function LeaderboardSwitch({ quizId, report }: { quizId: string; report: LiveGameReport }) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const reportKey = liveGameQueries.report(quizId, report.game._id).queryKey;
  const choose = useMutation({
    mutationFn: async (counts: boolean) =>
      (
        await call(setLiveGameLeaderboard, {
          params: { id: report.game._id },
          body: { countsTowardLeaderboard: counts },
        })
      ).data,
    onSuccess: async (game) => {
      queryClient.setQueryData(reportKey, (current) =>
        current
          ? { ...current, game: { ...current.game, countsTowardLeaderboard: game.countsTowardLeaderboard } }
          : current,
      );
      await queryClient.invalidateQueries({ queryKey: [...liveGameQueries.all, quizId, 'list'] });
    },
  });
  const isOn = choose.isPending ? choose.variables : report.game.countsTowardLeaderboard;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-3">
        <button
          type="button"
          role="switch"
          aria-checked={isOn}
          aria-labelledby="leaderboard-switch-label"
          aria-describedby="leaderboard-switch-hint"
          disabled={choose.isPending}
          onClick={() => choose.mutate(!report.game.countsTowardLeaderboard)}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors disabled:opacity-60',
            isOn ? 'bg-brand-600' : 'bg-line-strong',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-block size-5 rounded-full bg-surface shadow transition-transform',
              isOn ? 'translate-x-5 rtl:-translate-x-5' : 'translate-x-0',
            )}
          />
        </button>
        <span id="leaderboard-switch-label" className="text-sm font-semibold text-fg">
          {t`Counts toward the class leaderboard`}
        </span>
      </div>
      <p id="leaderboard-switch-hint" className="text-xs text-muted">
        <Trans>Off by default. Your choice is recorded with the game.</Trans>
      </p>
    </div>
  );
}

function GameFacts({ report }: { report: LiveGameReport }) {
  const { t } = useLingui();
  const { game } = report;
  const played = formatNumber(game.questionsPlayed);
  const total = formatNumber(game.questionCount);
  const facts: [string, React.ReactNode][] = [
    [t`Class`, <bdi>{game.class.name}</bdi>],
    [
      t({ comment: 'The teacher who ran a live game', message: 'Hosted by' }),
      game.createdBy ? <bdi>{game.createdBy.name}</bdi> : '—',
    ],
    [t`Started`, game.startedAt ? <time dateTime={game.startedAt}>{formatDateTime(game.startedAt)}</time> : '—'],
    [t`Ended`, <time dateTime={game.endedAt}>{formatDateTime(game.endedAt)}</time>],
    [t`Players`, formatNumber(game.playerCount)],
    [
      t`Questions played`,
      t({ comment: 'Questions a live game played of those it had, e.g. "4 of 5"', message: `${played} of ${total}` }),
    ],
  ];
  return (
    <dl className={cn(cardVariants(), 'mt-4 grid grid-cols-2 gap-4 p-4 sm:grid-cols-3 sm:p-5 lg:grid-cols-6')}>
      {facts.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</dt>
          <dd className="mt-1 wrap-anywhere text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function QuestionReport({ entry, position }: { entry: ReportQuestion; position: number }) {
  const { t, i18n } = useLingui();
  const { question, distribution, played } = entry;
  const number = formatNumber(position);
  const type = i18n._(QUESTION_TYPE_MESSAGES[question.type]);
  const answerKey = keyText(question);
  const shares = distributionRows(question, distribution);
  if (distribution.others > 0) {
    shares.push({ key: '', label: i18n._(OTHER_ANSWERS), count: distribution.others, isCorrect: false });
  }
  const noAnswer = Math.max(0, distribution.players - distribution.answered);
  const figures: [string, string][] = [
    [t`Answered`, formatNumber(distribution.answered)],
    [
      t({ comment: 'Answers that earned all of the points', message: 'Right answers' }),
      formatNumber(distribution.right),
    ],
    [
      t({ comment: 'Answers that earned some of the points', message: 'Partly right answers' }),
      formatNumber(distribution.partial),
    ],
    [t({ comment: 'Answers that earned no points', message: 'Wrong answers' }), formatNumber(distribution.wrong)],
    [t`No answer`, formatNumber(noAnswer)],
  ];
  const players = formatNumber(distribution.players);
  return (
    <li className="rounded-lg border border-line bg-surface px-4 py-3 text-sm" data-testid="live-question">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <QuestionHeading className="min-w-0 flex-[1_1_16rem]" number={number} text={question.question_text} />
        {played ? null : (
          <span className="rounded-full bg-surface-muted px-2 py-0.5 text-xs font-semibold text-muted">
            <Trans>Not played: the game ended before it</Trans>
          </span>
        )}
      </div>
      <p className="mt-0.5 text-xs text-muted">{type}</p>
      {answerKey ? (
        <p className="mt-1 wrap-anywhere text-muted">
          <Trans>
            Correct answer: <QuestionText text={answerKey} className="font-medium whitespace-pre-wrap text-success" />
          </Trans>
        </p>
      ) : null}
      {played ? (
        <>
          <p className="mt-2 text-muted">
            {plural(distribution.players, {
              one: 'Of # player who could answer:',
              other: 'Of # players who could answer:',
            })}
          </p>
          <QuestionFigureList className="mt-1" figures={figures} />
          {shares.length > 0 ? (
            <AnswerSharesTable
              shares={shares}
              total={distribution.players}
              caption={
                <Trans>
                  Answers to question {number}, of {players} players
                </Trans>
              }
              countHeading={<Trans>Players who gave it</Trans>}
            />
          ) : null}
        </>
      ) : null}
    </li>
  );
}

/** A player's answer to one question: what they answered, and its points, coloured by outcome. */
function AnswerCell({
  question,
  answer,
  label,
}: {
  question: QuizQuestion;
  answer: ReportAnswer | undefined;
  label: string;
}) {
  const { t, i18n } = useLingui();
  const outcome = outcomeOf(answer);
  const { Icon, cell } = OUTCOMES[outcome];
  const text = answer ? responseText(question, answer.value) : '';
  const points = livePoints(answer?.points ?? 0);
  const described = i18n._(OUTCOMES[outcome].label);
  return (
    <td
      data-label={label}
      data-outcome={outcome}
      className={cn(
        'border-s border-b border-line px-3 py-2 align-top',
        STACKED_TABLE.line,
        'max-sm:my-0.5 max-sm:rounded max-sm:border-0',
        cell,
      )}
    >
      <span className="flex max-w-56 min-w-20 items-start gap-1.5 max-sm:max-w-none max-sm:min-w-0">
        <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {answer ? (
          <span className="min-w-0">
            <QuestionText text={text} className="wrap-break-word" />
            <span className="block text-xs font-semibold tabular-nums">{points}</span>
            <span className="sr-only">{t({ comment: 'A live game answer: correct', message: `(${described})` })}</span>
          </span>
        ) : (
          <span>{t`No answer`}</span>
        )}
      </span>
    </td>
  );
}

function PlayersTable({ report }: { report: LiveGameReport }) {
  const { t } = useLingui();
  const played = report.questions.filter((entry) => entry.played);
  const head = 'border-b bg-surface-muted py-2 text-start font-semibold whitespace-nowrap';
  const headerCell = cn(head, 'border-line-strong px-3');
  const cell = 'border-b border-line px-3 py-2 align-top max-sm:border-0 max-sm:px-3';
  const line = cn(cell, STACKED_TABLE.line);
  const questionLabel = (index: number) => {
    const number = formatNumber(index + 1);
    return t({ comment: 'A table column: Q1 is question 1', message: `Q${number}` });
  };
  return (
    <div
      role="region"
      aria-label={t`Players table`}
      tabIndex={0}
      className="relative mt-3 overflow-x-auto rounded-xl border border-line bg-surface shadow-sm"
    >
      <table className={cn('min-w-full border-separate border-spacing-0 text-sm text-fg', STACKED_TABLE.table)}>
        <caption className="sr-only">
          <Trans>
            One row per player, best first: their rank, score and, for each question played, their answer and its
            points.
          </Trans>
        </caption>
        <thead className={STACKED_TABLE.head}>
          <tr>
            <th scope="col" className={headerCell}>
              <Trans>Rank</Trans>
            </th>
            <th scope="col" className={headerCell}>
              <Trans>Name</Trans>
            </th>
            <th scope="col" className={headerCell}>
              <Trans>Score</Trans>
            </th>
            {played.map((entry, index) => (
              <th key={entry.question._id} scope="col" className={cn(head, 'border-s border-line px-1.5')}>
                <QuestionHeader number={index + 1} text={entry.question.question_text} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED_TABLE.body}>
          {report.players.map((player) => {
            const answers = new Map(player.answers.map((answer) => [answer.questionId, answer]));
            return (
              <tr
                key={player.student._id}
                // On a phone the card (STACKED_TABLE.row's, a column) starts with the player's name, then their rank.
                className="max-sm:flex max-sm:flex-col max-sm:border-b max-sm:border-line max-sm:py-2"
                data-testid="live-player"
              >
                <td data-label={t`Rank`} className={cn(line, 'font-semibold tabular-nums')}>
                  {player.rank === null ? (
                    <span className="font-normal text-muted">
                      {t({ comment: 'A player the host removed from a live game', message: 'Removed' })}
                    </span>
                  ) : (
                    formatNumber(player.rank)
                  )}
                </td>
                <th
                  scope="row"
                  className={cn(
                    cell,
                    STACKED_TABLE.lineLabel,
                    'text-start font-medium',
                    STACKED_TABLE.heading,
                    'max-sm:order-first max-sm:text-base',
                  )}
                >
                  {/* Blocks in the page's direction, the texts isolated inside them: a name keeps its own. */}
                  <span className="block max-w-48 min-w-28 wrap-break-word text-fg max-sm:max-w-none">
                    <bdi>{player.student.name}</bdi>
                  </span>
                  <span className="block text-xs font-normal text-muted">
                    <bdi>{player.student.rollNumber}</bdi>
                  </span>
                </th>
                <td data-label={t`Score`} className={cn(line, 'font-semibold tabular-nums')}>
                  {formatNumber(player.score)}
                </td>
                {played.map((entry, index) => (
                  <AnswerCell
                    key={entry.question._id}
                    question={entry.question}
                    answer={answers.get(entry.question._id)}
                    label={questionLabel(index)}
                  />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function LiveGameReportView({ quizId, report }: { quizId: string; report: LiveGameReport }) {
  const { t } = useLingui();
  const className = isolate(report.game.class.name);
  const ended = formatDateTime(report.game.endedAt);
  const skipped = report.skipped.length;
  return (
    <>
      <PageTitle>{t`Live game report`}</PageTitle>
      <PageHeader
        className="mt-3"
        title={t({
          comment: 'A live game report’s title: the class, then when the game ended',
          message: `Live game: ${className}, ${ended}`,
        })}
        actions={
          <Button variant="secondary" onClick={() => void downloadReport(report)}>
            <Download className="size-4" aria-hidden="true" />
            <Trans>Download CSV</Trans>
          </Button>
        }
      />
      <GameFacts report={report} />
      <div className={cn(cardVariants(), 'mt-4 p-4')}>
        <LeaderboardSwitch quizId={quizId} report={report} />
      </div>

      <section aria-labelledby="live-players-heading" className="mt-8">
        <h2 id="live-players-heading" className="text-lg font-semibold text-fg">
          <Trans>Per student</Trans>
        </h2>
        {report.players.length === 0 ? (
          <EmptyState className="mt-3" title={t`Nobody joined this game`} />
        ) : (
          <PlayersTable report={report} />
        )}
      </section>

      <section aria-labelledby="live-questions-heading" className="mt-8">
        <h2 id="live-questions-heading" className="text-lg font-semibold text-fg">
          <Trans>Per question</Trans>
        </h2>
        {skipped > 0 ? (
          <p className="mt-1 text-sm text-muted">
            {plural(skipped, {
              one: '# question of the quiz is not played live (essays and descriptions).',
              other: '# questions of the quiz are not played live (essays and descriptions).',
            })}
          </p>
        ) : null}
        <ol className="mt-3 flex flex-col gap-3">
          {report.questions.map((entry, index) => (
            <QuestionReport key={entry.question._id} entry={entry} position={index + 1} />
          ))}
        </ol>
      </section>
    </>
  );
}

/** /dashboard/teacher/quiz-analytics/:quizID/live/:gameId (issue 34 point 6). */
export function Component() {
  const { quizID = '', gameId = '' } = useParams();
  const report = useQuery(liveGameQueries.report(quizID, gameId));
  const { t } = useLingui();
  return (
    <QueryPage
      query={report}
      backLink={
        <BackLink to={analyticsPath(quizID)}>
          <Trans>Quiz analytics</Trans>
        </BackLink>
      }
      title={t`Live game report`}
      loading={<Trans>Loading the report…</Trans>}
      failures={{
        notFound: {
          heading: t`Live game not found`,
          detail: t`There is no finished live game of this quiz at this address.`,
        },
        forbidden: {
          heading: t`Not your quiz`,
          detail: t`Only the teacher who created a quiz can see its live games’ reports.`,
        },
        failed: t`The live game report could not be loaded`,
      }}
    >
      {(data) => <LiveGameReportView quizId={quizID} report={data} />}
    </QueryPage>
  );
}
