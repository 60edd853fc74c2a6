import { plural } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { isDescription } from '#shared/question-types';
import { questionStats, type AnswerLabel, type QuestionStats } from '#shared/question-stats';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { matchedPairText, trueFalseText } from '../question-response.ts';
import { AnswerSharesTable, OTHER_ANSWERS, QuestionFigureList, QuestionHeading } from './per-question-parts.tsx';
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
                <QuestionHeading number={number} text={question.question_text} />
                <p className="mt-0.5 text-xs text-muted">{t`${type}, ${points}`}</p>
                <QuestionFigures stats={stats[index]!} attempts={quiz.attempts.length} number={number} />
              </li>
            );
          })}
      </ol>
    </section>
  );
}

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
  const figures: [string, string][] = [
    [t`Full points`, formatPercent(stats.percentFull)],
    [t`Answered`, formatPercent(stats.percentAnswered)],
    [t`Average time to answer`, seconds === null ? t`Not recorded` : t`${seconds} s`],
  ];
  return (
    <>
      <QuestionFigureList className="mt-2" figures={figures} />
      {stats.distribution.length > 0 ? (
        <AnswerSharesTable
          shares={stats.distribution.map((row, index) => ({
            key: String(index),
            label: answerText(row, i18n),
            count: row.count,
            isCorrect: row.correct === true,
          }))}
          total={attempts}
          caption={<Trans>Answers to question {number}</Trans>}
          countHeading={<Trans>Attempts</Trans>}
        />
      ) : null}
    </>
  );
}
