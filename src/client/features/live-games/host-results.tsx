import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, EyeOff, Medal, TrendingUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { isRightTypedAnswer } from '#shared/live-game-answers';
import type { Distribution, RankedPlayer } from '#shared/live-games';
import type { QuizQuestion } from '#shared/quizzes';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { keyText, matchedPairText, trueFalseText } from '../quizzes/question-response.ts';
import { QuestionText } from '../quizzes/question-text.tsx';
import { answerMark, type AnswerMark } from './answer-marks.tsx';

/**
 * What the projector shows between questions and at the end (issue 34, decision 066): how the
 * answers spread with the right one marked, the top five with who moved up, the podium. Pure.
 */

type DistributionRow = {
  key: string;
  label: ReactNode;
  mark?: AnswerMark;
  count: number;
  isRight: boolean;
  /** The "Right answer" words beside it (not on the rows that already say right or wrong). */
  hasRightBadge?: boolean;
};

const countOf = (distribution: Distribution, key: string) =>
  distribution.counts.find((entry) => entry.key === key)?.count ?? 0;

/** The distribution's lines in the question's order, each with whether it is (part of) the key. */
export function distributionRows(question: QuizQuestion, distribution: Distribution): DistributionRow[] {
  switch (question.type) {
    case 'single':
    case 'multiple':
      return (question.options ?? []).map((option, index) => ({
        key: option._id,
        label: <QuestionText text={option.text} />,
        mark: answerMark(index),
        count: countOf(distribution, option._id),
        isRight: option.correct === true,
      }));
    case 'true-false':
      return [true, false].map((value, index) => ({
        key: String(value),
        label: trueFalseText(value),
        mark: answerMark(index),
        count: countOf(distribution, String(value)),
        isRight: question.correct === value,
      }));
    case 'matching': {
      const prompts = new Map((question.prompts ?? []).map((prompt) => [prompt._id, prompt]));
      const choices = new Map((question.choices ?? []).map((choice) => [choice._id, choice.text]));
      // Every pair is counted, zeros too: the projector lists the right pairs and those chosen.
      return distribution.counts.flatMap(({ key, count }) => {
        const [promptId = '', choiceId = ''] = key.split('>');
        const prompt = prompts.get(promptId);
        const isRight = prompt?.match === choiceId;
        if (count === 0 && !isRight) return [];
        return [
          {
            key,
            label: matchedPairText(prompt?.text ?? promptId, choices.get(choiceId) ?? choiceId),
            count,
            isRight,
          },
        ];
      });
    }
    // Essays and descriptions are not played live (decision 066): listed as typed answers should one come.
    case 'short-text':
    case 'numeric':
    case 'essay':
    case 'description':
      // Typed answers, as the quiz compares them: the text as typed, isolated (a student's words);
      // those worth all of the points are the right answer, marked as a right option is.
      return distribution.counts.map(({ key, count }) => ({
        key,
        label: <bdi className="wrap-anywhere">{key}</bdi>,
        count,
        isRight: isRightTypedAnswer(question, key),
      }));
  }
}

/**
 * Typed answers with their text hidden (the host's choice on the projector): how many were right,
 * partly right and wrong, nothing a student typed.
 */
function typedOutcomeRows(
  distribution: Distribution,
  labels: { right: string; partial: string; wrong: string },
): DistributionRow[] {
  const rows: DistributionRow[] = [
    { key: 'right', label: labels.right, count: distribution.right, isRight: true, hasRightBadge: false },
  ];
  if (distribution.partial > 0) {
    rows.push({ key: 'partial', label: labels.partial, count: distribution.partial, isRight: false });
  }
  rows.push({ key: 'wrong', label: labels.wrong, count: distribution.wrong, isRight: false });
  return rows;
}

/**
 * The question's answers as bars with their numbers, the right answer marked by a tick and words.
 * `typedAnswersHidden`: a typed question's answers only as right and wrong counts, never their text.
 */
