import { useMemo } from 'react';
import { isDescription, QUESTION_TYPE_LABELS } from '#shared/question-types';
import { questionStats, type QuestionStats } from '#shared/question-stats';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { cn } from '../../../lib/cn.ts';
import { formatPercent, plural } from '../../../lib/format.ts';
import { QuestionText } from '../question-text.tsx';

/**
 * Per-question analytics (issue 20 point 7, decision 036): full points, answered, the answers'
 * distribution and the average time to a first answer, each bar with its number in text.
 */
export function QuestionStatsSection({ quiz }: { quiz: TeacherQuizDetail }) {
  const stats = useMemo(() => questionStats(quiz.quiz.questions, quiz.attempts), [quiz]);
  return (
    <section aria-labelledby="question-stats-heading" className="mt-8">
      <h2 id="question-stats-heading" className="text-lg font-semibold text-fg">
        Per question
      </h2>
      {quiz.attempts.length === 0 ? (
        <p className="mt-1 text-sm text-muted">The figures appear with the first attempt.</p>
      ) : null}
      <ol className="mt-3 flex flex-col gap-3">
        {quiz.quiz.questions
          .filter((question) => !isDescription(question))
          .map((question, index) => (
            <li key={question._id} className="rounded-lg border border-line bg-surface px-4 py-3 text-sm">
              <h3 className="wrap-anywhere text-fg">
                <span className="font-semibold">Q{index + 1}.</span>{' '}
                <QuestionText text={question.question_text} className="wrap-anywhere" />
              </h3>
              <p className="mt-0.5 text-xs text-muted">
                {QUESTION_TYPE_LABELS[question.type]}, {plural(question.points, 'point')}
              </p>
              <QuestionFigures stats={stats[index]!} attempts={quiz.attempts.length} number={index + 1} />
            </li>
          ))}
      </ol>
    </section>
  );
}

function QuestionFigures({ stats, attempts, number }: { stats: QuestionStats; attempts: number; number: number }) {
  const facts: [string, string][] = [
    ['Full points', formatPercent(stats.percentFull)],
    ['Answered', formatPercent(stats.percentAnswered)],
    ['Average time to answer', stats.averageSeconds === null ? 'Not recorded' : `${stats.averageSeconds} s`],
  ];
  return (
    <>
      <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
        {facts.map(([label, value]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="text-muted">{label}:</dt>
            <dd className="font-semibold text-fg tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {stats.distribution.length > 0 ? (
        <table className="mt-2 w-full text-left">
          <caption className="sr-only">Answers to question {number}</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Answer</th>
              <th scope="col">Attempts</th>
            </tr>
          </thead>
          <tbody>
            {stats.distribution.map((row) => {
              const share = attempts === 0 ? 0 : (row.count * 100) / attempts;
              return (
                <tr key={row.label}>
                  <th scope="row" className="w-2/5 py-1 pr-3 align-top font-normal wrap-anywhere text-fg">
                    <QuestionText text={row.label} className="wrap-anywhere" />
                    {row.correct ? <span className="ml-1 font-semibold text-success">(correct)</span> : null}
                  </th>
                  <td className="py-1 align-top">
                    <div className="flex items-center gap-2">
                      <div aria-hidden="true" className="h-3 flex-1 overflow-hidden rounded bg-surface-muted">
                        <div
                          className={cn('h-full rounded', row.correct ? 'bg-success' : 'bg-brand-500')}
                          style={{ width: `${share}%` }}
                        />
                      </div>
                      <span className="w-28 shrink-0 text-right tabular-nums">
                        {row.count} ({formatPercent(Math.round(share * 10) / 10)})
                      </span>
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
