import { msg, plural } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { isDescription } from '#shared/question-types';
import { questionStats, type AnswerLabel, type QuestionStats } from '#shared/question-stats';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { cn } from '../../../lib/cn.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { matchedPairText, trueFalseText } from '../question-response.ts';
import { QuestionText } from '../question-text.tsx';
import { QUESTION_TYPE_MESSAGES } from './question-type-labels.ts';

/**
 * Per-question analytics (issue 20 point 7, decision 036): full points, answered, the answers'
 * distribution and the average time to a first answer, each bar with its number in text.
 */
export function QuestionStatsSection({ quiz }: { quiz: TeacherQuizDetail }) {
  const stats = useMemo(() => questionStats(quiz.quiz.questions, quiz.attempts), [quiz]);
  const { t, i18n } = useLingui();
  return (
    <section aria-labelledby="question-stats-heading" className="mt-8">
      <h2 id="question-stats-heading" className="text-lg font-semibold text-fg">
        <Trans>Per question</Trans>
      </h2>
      {quiz.attempts.length === 0 ? (
        <p className="mt-1 text-sm text-muted">
          <Trans>The figures appear with the first attempt.</Trans>
        </p>
      ) : null}
      <ol className="mt-3 flex flex-col gap-3">
        {quiz.quiz.questions
          .filter((question) => !isDescription(question))
          .map((question, index) => {
            const number = formatNumber(index + 1);
            const type = i18n._(QUESTION_TYPE_MESSAGES[question.type]);
            const worth = question.points;
            const points = plural(worth, { one: '# point', other: '# points' });
            return (
              <li key={question._id} className="rounded-lg border border-line bg-surface px-4 py-3 text-sm">
                <h3 className="wrap-anywhere text-fg">
                  <span className="font-semibold">
                    {t({ comment: 'Q1 is question 1, before its text', message: `Q${number}.` })}
                  </span>{' '}
                  <QuestionText text={question.question_text} className="wrap-anywhere" />
                </h3>
                <p className="mt-0.5 text-xs text-muted">{t`${type}, ${points}`}</p>
                <QuestionFigures stats={stats[index]!} attempts={quiz.attempts.length} number={number} />
              </li>
            );
          })}
      </ol>
    </section>
  );
}

const OTHER_ANSWERS = msg({
  comment: 'The typed answers past the most common ones, summed in one row',
  message: 'Other answers',
});

/** A row of the answers in the reader's words: the shared stats give what it is, not text (issue 32). */
function answerText(answer: AnswerLabel, i18n: I18n): string {
  switch (answer.kind) {
    case 'text':
      return answer.text;
    case 'true-false':
      return trueFalseText(answer.value);
    case 'match':
      return answer.choice === undefined ? answer.prompt : matchedPairText(answer.prompt, answer.choice);
    case 'others':
      return i18n._(OTHER_ANSWERS);
  }
}

function QuestionFigures({ stats, attempts, number }: { stats: QuestionStats; attempts: number; number: string }) {
  const { t, i18n } = useLingui();
  const seconds = stats.averageSeconds === null ? null : formatNumber(stats.averageSeconds);
  const facts: [string, string][] = [
    [t`Full points`, formatPercent(stats.percentFull)],
    [t`Answered`, formatPercent(stats.percentAnswered)],
    [t`Average time to answer`, seconds === null ? t`Not recorded` : t`${seconds} s`],
  ];
  return (
    <>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
        {facts.map(([label, value]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="text-muted">{t({ comment: 'A figure’s name before its value', message: `${label}:` })}</dt>
            <dd className="font-semibold text-fg tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {stats.distribution.length > 0 ? (
        <table className="mt-2 w-full text-start">
          <caption className="sr-only">
            <Trans>Answers to question {number}</Trans>
          </caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">
                <Trans>Answer</Trans>
              </th>
              <th scope="col">
                <Trans>Attempts</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.distribution.map((row, index) => {
              const label = answerText(row, i18n);
              const share = attempts === 0 ? 0 : (row.count * 100) / attempts;
              const count = formatNumber(row.count);
              const percent = formatPercent(Math.round(share * 10) / 10);
              return (
                <tr key={index}>
                  {/* Words wrap between them (a long token may still break): never letter by letter. */}
                  <th scope="row" className="w-2/5 py-1 pe-3 align-top font-normal wrap-break-word text-fg">
                    <QuestionText text={label} className="wrap-break-word" />
                    {row.correct ? (
                      <span className="ms-1 font-semibold whitespace-nowrap text-success">
                        <Trans>(correct)</Trans>
                      </span>
                    ) : null}
                  </th>
                  <td className="py-1 align-top">
                    <div className="flex items-center gap-2">
                      <div aria-hidden="true" className="h-3 flex-1 overflow-hidden rounded bg-surface-muted">
                        <div
                          className={cn('h-full rounded', row.correct ? 'bg-success' : 'bg-brand-500')}
                          style={{ width: `${share}%` }}
                        />
                      </div>
                      <span className="w-28 shrink-0 text-end tabular-nums">{t`${count} (${percent})`}</span>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
