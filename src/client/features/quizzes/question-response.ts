import { isAnswered, type AnswerValue } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';

/**
 * How the client reads a typed question's answer (issue 20): the student's response and the
 * key as text, for the review, the analytics table and its CSV. Pure, so it is tested alone.
 */

/** question id -> the student's answer (null: none), as the runner holds and the outbox saves them. */
export type Responses = Record<string, AnswerValue | null>;

export { formatPoints, pointsLabel } from './points.ts';

const optionTexts = (question: QuizQuestion, ids: string[]) =>
  ids.map((id) => question.options?.find((option) => option._id === id)?.text ?? id);

export const trueFalseText = (value: boolean) => (value ? 'True' : 'False');

/** The student's answer as text ('' when not answered): chosen option texts, True/False, or what they typed. */
export function responseText(question: QuizQuestion, response: AnswerValue | null | undefined): string {
  if (!isAnswered(response)) return '';
  if (typeof response === 'boolean') return trueFalseText(response);
  if (Array.isArray(response)) return optionTexts(question, response).join('; ');
  if (question.type === 'single') return optionTexts(question, [response]).join('');
  return response;
}

/** Whether the server sent the question's key (teachers; students once the review options allow). */
export function hasKey(question: QuizQuestion): boolean {
  switch (question.type) {
    case 'single':
    case 'multiple':
      return question.options?.some((option) => option.correct !== undefined) ?? false;
    case 'true-false':
      return question.correct !== undefined;
    case 'short-text':
      return question.accepted !== undefined;
    case 'numeric':
      return question.value !== undefined;
  }
}

/** The key as text: the correct options, True/False, the accepted answers, or value ± tolerance; '' without it. */
export function keyText(question: QuizQuestion): string {
  if (!hasKey(question)) return '';
  switch (question.type) {
    case 'single':
    case 'multiple':
      return (question.options ?? [])
        .filter((option) => option.correct)
        .map((option) => option.text)
        .join('; ');
    case 'true-false':
      return trueFalseText(question.correct === true);
    case 'short-text':
      return (question.accepted ?? []).join(' / ');
    case 'numeric':
      return question.tolerance ? `${question.value} ± ${question.tolerance}` : String(question.value);
  }
}

/** How an answer did: all its points, some, or none. */
export type Outcome = 'full' | 'partial' | 'none';
export const outcomeOf = (earned: number, points: number): Outcome =>
  earned >= points && points > 0 ? 'full' : earned > 0 ? 'partial' : 'none';
