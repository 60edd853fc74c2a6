import { numericAnswerWeight } from './question-scoring.ts';
import { parseNumber, type PartialNumber } from './question-types.ts';
import type { QuizQuestion } from './quizzes.ts';
import { shortAnswerWeight } from './short-answers.ts';

/**
 * How a typed answer of a live game's distribution did (decision 066): its key is the answer as
 * the quiz compares it (a short text's normalised form, a number's value), and it earns what the
 * quiz's scoring gives it. Shared by the projector's closed question and the game's report, so the
 * typed answers worth all of the points are marked as right, as options are.
 */

/**
 * The percent of the points (0 to 100) a typed answer earns, by its distribution key; undefined
 * when the question is not a typed one or carries no key (a player's copy).
 */
export function typedAnswerWeight(question: QuizQuestion, key: string): number | undefined {
  if (question.type === 'short-text') {
    if (!question.accepted) return undefined;
    const partial = (question.partial ?? []).flatMap((answer) => ('text' in answer ? [answer] : []));
    return shortAnswerWeight({ accepted: question.accepted, partial, wildcards: question.wildcards }, key);
  }
  if (question.type === 'numeric') {
    if (question.value === undefined || question.tolerance === undefined) return undefined;
    const number = parseNumber(key);
    if (number === undefined) return 0;
    const partial = (question.partial ?? []).flatMap((answer): PartialNumber[] => ('value' in answer ? [answer] : []));
    return numericAnswerWeight({ value: question.value, tolerance: question.tolerance, partial }, number);
  }
  return undefined;
}

/** Whether a typed answer (by its distribution key) earns all of the points: a right answer. */
export const isRightTypedAnswer = (question: QuizQuestion, key: string) => typedAnswerWeight(question, key) === 100;