export function DistributionChart({
  question,
  distribution,
  typedAnswersHidden = false,
}: {
  question: QuizQuestion;
  distribution: Distribution;
  typedAnswersHidden?: boolean;
}) {
  const { t } = useLingui();
  const isTyped = question.type === 'short-text' || question.type === 'numeric';
  const isTextHidden = isTyped && typedAnswersHidden;
  const rows = isTextHidden
    ? typedOutcomeRows(distribution, {
        right: t`Right answers`,
        partial: t`Partly right answers`,
        wrong: t`Wrong answers`,
      })
    : distributionRows(question, distribution);
  const others = isTextHidden ? 0 : distribution.others;
  const largest = Math.max(1, ...rows.map((row) => row.count), others);
  const answered = formatNumber(distribution.answered);
  const players = formatNumber(distribution.players);
  const right = formatNumber(distribution.right);
  const partial = formatNumber(distribution.partial);
  const wrong = formatNumber(distribution.wrong);
  const key = isTyped ? keyText(question) : '';
  const answers = (count: number) => plural(count, { one: '# answer', other: '# answers' });
  return (
    <section aria-labelledby="live-distribution-heading" className="flex flex-col gap-3">
      <h2 id="live-distribution-heading" className="text-lg font-semibold text-fg">
        <Trans>Answers</Trans>
      </h2>
      <p className="text-muted">
        {t`${answered} of ${players} answered · ${right} right · ${partial} partly right · ${wrong} wrong`}
      </p>
      {key ? (
        <p className="flex items-start gap-2 rounded-lg border-2 border-success bg-success-soft p-3 text-lg font-semibold text-success">
          <Check className="mt-1 size-5 shrink-0" aria-hidden="true" />
          <span>
            <Trans>Right answer:</Trans> <bdi className="wrap-anywhere">{key}</bdi>
          </span>
        </p>
      ) : null}
      {isTextHidden ? (
        <p className="flex items-center gap-2 text-sm text-muted">
          <EyeOff className="size-4 shrink-0" aria-hidden="true" />
          <Trans>Typed answers are hidden on this screen.</Trans>
        </p>
      ) : null}
      {rows.length === 0 && others === 0 ? (
        <p className="text-muted">
          <Trans>No answers.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {rows.map((row) => (
            <li
              key={row.key}
              data-right={row.isRight || undefined}
              className={cn(
                'flex flex-col gap-1.5 rounded-xl border-2 p-3',
                row.isRight ? 'border-success bg-success-soft' : 'border-line bg-surface',
              )}
            >
              <div className="flex items-center gap-3">
                {row.mark ? (
                  <span className={cn('rounded-md p-1.5 text-white', row.mark.fill)}>
                    <row.mark.Shape className="size-5 fill-current" aria-hidden="true" />
                  </span>
                ) : null}
                <span className="min-w-0 flex-1 text-lg text-fg">{row.label}</span>
                {row.isRight && row.hasRightBadge !== false ? (
                  <span className="inline-flex shrink-0 items-center gap-1 font-semibold text-success">
                    <Check className="size-5" aria-hidden="true" />
                    <Trans>Right answer</Trans>
                  </span>
                ) : null}
                <span className="shrink-0 text-xl font-bold text-fg tabular-nums">
                  <span aria-hidden="true">{formatNumber(row.count)}</span>
                  <span className="sr-only">{answers(row.count)}</span>
                </span>
              </div>
              <Bar count={row.count} largest={largest} isRight={row.isRight} />
            </li>
          ))}
          {others > 0 ? (
            <li className="flex flex-col gap-1.5 rounded-xl border-2 border-line bg-surface p-3">
              <div className="flex items-center gap-3">
                <span className="min-w-0 flex-1 text-lg text-muted">
                  <Trans>Other answers</Trans>
                </span>
                <span className="shrink-0 text-xl font-bold text-fg tabular-nums">
                  <span aria-hidden="true">{formatNumber(others)}</span>
                  <span className="sr-only">{answers(others)}</span>
                </span>
              </div>
              <Bar count={others} largest={largest} isRight={false} />
            </li>
          ) : null}
        </ul>
      )}
    </section>
  );
}

