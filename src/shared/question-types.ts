import { z } from 'zod';
import { hasForbiddenCharacters, requiredText } from './fields.ts';
import { identityKey } from './identity.ts';
import { quizImageKeySchema } from './quiz-images.ts';

/**
 * The question types of a quiz (issue 20, decision 036): what a teacher writes (input), what
 * the server keeps (stored: every question and option with its id), what a student answers,
 * and how an answer is scored. Shared so the editor, the preview, GIFT import and the server
 * agree on one definition; the server alone scores real attempts.
 */

export const QUESTION_TYPES = ['single', 'multiple', 'true-false', 'short-text', 'numeric'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const MULTIPLE_SCORING = ['all-or-nothing', 'partial'] as const;
export type MultipleScoring = (typeof MULTIPLE_SCORING)[number];

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  single: 'Single choice',
  multiple: 'Multiple answers',
  'true-false': 'True or false',
  'short-text': 'Short text',
  numeric: 'Number',
};

export const QUESTION_LIMITS = {
  text: 2000,
  optionsMin: 2,
  optionsMax: 10,
  pointsMin: 0.5,
  pointsMax: 100,
  pointsDefault: 1,
  acceptedMax: 20,
  /** An accepted short answer, and a student's typed answer. */
  shortTextMax: 200,
  /** |value| and tolerance bound: far beyond any school number, well inside a double's exact range. */
  numericAbsMax: 1e12,
  altText: 300,
  /** An uploaded image's key (quizImageKeySchema): 16 to 64 base64url characters. */
  fileKey: 64,
  idMax: 40,
} as const;

// ---- Stored: what quizzes.questions holds ------------------------------------------------

/** An image of a question or an option: a file of the quiz-images store, with its alt text. */
export type QuestionImage = { fileKey: string; alt: string };
export type StoredOption = { _id: string; text: string; image?: QuestionImage; correct: boolean };

type StoredQuestionBase = { _id: string; question_text: string; points: number; image?: QuestionImage };
export type StoredQuestion = StoredQuestionBase &
  (
    | { type: 'single'; options: StoredOption[] }
    | { type: 'multiple'; options: StoredOption[]; scoring: MultipleScoring }
    | { type: 'true-false'; correct: boolean }
    | { type: 'short-text'; accepted: string[] }
    | { type: 'numeric'; value: number; tolerance: number }
  );
export type ChoiceQuestion = Extract<StoredQuestion, { type: 'single' | 'multiple' }>;
export const isChoiceQuestion = (question: StoredQuestion): question is ChoiceQuestion =>
  question.type === 'single' || question.type === 'multiple';

// ---- Answers: what a student sends ------------------------------------------------------

/**
 * A student's answer, by type: single → option id; multiple → option ids; true-false →
 * boolean; short-text → the typed text; numeric → the typed number as text ("3,5" or "3.5").
 */
export type AnswerValue = string | string[] | boolean;

export const answerValueSchema = z.union(
  [
    z
      .string()
      .max(QUESTION_LIMITS.shortTextMax, {
        error: `An answer must be at most ${QUESTION_LIMITS.shortTextMax} characters`,
      })
      .refine((value) => !hasForbiddenCharacters(value), {
        error: 'The answer contains characters that are not allowed',
      }),
    z.array(z.string().min(1).max(QUESTION_LIMITS.idMax)).max(QUESTION_LIMITS.optionsMax),
    z.boolean(),
  ],
  { error: 'An answer must be an option id, a list of option ids, true or false, or a text' },
);

/** Why `value` cannot be an answer to `question` (wrong type, unknown option), or undefined when it can. */
export function answerProblem(question: StoredQuestion, value: AnswerValue): string | undefined {
  switch (question.type) {
    case 'single':
      return typeof value === 'string' && question.options.some((option) => option._id === value)
        ? undefined
        : 'Choose one of the question’s options';
    case 'multiple': {
      if (!Array.isArray(value)) return 'Choose options of the question';
      const ids = new Set(question.options.map((option) => option._id));
      if (new Set(value).size !== value.length) return 'An option is chosen twice';
      return value.every((id) => ids.has(id)) ? undefined : 'Choose options of the question';
    }
    case 'true-false':
      return typeof value === 'boolean' ? undefined : 'Answer true or false';
    case 'short-text':
      return typeof value === 'string' ? undefined : 'Type the answer';
    case 'numeric':
      return typeof value === 'string' && (value.trim() === '' || parseNumber(value) !== undefined)
        ? undefined
        : 'Type a number';
  }
}

/** Whether an answer counts as given (an empty text or an empty list is no answer). */
export const isAnswered = (value: AnswerValue | null | undefined): value is AnswerValue =>
  value !== null && value !== undefined && (typeof value === 'boolean' || value.length > 0);

