import { t } from '@lingui/core/macro';
import { isAnswered, isMatchingAnswer, type AnswerValue, type MatchingAnswer } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import { formatNumber } from '../../lib/format.ts';

/**
 * How the client reads a typed question's answer (issue 20): the student's response and the
 * key as text, for the review, the analytics table and its CSV. Pure, so it is tested alone.
 */

/** question id -> the student's answer (null: none), as the runner holds and the outbox saves them. */
export type Responses = Record<string, AnswerValue | null>;

export { formatPoints, pointsLabel } from './points.ts';

/**
 * The chosen options' texts in the options' order: a multiple-answer response holds the ids in
 * the order the student picked them from their shuffled list. An id no option has comes last.
 */
function optionTexts(question: QuizQuestion, ids: string[]): string[] {
  const options = question.options ?? [];
  const chosen = new Set(ids);
  const known = new Set(options.map((option) => option._id));
  return [
    ...options.filter((option) => chosen.has(option._id)).map((option) => option.text),
    ...ids.filter((id) => !known.has(id)),
  ];
}

/** True or False as the student reads it (the answer of a true-false question), in the active locale. */
export const trueFalseText = (value: boolean) =>
  value
    ? t({ comment: 'The answer "true" of a true-or-false question', message: 'True' })
    : t({ comment: 'The answer "false" of a true-or-false question', message: 'False' });

/** A key's number, e.g. 0.25, in the locale's digits (every decimal the teacher wrote). */
const keyNumber = (value: number | undefined) =>
  value === undefined ? '' : formatNumber(value, { maximumFractionDigits: 10, useGrouping: false });

/** Prompts with the choice each is matched to, in the prompts' order ("heart → pumps blood; …"); unmatched prompts left out. */
function matchedText(question: QuizQuestion, matched: MatchingAnswer): string {
  const choices = new Map((question.choices ?? []).map((choice) => [choice._id, choice.text]));
  return (question.prompts ?? [])
    .flatMap((prompt) => {
      const choice = matched[prompt._id];
      return choice === undefined ? [] : [`${prompt.text} → ${choices.get(choice) ?? choice}`];
    })
    .join('; ');
}

/** The student's answer as text ('' when not answered): chosen option texts, True/False, or what they typed. */
export function responseText(question: QuizQuestion, response: AnswerValue | null | undefined): string {
  if (!isAnswered(response)) return '';
  if (typeof response === 'boolean') return trueFalseText(response);
  if (Array.isArray(response)) return optionTexts(question, response).join('; ');
  if (isMatchingAnswer(response)) return matchedText(question, response);
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
    case 'matching':
      return question.prompts?.some((prompt) => prompt.match !== undefined) ?? false;
    // An essay is marked by hand: no key to show (decision 046).
    case 'essay':
    case 'description':
      return false;
  }
}

/** The key as text: the correct options, True/False, the accepted answers, or each full value ± tolerance; '' without it. */
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
    case 'short-text': {
      const accepted = (question.accepted ?? []).join(' / ');
      // Patterns (decision 049): the reader is told what their stars mean.
      return question.wildcards ? t`${accepted} (* matches any text)` : accepted;
    }
    case 'numeric': {
      // Every answer worth all the points (Moodle's further full answers, decision 043), each with its tolerance.
      const full = (question.partial ?? []).flatMap((answer) =>
        'value' in answer && answer.weight === 100 ? [answer] : [],
      );
      return [{ value: question.value, tolerance: question.tolerance }, ...full]
        .map(({ value, tolerance }) => (tolerance ? `${keyNumber(value)} ± ${keyNumber(tolerance)}` : keyNumber(value)))
        .join(' / ');
    }
    case 'matching':
      return matchedText(
        question,
        Object.fromEntries((question.prompts ?? []).map((prompt) => [prompt._id, prompt.match ?? ''])),
      );
    case 'essay':
    case 'description':
      return '';
  }
}

/**
 * Each question's number as the student reads it: descriptions are not questions (decision
 * 045), so they take no number and the questions after them go on counting.
 */
export function questionNumbers(questions: { _id: string; type: string }[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const question of questions) if (question.type !== 'description') numbers.set(question._id, numbers.size + 1);
  return numbers;
}

/** How an answer did: all its points, some, or none. */
export type Outcome = 'full' | 'partial' | 'none';
export const outcomeOf = (earned: number, points: number): Outcome =>
  earned >= points && points > 0 ? 'full' : earned > 0 ? 'partial' : 'none';
