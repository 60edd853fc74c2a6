import {
  answerProblem,
  isAnswered,
  isWeighted,
  optionWeight,
  parseNumber,
  type AnswerValue,
  type MatchingAnswer,
  type PartialNumber,
  type StoredQuestion,
} from './question-types.ts';
import { shortAnswerWeight } from './short-answers.ts';

/**
 * How an answer is scored (issue 20, decisions 036, 043, 046, 049): shared so the preview, the
 * analytics and the server agree; the server alone scores real attempts. Kept apart from
 * question-types.ts so a student's quiz page, which never scores, does not download it.
 */

// Tolerance comparisons in binary floating point: 0.1 + 0.2 must be within 0.3 ± 0.
const NUMERIC_SLACK = 1e-9;

const withinTolerance = (number: number, value: number, tolerance: number) =>
  Math.abs(number - value) <= tolerance * (1 + NUMERIC_SLACK) + NUMERIC_SLACK;

/**
 * The percent of a numeric question's points a number earns: 100 within the question's value
 * and tolerance, else the weight of the first of its other answers whose range holds it (Moodle
 * takes the first answer in the file whose range holds the number; the reader keeps that
 * order), else 0. What the scoring and the analytics read.
 */
export function numericAnswerWeight(
  question: { value: number; tolerance: number; partial?: PartialNumber[] | undefined },
  number: number,
): number {
  if (withinTolerance(number, question.value, question.tolerance)) return 100;
  return question.partial?.find((answer) => withinTolerance(number, answer.value, answer.tolerance))?.weight ?? 0;
}

/**
 * A teacher's marks of an attempt's essays (decision 046), by question id: the points given.
 * An essay without a mark (awaiting marking, or not answered) earns nothing yet.
 */
export type EssayMarks = Record<string, number>;

/**
 * Points earned by one answer, rounded to hundredths. A single-choice answer may earn negative
 * points when its option's weight is negative (Moodle's negative marking, decision 043). An
 * essay earns what its teacher gave (`mark`), never more than its points (an edit that lowered
 * them keeps the mark within them, decision 046).
 */
export function scoreQuestion(question: StoredQuestion, value: AnswerValue | null | undefined, mark?: number): number {
  if (question.type === 'essay') return mark === undefined ? 0 : Math.min(mark, question.points);
  if (!isAnswered(value) || answerProblem(question, value) !== undefined) return 0;
  const { points } = question;
  switch (question.type) {
    case 'single': {
      const chosen = question.options.find((option) => option._id === value);
      return chosen ? roundPoints((points * optionWeight(chosen)) / 100) : 0;
    }
    case 'multiple': {
      if (isWeighted(question)) {
        // Moodle's multiple answer: the chosen options' weights added up, between 0 and 100 %.
        const chosen = new Set(value as string[]);
        const sum = question.options.reduce(
          (total, option) => total + (chosen.has(option._id) ? optionWeight(option) : 0),
          0,
        );
        return roundPoints((points * Math.min(100, Math.max(0, sum))) / 100);
      }
      const chosen = new Set(value as string[]);
      const right = question.options.filter((option) => option.correct);
      const rightChosen = right.filter((option) => chosen.has(option._id)).length;
      const wrongChosen = chosen.size - rightChosen;
      if (question.scoring === 'all-or-nothing') {
        return rightChosen === right.length && wrongChosen === 0 ? points : 0;
      }
      // Moodle's rule: each right option +1/k of the points, each wrong one -1/k, never below 0.
      const earned = (points * (rightChosen - wrongChosen)) / right.length;
      return roundPoints(Math.max(0, earned));
    }
    case 'true-false':
      return value === question.correct ? points : 0;
    case 'short-text': {
      const weight = shortAnswerWeight(question, value as string);
      return weight === 100 ? points : roundPoints((points * weight) / 100);
    }
    case 'numeric': {
      const number = parseNumber(value as string);
      if (number === undefined) return 0;
      const weight = numericAnswerWeight(question, number);
      return weight === 100 ? points : roundPoints((points * weight) / 100);
    }
    case 'matching': {
      // Moodle's match question: every prompt an equal share of the points, extra matches none.
      const answer = value as MatchingAnswer;
      const right = question.prompts.filter((prompt) => answer[prompt._id] === prompt.match).length;
      return roundPoints((points * right) / question.prompts.length);
    }
    case 'description':
      return 0;
  }
}

const roundPoints = (points: number) => Math.round(points * 100) / 100;

export const totalPointsOf = (questions: StoredQuestion[]) =>
  roundPoints(questions.reduce((total, question) => total + question.points, 0));

/**
 * score = points earned (hundredths); accuracy = 100 × earned / total points, at most 2
 * decimals, as text (the column is numeric(5,2)). A quiz of 1-point questions scores as before.
 */
export function scoreAttempt(
  questions: StoredQuestion[],
  answers: Record<string, AnswerValue | null | undefined>,
  marks: EssayMarks = {},
): { score: number; accuracy: string } {
  const score = roundPoints(
    questions.reduce(
      (total, question) => total + scoreQuestion(question, answers[question._id], marks[question._id]),
      0,
    ),
  );
  const total = totalPointsOf(questions);
  const accuracy = total === 0 ? 0 : Math.round((score * 10_000) / total) / 100;
  return { score, accuracy: String(accuracy) };
}

/**
 * The essays of an attempt a teacher must mark (decision 046): the answered ones. An essay left
 * empty earns nothing and waits for no one.
 */
export const essaysToMark = (questions: StoredQuestion[], answers: Record<string, AnswerValue | null | undefined>) =>
  questions.filter((question) => {
    const value = answers[question._id];
    return question.type === 'essay' && typeof value === 'string' && value.trim() !== '';
  });
