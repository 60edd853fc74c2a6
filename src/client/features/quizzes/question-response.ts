import { t } from '@lingui/core/macro';
import { isAnswered, isMatchingAnswer, type AnswerValue, type MatchingAnswer } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import { formatList, formatNumber } from '../../lib/format.ts';

/**
 * How the client reads a typed question's answer (issue 20): the student's response and the
 * key as text, for the review, the analytics table and its CSV. Pure, so it is tested alone.
 */

/** question id -> the student's answer (null: none), as the runner holds and the outbox saves them. */
export type Responses = Record<string, AnswerValue | null>;

export { earnedOfLabel, formatPoints, pointsLabel } from './points.ts';

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

/**
 * A matching prompt with the choice matched to it, e.g. "heart → pumps blood": one message, so
 * a right-to-left language turns the arrow to its reading direction (and isolates both texts).
 */
export const matchedPairText = (prompt: string, choice: string) =>
  t({
    comment:
      'A matching question’s prompt, then the choice matched to it. The arrow points the reading direction: ← in a right-to-left language',
    message: `${prompt} → ${choice}`,
  });

/** A key's number, e.g. 0.25, in the locale's digits (every decimal the teacher wrote). */
const keyNumber = (value: number | undefined) =>
  value === undefined ? '' : formatNumber(value, { maximumFractionDigits: 10, useGrouping: false });

/** How several answers are joined: as the locale lists them on screen, with "; " in a file a program reads. */
type ListJoin = (items: string[]) => string;

/** Joins with "; ": a CSV cell a spreadsheet splits, the same in every locale. */
export const semicolonList: ListJoin = (items) => items.join('; ');

/** Prompts with the choice each is matched to, in the prompts' order, listed by `list` ("heart → pumps blood, lungs → … and …"); unmatched prompts left out. */
function matchedText(question: QuizQuestion, matched: MatchingAnswer, list: ListJoin): string {
  const choices = new Map((question.choices ?? []).map((choice) => [choice._id, choice.text]));
  const pairs = (question.prompts ?? []).flatMap((prompt) => {
    const choice = matched[prompt._id];
    return choice === undefined ? [] : [matchedPairText(prompt.text, choices.get(choice) ?? choice)];
  });
  return list(pairs);
}

/**
 * The student's answer as text ('' when not answered): chosen option texts (joined by `list`, the
 * locale's list on screen), True/False, or what they typed.
 */
export function responseText(
  question: QuizQuestion,
  response: AnswerValue | null | undefined,
  list: ListJoin = formatList,
): string {
  if (!isAnswered(response)) return '';
  if (typeof response === 'boolean') return trueFalseText(response);
  if (Array.isArray(response)) return list(optionTexts(question, response));
  if (isMatchingAnswer(response)) return matchedText(question, response, list);
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
      return formatList((question.options ?? []).filter((option) => option.correct).map((option) => option.text));
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
        formatList,
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