// ---- Scoring ----------------------------------------------------------------------------

/** A number as typed: one decimal mark, "." or ",", an optional sign and exponent; no thousands separators. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim().replace(/\u2212/g, '-');
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) && Math.abs(value) <= QUESTION_LIMITS.numericAbsMax ? value : undefined;
}

/** Short answers compare as identities do (decision 024): case, width and spacing do not count. */
export const shortTextKey = (text: string) => identityKey(text.normalize('NFC'));

// Tolerance comparisons in binary floating point: 0.1 + 0.2 must be within 0.3 ± 0.
const NUMERIC_SLACK = 1e-9;

/** Points earned by one answer, rounded to hundredths. */
export function scoreQuestion(question: StoredQuestion, value: AnswerValue | null | undefined): number {
  if (!isAnswered(value) || answerProblem(question, value) !== undefined) return 0;
  const { points } = question;
  switch (question.type) {
    case 'single':
      return question.options.find((option) => option._id === value)?.correct ? points : 0;
    case 'multiple': {
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
      const key = shortTextKey(value as string);
      return question.accepted.some((accepted) => shortTextKey(accepted) === key) ? points : 0;
    }
    case 'numeric': {
      const number = parseNumber(value as string);
      if (number === undefined) return 0;
      return Math.abs(number - question.value) <= question.tolerance * (1 + NUMERIC_SLACK) + NUMERIC_SLACK ? points : 0;
    }
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
): { score: number; accuracy: string } {
  const score = roundPoints(
    questions.reduce((total, question) => total + scoreQuestion(question, answers[question._id]), 0),
  );
  const total = totalPointsOf(questions);
  const accuracy = total === 0 ? 0 : Math.round((score * 10_000) / total) / 100;
  return { score, accuracy: String(accuracy) };
}

/** Every image file a quiz's questions and options name: each must have been uploaded. */
export const imageKeysOf = (questions: StoredQuestion[]): string[] =>
  questions.flatMap((question) => [
    ...(question.image ? [question.image.fileKey] : []),
    ...(isChoiceQuestion(question)
      ? question.options.flatMap((option) => (option.image ? [option.image.fileKey] : []))
      : []),
  ]);

// ---- Input: what the editor (and SPEC §7 clients) send ----------------------------------

const idField = z
  .string()
  .min(1)
  .max(QUESTION_LIMITS.idMax)
  .regex(/^[\w-]+$/, { error: 'Not a valid id' });

export const questionImageSchema = z.strictObject({
  fileKey: quizImageKeySchema,
  alt: requiredText('Image description (alt text)', QUESTION_LIMITS.altText),
});

const pointsField = z
  .number({ error: 'Points must be a number' })
  .min(QUESTION_LIMITS.pointsMin, { error: `A question is worth at least ${QUESTION_LIMITS.pointsMin} points` })
  .max(QUESTION_LIMITS.pointsMax, { error: `A question is worth at most ${QUESTION_LIMITS.pointsMax} points` })
  .refine((value) => Number.isInteger(value * 2), { error: 'Points go in halves: 1, 1.5, 2…' })
  .default(QUESTION_LIMITS.pointsDefault);

const optionTextField = z
  .string({ error: 'Options must be text' })
  .max(QUESTION_LIMITS.text, { error: `An option must be at most ${QUESTION_LIMITS.text} characters` })
  .refine((value) => !hasForbiddenCharacters(value), { error: 'An option contains characters that are not allowed' })
  .transform((value) => value.trim());

/** An option as the editor sends it: `_id` kept from the stored quiz on an edit, absent for a new one. */
export const optionInputSchema = z
  .strictObject({
    _id: idField.optional(),
    text: optionTextField,
    image: questionImageSchema.optional(),
    correct: z.boolean({ error: 'Say whether the option is correct' }),
  })
  .refine((option) => option.text !== '' || option.image !== undefined, {
    error: 'An option needs text or an image',
    path: ['text'],
  });
export type OptionInput = z.input<typeof optionInputSchema>;

const questionBase = {
  _id: idField.optional(),
  question_text: requiredText('Question text', QUESTION_LIMITS.text),
  points: pointsField,
  image: questionImageSchema.optional(),
};

const choiceOptions = z
  .array(optionInputSchema, { error: 'Options must be a list' })
  .min(QUESTION_LIMITS.optionsMin, { error: `A question needs at least ${QUESTION_LIMITS.optionsMin} options` })
  .max(QUESTION_LIMITS.optionsMax, { error: `A question can have at most ${QUESTION_LIMITS.optionsMax} options` })
  .refine(
    (options) => {
      const texts = options.filter((option) => option.text !== '').map((option) => option.text);
      return new Set(texts).size === texts.length;
    },
    { error: 'Options of a question must differ' },
  )
  .refine(
    (options) => {
      const ids = options.flatMap((option) => (option._id ? [option._id] : []));
      return new Set(ids).size === ids.length;
    },
    { error: 'Two options have the same id' },
  );

const accepted = z
  .string({ error: 'Accepted answers must be text' })
  .trim()
  .min(1, { error: 'An accepted answer cannot be empty' })
  .max(QUESTION_LIMITS.shortTextMax, {
    error: `An accepted answer must be at most ${QUESTION_LIMITS.shortTextMax} characters`,
  })
  .refine((value) => !hasForbiddenCharacters(value), {
    error: 'An accepted answer contains characters that are not allowed',
  });

const boundedNumber = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .refine((value) => Number.isFinite(value) && Math.abs(value) <= QUESTION_LIMITS.numericAbsMax, {
      error: `${label} is out of range`,
    });

/** A typed question (issue 20): the union on `type`. */
export const typedQuestionInputSchema = z.discriminatedUnion(
  'type',
  [
    z
      .strictObject({ ...questionBase, type: z.literal('single'), options: choiceOptions })
      .refine((question) => question.options.filter((option) => option.correct).length === 1, {
        error: 'Mark exactly one option as correct',
        path: ['options'],
      }),
    z
      .strictObject({
        ...questionBase,
        type: z.literal('multiple'),
        options: choiceOptions,
        scoring: z.enum(MULTIPLE_SCORING, { error: 'Scoring is all-or-nothing or partial' }).default('all-or-nothing'),
      })
      .refine((question) => question.options.some((option) => option.correct), {
        error: 'Mark at least one option as correct',
        path: ['options'],
      }),
    z.strictObject({
      ...questionBase,
      type: z.literal('true-false'),
      correct: z.boolean({ error: 'Choose whether the statement is true or false' }),
    }),
    z.strictObject({
      ...questionBase,
      type: z.literal('short-text'),
      accepted: z
        .array(accepted, { error: 'Accepted answers must be a list' })
        .min(1, { error: 'Add at least one accepted answer' })
        .max(QUESTION_LIMITS.acceptedMax, {
          error: `A question can have at most ${QUESTION_LIMITS.acceptedMax} accepted answers`,
        }),
    }),
    z.strictObject({
      ...questionBase,
      type: z.literal('numeric'),
      value: boundedNumber('The value'),
      tolerance: boundedNumber('The tolerance').refine((value) => value >= 0, {
        error: 'The tolerance cannot be negative',
      }),
    }),
  ],
  { error: 'Choose a question type' },
);
export type TypedQuestionInput = z.input<typeof typedQuestionInputSchema>;
export type TypedQuestion = z.output<typeof typedQuestionInputSchema>;

/** Characters of a question's texts (its text, options, accepted answers, alt texts): the quiz's text budget counts them. */
export function questionTextLength(question: TypedQuestion | StoredQuestion): number {
  const imageLength = (image?: QuestionImage) => image?.alt.length ?? 0;
  let length = question.question_text.length + imageLength(question.image);
  if (question.type === 'single' || question.type === 'multiple') {
    for (const option of question.options) length += option.text.length + imageLength(option.image);
  }
  if (question.type === 'short-text') for (const text of question.accepted) length += text.length;
  return length;
}

/**
 * The stored form of typed questions: `questionIds` gives ids to new questions (the server draws
 * them); options keep the ids they came with and new ones take the next free `o<n>` of their
 * question, so an edit never renames what an attempt's layout and answers point at.
 */
export function toStoredQuestions(input: TypedQuestion[], newQuestionIds: string[]): StoredQuestion[] {
  let nextNewId = 0;
  return input.map((question) => {
    const _id = question._id ?? newQuestionIds[nextNewId++]!;
    const base = { _id, question_text: question.question_text, points: question.points };
    const withImage = question.image ? { ...base, image: question.image } : base;
    if (question.type !== 'single' && question.type !== 'multiple') return { ...question, ...withImage };
    const taken = new Set(question.options.flatMap((option) => (option._id ? [option._id] : [])));
    let counter = 0;
    const nextOptionId = () => {
      let id: string;
      do id = `o${++counter}`;
      while (taken.has(id));
      taken.add(id);
      return id;
    };
    const options: StoredOption[] = question.options.map((option) => ({
      _id: option._id ?? nextOptionId(),
      text: option.text,
      ...(option.image ? { image: option.image } : {}),
      correct: option.correct,
    }));
    return question.type === 'single'
      ? { ...withImage, type: 'single', options }
      : { ...withImage, type: 'multiple', options, scoring: question.scoring };
  });
}