/** A bar as long as its share of the largest count: decorative, the number beside it is read. */
function Bar({ count, largest, isRight }: { count: number; largest: number; isRight: boolean }) {
  return (
    <span aria-hidden="true" className="block h-3 overflow-hidden rounded-full bg-surface-muted">
      <span
        className={cn('block h-full rounded-full', isRight ? 'bg-success' : 'bg-brand-600')}
        style={{ width: `${Math.round((count / largest) * 100)}%` }}
      />
    </span>
  );
}

/** A player's name on the projector, or "Player" while names are hidden (the server sent none). */
function PlayerName({ name }: { name: string | null }) {
  return name === null ? (
    <span className="text-muted">
      <Trans comment="A player on the projected leaderboard while the teacher hides names">Player</Trans>
    </span>
  ) : (
    <bdi className="wrap-anywhere">{name}</bdi>
  );
}

/** The top five after a close: rank, name, score and how many places each moved up. */
export function Leaderboard({ top }: { top: RankedPlayer[] }) {
  const { t } = useLingui();
  return (
    <section aria-labelledby="live-top-heading" className="flex flex-col gap-3">
      <h2 id="live-top-heading" className="text-lg font-semibold text-fg">
        <Trans>Top five</Trans>
      </h2>
      {top.length === 0 ? (
        <p className="text-muted">
          <Trans>No scores yet.</Trans>
        </p>
      ) : (
        <ol className="flex flex-col gap-2">
          {top.map((player) => {
            const rank = formatNumber(player.rank);
            const score = formatNumber(player.score);
            const places = player.previousRank === null ? 0 : player.previousRank - player.rank;
            return (
              <li
                key={player._id}
                className="flex items-center gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-lg"
              >
                <span className="w-10 shrink-0 text-2xl font-bold text-muted tabular-nums">
                  <span aria-hidden="true">{rank}</span>
                  <span className="sr-only">{t`Rank ${rank}`}</span>
                </span>
                <span className="min-w-0 flex-1 font-semibold text-fg">
                  <PlayerName name={player.name} />
                </span>
                {places > 0 ? (
                  <span className="inline-flex shrink-0 items-center gap-1 text-sm font-semibold text-success">
                    <TrendingUp className="size-4" aria-hidden="true" />
                    {plural(places, { one: 'up # place', other: 'up # places' })}
                  </span>
                ) : null}
                <span className="shrink-0 font-bold text-fg tabular-nums">
                  {t({ comment: 'A player’s score in a live game, e.g. "2,450 points"', message: `${score} points` })}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** The podium at the end: the first three, first in the middle on a wide screen. */
export function Podium({ podium }: { podium: RankedPlayer[] }) {
  const { t } = useLingui();
  if (podium.length === 0) {
    return (
      <p className="text-muted">
        <Trans>Nobody played this game.</Trans>
      </p>
    );
  }
  const heights = ['sm:min-h-56', 'sm:min-h-44', 'sm:min-h-36'];
  // Reading order stays 1, 2, 3; a wide screen places second, first, third (CSS order).
  const orders = ['sm:order-2', 'sm:order-1', 'sm:order-3'];
  return (
    <ol aria-label={t`Podium`} className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-center">
      {podium.map((player, index) => {
        const rank = formatNumber(player.rank);
        const score = formatNumber(player.score);
        return (
          <li
            key={player._id}
            className={cn(
              'flex flex-col items-center justify-end gap-2 rounded-t-2xl border px-6 py-4 text-center sm:w-56',
              heights[index],
              orders[index],
              index === 0 ? 'border-accent-500 bg-accent-50' : 'border-line bg-surface',
            )}
          >
            <Medal className="size-10 text-brand-600" aria-hidden="true" />
            <span className="text-3xl font-bold text-fg tabular-nums">
              <span aria-hidden="true">{rank}</span>
              <span className="sr-only">{t`Rank ${rank}`}</span>
            </span>
            <span className="text-xl font-semibold text-fg">
              <PlayerName name={player.name} />
            </span>
            <span className="font-semibold text-muted tabular-nums">
              {t({ comment: 'A player’s score in a live game, e.g. "2,450 points"', message: `${score} points` })}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
