import { isAnswered, isDescription, isMatchingAnswer, parseNumber, type AnswerValue } from './question-types.ts';
import { numericAnswerWeight } from './question-scoring.ts';
import { shortTextKey } from './short-answers.ts';
import { shortAnswerWeight } from './short-answers.ts';
import type { AttemptRecord, QuizQuestion } from './quizzes.ts';

/**
 * Per-question analytics (issue 20 point 7, decision 036), computed in the browser from the
 * teacher's quiz detail, which carries the key and every submitted attempt.
 */

/**
 * What a row of a question's answers is, as data the client words (issue 32): an option's or a
 * typed text or number as written, true or false, a matching prompt with its match (no match
 * before the key is known), or the typed answers summed past the most common ones.
 */
export type AnswerLabel =
  | { kind: 'text'; text: string }
  | { kind: 'true-false'; value: boolean }
  | { kind: 'match'; prompt: string; choice?: string }
  | { kind: 'others' };
/** One row of a question's answers with how many attempts gave it; `correct` once the key says. */
export type AnswerCount = AnswerLabel & { count: number; correct?: boolean };
export type QuestionStats = {
  questionId: string;
  /** Attempts that earned the question's full points, in % of attempts (0 with none). */
  percentFull: number;
  /** Attempts that answered it at all, in %. */
  percentAnswered: number;
  distribution: AnswerCount[];
  /** Mean seconds before the first answer, over the attempts that recorded it; null when none did. */
  averageSeconds: number | null;
};

/** Typed answers shown one by one; the rest are summed in one row. */
export const TOP_TYPED_ANSWERS = 5;

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part * 1000) / whole) / 10);

/** Typed answers grouped by `key`, the most common first, each shown as first typed. */
function typedCounts(
  responses: string[],
  key: (text: string) => string,
  isCorrect: (text: string) => boolean | undefined,
): AnswerCount[] {
  const groups = new Map<string, { kind: 'text'; text: string; count: number; correct?: boolean }>();
  for (const response of responses) {
    const group = groups.get(key(response));
    if (group) group.count++;
    else {
      const correct = isCorrect(response);
      groups.set(key(response), {
        kind: 'text',
        text: response.trim(),
        count: 1,
        ...(correct === undefined ? {} : { correct }),
      });
    }
  }
  const sorted = [...groups.values()].sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
  const rest = sorted.slice(TOP_TYPED_ANSWERS).reduce((total, group) => total + group.count, 0);
  return [...sorted.slice(0, TOP_TYPED_ANSWERS), ...(rest > 0 ? [{ kind: 'others' as const, count: rest }] : [])];
}

function distributionOf(question: QuizQuestion, responses: AnswerValue[]): AnswerCount[] {
  const withKey = (correct: boolean | undefined) => (correct === undefined ? {} : { correct });
  switch (question.type) {
    case 'single':
    case 'multiple':
      return (question.options ?? []).map((option) => ({
        kind: 'text' as const,
        text: option.text,
        count: responses.filter((response) =>
          Array.isArray(response) ? response.includes(option._id) : response === option._id,
        ).length,
        ...withKey(option.correct),
      }));
    case 'true-false':
      return [true, false].map((value) => ({
        kind: 'true-false' as const,
        value,
        count: responses.filter((response) => response === value).length,
        ...withKey(question.correct === undefined ? undefined : question.correct === value),
      }));
    case 'short-text': {
      const { accepted, wildcards } = question;
      // Right: what earns the full points, as the server scores it (wildcards too, decision 049).
      return typedCounts(
        responses.filter((response) => typeof response === 'string'),
        shortTextKey,
        (text) => (accepted ? shortAnswerWeight({ accepted, wildcards }, text) === 100 : undefined),
      );
    }
    case 'numeric': {
      const { value, tolerance, partial } = question;
      // Right: what earns the full points, as the server scores it (further full answers too, decision 043).
      const numbers = (partial ?? []).flatMap((answer) => ('value' in answer ? [answer] : []));
      return typedCounts(
        responses.filter((response) => typeof response === 'string'),
        (text) => String(parseNumber(text) ?? text.trim()),
        (text) => {
          const number = parseNumber(text);
          if (value === undefined || tolerance === undefined || number === undefined) return undefined;
          return numericAnswerWeight({ value, tolerance, partial: numbers }, number) === 100;
        },
      ).map((count) => {
        if (count.kind !== 'text') return count;
        const number = parseNumber(count.text);
        return number === undefined ? count : { ...count, text: String(number) };
      });
    }
    case 'matching': {
      // Each prompt with its match (or, before the key is known, each prompt): how many matched it so.
      const choices = new Map((question.choices ?? []).map((choice) => [choice._id, choice.text]));
      return (question.prompts ?? []).map((prompt) => ({
        kind: 'match' as const,
        prompt: prompt.text,
        ...(prompt.match === undefined ? {} : { choice: choices.get(prompt.match) ?? '' }),
        count: responses.filter(
          (response) =>
            isMatchingAnswer(response) && response[prompt._id] !== undefined && response[prompt._id] === prompt.match,
        ).length,
        ...withKey(prompt.match === undefined ? undefined : true),
      }));
    }
    // Every essay is its own text: no distribution, its marks say the rest (decision 046).
    case 'essay':
    case 'description':
      return [];
  }
}

/** Figures of every question; descriptions have none (decision 045). */
export function questionStats(questions: QuizQuestion[], attempts: AttemptRecord[]): QuestionStats[] {
  return questions
    .filter((question) => !isDescription(question))
    .map((question) => {
      const rows = attempts.flatMap((attempt) => attempt.quiz.questions.filter((row) => row._id === question._id));
      const answered = rows.flatMap((row) => (isAnswered(row.response) ? [row.response] : []));
      const timed = rows.flatMap((row) => (row.seconds === undefined ? [] : [row.seconds]));
      return {
        questionId: question._id,
        percentFull: percent(rows.filter((row) => row.earnedPoints >= question.points).length, attempts.length),
        percentAnswered: percent(answered.length, attempts.length),
        distribution: distributionOf(question, answered),
        averageSeconds:
          timed.length === 0
            ? null
            : Math.round((timed.reduce((total, seconds) => total + seconds, 0) / timed.length) * 10) / 10,
      };
    });
}
