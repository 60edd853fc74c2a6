import { z } from 'zod/mini';
import { fieldCode, type FieldErrorCode, type FieldErrorParams } from './field-error-codes.ts';
import { halfPoints, hasForbiddenCharacters, requiredText, trimmedCleanText } from './fields.ts';
import { quizImageKeySchema } from './quiz-images.ts';

/**
 * The question types of a quiz (issue 20, decision 036): what a teacher writes (input), what
 * the server keeps (stored: every question and option with its id), what a student answers,
 * and how an answer is scored. Shared so the editor, the preview, GIFT import and the server
 * agree on one definition; the server alone scores real attempts.
 */

export const QUESTION_TYPES = [
  'single',
  'multiple',
  'true-false',
  'short-text',
  'numeric',
  'matching',
  'description',
  'essay',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
export const MULTIPLE_SCORING = ['all-or-nothing', 'partial'] as const;
export type MultipleScoring = (typeof MULTIPLE_SCORING)[number];

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  single: 'Single choice',
  multiple: 'Multiple answers',
  'true-false': 'True or false',
  'short-text': 'Short text',
  numeric: 'Number',
  matching: 'Matching',
  description: 'Description (no answer)',
  essay: 'Essay (marked by hand)',
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
  /**
   * A student's essay (decision 046): a few pages of prose. With `essaysMax` essays a quiz, it
   * bounds the answer saves' bodies (SAVE_ANSWERS_BODY_LIMIT_BYTES).
   */
  essayMax: 5000,
  /** Essays in one quiz: each can bring essayMax characters to every save and submission. */
  essaysMax: 20,
  /** A teacher's marking guidance on an essay (never shown to students), and a marking comment. */
  guidanceMax: 2000,
  commentMax: 2000,
  altText: 300,
  /** An uploaded image's key (quizImageKeySchema): 16 to 64 base64url characters. */
  fileKey: 64,
  idMax: 40,
  /** A matching question's pairs (prompts and extra matches together), as Moodle's reader needs at least two. */
  pairsMin: 2,
  pairsMax: 10,
} as const;

// ---- Stored: what quizzes.questions holds ------------------------------------------------

/** An image of a question or an option: a file of the quiz-images store, with its alt text. */
export type QuestionImage = { fileKey: string; alt: string };
/**
 * `weight` (decision 043): the percent of the question's points this option gives when chosen,
 * as Moodle's answer fractions (-100 to 100); present on the options of a question imported with
 * weights that our other rules cannot express, absent otherwise.
 */
export type StoredOption = { _id: string; text: string; image?: QuestionImage; correct: boolean; weight?: number };
/** An answer that earns part of the points (decision 043): Moodle's `=%50%…` of short and number answers. */
export type PartialText = { text: string; weight: number };
/**
 * A number answer after the question's own value (decision 043): part of the points, or all of
 * them (weight 100: Moodle's further full answers with their own tolerance, as 2 and -2 for a
 * square root of 4, decision 043's addendum). Tried in order after `value`, as Moodle tries its
 * answers in the file's order.
 */
export type PartialNumber = { value: number; tolerance: number; weight: number };
/**
 * A matching question (decision 045): each prompt names the choice that matches it; choices are
 * the distinct match texts, some matching no prompt (Moodle's extra answers). Every id is random
 * (decision 039), so neither a prompt's nor a choice's id tells which belong together.
 */
export type MatchingPrompt = { _id: string; text: string; match: string };
export type MatchingChoice = { _id: string; text: string };

type StoredQuestionBase = { _id: string; question_text: string; points: number; image?: QuestionImage };
export type StoredQuestion = StoredQuestionBase &
  (
    | { type: 'single'; options: StoredOption[] }
    | { type: 'multiple'; options: StoredOption[]; scoring: MultipleScoring }
    | { type: 'true-false'; correct: boolean }
    /** `wildcards` (decision 049): `*` in its answers matches any text, `\*` is a star; absent, every answer is literal. */
    | { type: 'short-text'; accepted: string[]; partial?: PartialText[]; wildcards?: true }
    | { type: 'numeric'; value: number; tolerance: number; partial?: PartialNumber[] }
    | { type: 'matching'; prompts: MatchingPrompt[]; choices: MatchingChoice[] }
    /** Text (and image) shown in the quiz: no answer, 0 points, counted in no total (decision 045). */
    | { type: 'description' }
    // Marked by a teacher (decision 046): no key; `guidance` is for markers, never for students.
    | { type: 'essay'; guidance?: string }
  );
export type ChoiceQuestion = Extract<StoredQuestion, { type: 'single' | 'multiple' }>;
export const isChoiceQuestion = (question: StoredQuestion): question is ChoiceQuestion =>
  question.type === 'single' || question.type === 'multiple';
/** A description is an item of the quiz, not a question: no answer, no points, not counted (decision 045). */
export const isDescription = (question: { type: string }) => question.type === 'description';
/**
 * A quiz's items in an attempt's order: a description stays where the teacher put it, before
 * the questions that followed it, and each stretch of questions between descriptions is
 * shuffled on its own (decision 045); without descriptions, the whole quiz is shuffled.
 */
export function shuffledAroundDescriptions<T extends { type: string }>(items: T[], shuffle: (items: T[]) => T[]): T[] {
  const stretches: T[][] = [[]];
  for (const item of items) {
    if (isDescription(item)) stretches.push([]);
    stretches.at(-1)!.push(item);
  }
  return stretches.flatMap(([first, ...rest]) =>
    first === undefined ? [] : isDescription(first) ? [first, ...shuffle(rest)] : shuffle([first, ...rest]),
  );
}

/** The questions a student answers: what "N questions" counts. */
export const questionCountOf = (questions: { type: string }[]) =>
  questions.filter((question) => !isDescription(question)).length;

// ---- Answers: what a student sends ------------------------------------------------------

/**
 * A student's answer, by type: single → option id; multiple → option ids; true-false →
 * boolean; short-text → the typed text; numeric → the typed number as text ("3,5" or "3.5");
 * matching → prompt id → the chosen choice’s id (prompts left unmatched are absent);
 * essay → the written text (up to essayMax; answerProblem holds the other texts to shortTextMax).
 */
export type MatchingAnswer = Record<string, string>;
export type AnswerValue = string | string[] | boolean | MatchingAnswer;

export const isMatchingAnswer = (value: AnswerValue | null | undefined): value is MatchingAnswer =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const answerValueSchema = z.union([
  z.string().check(
    z.maxLength(QUESTION_LIMITS.essayMax),
    z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
  ),
  z
    .array(z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.idMax)))
    .check(z.maxLength(QUESTION_LIMITS.optionsMax)),
  z.boolean(),
  z
    .record(
      z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.idMax)),
      z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.idMax)),
    )
    .check(
      z.refine((value) => Object.keys(value).length <= QUESTION_LIMITS.pairsMax, {
        params: fieldCode('TOO_MANY', { maximum: QUESTION_LIMITS.pairsMax }),
      }),
    ),
]);

/**
 * Why an answer cannot be saved: a field error's code and parameters, which clients word in the
 * reader's language (issue 32), and the English message for logs and API users.
 */
export type AnswerProblem = { code: FieldErrorCode; params?: FieldErrorParams; message: string };

const problem = (code: FieldErrorCode, message: string, params?: FieldErrorParams): AnswerProblem =>
  params ? { code, params, message } : { code, message };
const NOT_AN_OPTION = problem('INVALID_CHOICE', 'Choose options of the question');
const NOT_A_MATCH = problem('INVALID_CHOICE', 'Match the question’s prompts to its matches');
const NOT_MATCHES = problem('WRONG_TYPE', 'Match the prompts of the question', { expected: 'object' });
const NOT_TEXT = problem('WRONG_TYPE', 'Type the answer', { expected: 'string' });

/** Why `value` cannot be an answer to `question` (wrong type, unknown option), or undefined when it can. */
export function answerProblem(question: StoredQuestion, value: AnswerValue): AnswerProblem | undefined {
  // Only an essay is long: any other typed answer stays within a short answer's length.
  if (typeof value === 'string' && question.type !== 'essay' && value.length > QUESTION_LIMITS.shortTextMax)
    return problem('TOO_LONG', `An answer must be at most ${QUESTION_LIMITS.shortTextMax} characters`, {
      maximum: QUESTION_LIMITS.shortTextMax,
    });
  switch (question.type) {
    case 'single':
      return typeof value === 'string' && question.options.some((option) => option._id === value)
        ? undefined
        : problem('INVALID_CHOICE', 'Choose one of the question’s options');
    case 'multiple': {
      if (!Array.isArray(value)) return problem('WRONG_TYPE', 'Choose options of the question', { expected: 'array' });
      const ids = new Set(question.options.map((option) => option._id));
      if (new Set(value).size !== value.length) return problem('NOT_UNIQUE', 'An option is chosen twice');
      return value.every((id) => ids.has(id)) ? undefined : NOT_AN_OPTION;
    }
    case 'true-false':
      return typeof value === 'boolean'
        ? undefined
        : problem('WRONG_TYPE', 'Answer true or false', { expected: 'boolean' });
    case 'short-text':
    case 'essay':
      return typeof value === 'string' ? undefined : NOT_TEXT;
    case 'numeric':
      return typeof value === 'string' && (value.trim() === '' || parseNumber(value) !== undefined)
        ? undefined
        : problem('NOT_A_NUMBER', 'Type a number');
    case 'matching': {
      if (!isMatchingAnswer(value)) return NOT_MATCHES;
      const prompts = new Set(question.prompts.map((prompt) => prompt._id));
      const choices = new Set(question.choices.map((choice) => choice._id));
      return Object.entries(value).every(([prompt, choice]) => prompts.has(prompt) && choices.has(choice))
        ? undefined
        : NOT_A_MATCH;
    }
    case 'description':
      return problem('NOT_ANSWERABLE', 'A description takes no answer');
  }
}

/** Whether an answer counts as given (an empty text or an empty list is no answer). */
export const isAnswered = (value: AnswerValue | null | undefined): value is AnswerValue =>
  value !== null &&
  value !== undefined &&
  (typeof value === 'boolean' || (isMatchingAnswer(value) ? Object.keys(value).length > 0 : value.length > 0));

// ---- Scoring ----------------------------------------------------------------------------

/** A number as typed: one decimal mark, "." or ",", an optional sign and exponent; no thousands separators. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim().replace(/\u2212/g, '-');
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) && Math.abs(value) <= QUESTION_LIMITS.numericAbsMax ? value : undefined;
}

/** Whether a choice question scores by its options' weights (Moodle's fractions, decision 043). */
export const isWeighted = (question: { options: { weight?: number | undefined }[] }) =>
  question.options.some((option) => option.weight !== undefined);
/** An option's weight in percent: its own, or 100 for a right one and 0 for a wrong one. */
export const optionWeight = (option: { correct: boolean; weight?: number | undefined }) =>
  option.weight ?? (option.correct ? 100 : 0);

/** Every image file a quiz's questions and options name: each must have been uploaded. */
export const imageKeysOf = (questions: StoredQuestion[]): string[] =>
  questions.flatMap((question) => [
    ...(question.image ? [question.image.fileKey] : []),
    ...(isChoiceQuestion(question)
      ? question.options.flatMap((option) => (option.image ? [option.image.fileKey] : []))
      : []),
  ]);

// ---- Input: what the editor (and SPEC §7 clients) send ----------------------------------

const idField = z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.idMax), z.regex(/^[\w-]+$/));

export const questionImageSchema = z.strictObject({
  fileKey: quizImageKeySchema,
  alt: requiredText(QUESTION_LIMITS.altText),
});

const pointsField = z._default(
  halfPoints(QUESTION_LIMITS.pointsMin, QUESTION_LIMITS.pointsMax),
  QUESTION_LIMITS.pointsDefault,
);

/** An option's text: bounded, clean, trimmed (empty is left to the question's rules). */
export const optionTextField = trimmedCleanText(QUESTION_LIMITS.text);

const weightField = z.number().check(z.gte(-100), z.lte(100));
/** A partial-credit answer's weight: more than nothing, less than all of the points. */
const partialWeightField = z.number().check(z.gt(0), z.lt(100));
/**
 * A further number answer's weight: more than nothing, up to all of the points. A short answer
 * lists its other full answers in `accepted`; a number answer has one `value`, and Moodle's
 * further full answers each keep their own tolerance, so they come here with 100.
 */
const numberAnswerWeightField = z.number().check(z.gt(0), z.lte(100));

/** An option as the editor sends it: `_id` kept from the stored quiz on an edit, absent for a new one. */
export const optionInputSchema = z
  .strictObject({
    _id: z.optional(idField),
    text: optionTextField,
    image: z.optional(questionImageSchema),
    correct: z.boolean(),
    weight: z.optional(weightField),
  })
  .check(
    z.refine((option) => option.text !== '' || option.image !== undefined, {
      path: ['text'],
      params: fieldCode('OPTION_EMPTY'),
    }),
  );
export type OptionInput = z.input<typeof optionInputSchema>;

const questionBase = {
  _id: z.optional(idField),
  question_text: requiredText(QUESTION_LIMITS.text),
  points: pointsField,
  image: z.optional(questionImageSchema),
};

const choiceOptions = z.array(optionInputSchema).check(
  z.minLength(QUESTION_LIMITS.optionsMin),
  z.maxLength(QUESTION_LIMITS.optionsMax),
  z.refine(
    (options) => {
      const texts = options.filter((option) => option.text !== '').map((option) => option.text);
      return new Set(texts).size === texts.length;
    },
    { params: fieldCode('NOT_UNIQUE') },
  ),
  z.refine(
    (options) => {
      const ids = options.flatMap((option) => (option._id ? [option._id] : []));
      return new Set(ids).size === ids.length;
    },
    { params: fieldCode('NOT_UNIQUE') },
  ),
);

const accepted = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(QUESTION_LIMITS.shortTextMax),
  z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
);

const boundedNumber = () =>
  z.number().check(
    z.refine((value) => Number.isFinite(value) && Math.abs(value) <= QUESTION_LIMITS.numericAbsMax, {
      params: fieldCode('NUMBER_OUT_OF_RANGE', { maximum: QUESTION_LIMITS.numericAbsMax }),
    }),
  );

const toleranceField = boundedNumber().check(
  z.refine((value) => value >= 0, { params: fieldCode('TOO_SMALL', { minimum: 0, inclusive: true }) }),
);

/**
 * A pair of a matching question as the teacher writes it (decision 045): a prompt and its
 * match, or an extra match with an empty prompt. `_id` is the prompt's and `matchId` the
 * match's, kept from the stored quiz on an edit; pairs with the same match share one choice.
 */
const matchingPairSchema = z
  .strictObject({
    _id: z.optional(idField),
    prompt: optionTextField,
    match: optionTextField,
    matchId: z.optional(idField),
  })
  .check(
    z.refine((pair) => pair.match !== '', { path: ['match'], params: fieldCode('MATCH_MISSING') }),
    z.refine((pair) => pair.prompt !== '' || pair._id === undefined, {
      path: ['_id'],
      params: fieldCode('MATCH_WITH_PROMPT_ID'),
    }),
  );
export type MatchingPairInput = z.input<typeof matchingPairSchema>;

const matchingPairs = z.array(matchingPairSchema).check(
  z.minLength(QUESTION_LIMITS.pairsMin),
  z.maxLength(QUESTION_LIMITS.pairsMax),
  z.refine((pairs) => pairs.some((pair) => pair.prompt !== ''), { params: fieldCode('PROMPT_MISSING') }),
  z.refine((pairs) => new Set(pairs.map((pair) => pair.match).filter((match) => match !== '')).size >= 2, {
    params: fieldCode('TOO_FEW_MATCHES', { minimum: 2 }),
  }),
  z.refine(
    (pairs) => {
      const ids = pairs.flatMap((pair) => (pair._id ? [pair._id] : []));
      return new Set(ids).size === ids.length;
    },
    { params: fieldCode('NOT_UNIQUE') },
  ),
);

/** A typed question (issue 20): the union on `type`. */
export const typedQuestionInputSchema = z.discriminatedUnion('type', [
  z.strictObject({ ...questionBase, type: z.literal('single'), options: choiceOptions }).check(
    // Weighted (imported from Moodle): every option worth 100 % counts as right, so several may.
    z.refine(
      (question) => {
        const right = question.options.filter((option) => option.correct).length;
        return isWeighted(question) ? right >= 1 : right === 1;
      },
      { path: ['options'], params: fieldCode('ONE_CORRECT_OPTION') },
    ),
  ),
  z
    .strictObject({
      ...questionBase,
      type: z.literal('multiple'),
      options: choiceOptions,
      scoring: z._default(z.enum(MULTIPLE_SCORING), 'all-or-nothing'),
    })
    .check(
      z.refine((question) => question.options.some((option) => option.correct), {
        path: ['options'],
        params: fieldCode('NO_CORRECT_OPTION'),
      }),
    ),
  z.strictObject({
    ...questionBase,
    type: z.literal('true-false'),
    correct: z.boolean(),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal('short-text'),
    accepted: z.array(accepted).check(z.minLength(1), z.maxLength(QUESTION_LIMITS.acceptedMax)),
    partial: z.optional(
      z
        .array(z.strictObject({ text: accepted, weight: partialWeightField }))
        .check(z.maxLength(QUESTION_LIMITS.acceptedMax)),
    ),
    // Decision 049: `*` in the answers is Moodle's wildcard only when the question says so.
    wildcards: z.optional(z.boolean()),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal('numeric'),
    value: boundedNumber(),
    tolerance: toleranceField,
    partial: z.optional(
      z
        .array(
          z.strictObject({
            value: boundedNumber(),
            tolerance: toleranceField,
            weight: numberAnswerWeightField,
          }),
        )
        .check(z.maxLength(QUESTION_LIMITS.acceptedMax)),
    ),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal('essay'),
    guidance: z.optional(trimmedCleanText(QUESTION_LIMITS.guidanceMax)),
  }),
  z.strictObject({ ...questionBase, type: z.literal('matching'), pairs: matchingPairs }),
  z.strictObject({
    ...questionBase,
    type: z.literal('description'),
    points: z._default(z.literal(0), 0),
  }),
]);
export type TypedQuestionInput = z.input<typeof typedQuestionInputSchema>;
export type TypedQuestion = z.output<typeof typedQuestionInputSchema>;

/** Characters of a question's texts (its text, options, accepted answers, alt texts): the quiz's text budget counts them. */
export function questionTextLength(question: TypedQuestion | StoredQuestion): number {
  const imageLength = (image?: QuestionImage) => image?.alt.length ?? 0;
  let length = question.question_text.length + imageLength(question.image);
  if (question.type === 'single' || question.type === 'multiple') {
    for (const option of question.options) length += option.text.length + imageLength(option.image);
  }
  if (question.type === 'short-text') {
    for (const text of question.accepted) length += text.length;
    for (const answer of question.partial ?? []) length += answer.text.length;
  }
  if (question.type === 'essay') length += question.guidance?.length ?? 0;
  if (question.type === 'matching') {
    if ('pairs' in question) for (const pair of question.pairs) length += pair.prompt.length + pair.match.length;
    else {
      for (const prompt of question.prompts) length += prompt.text.length;
      for (const choice of question.choices) length += choice.text.length;
    }
  }
  return length;
}

/**
 * A matching question's pairs from its prompts and choices (stored, or presented with the key):
 * each prompt with its match, then each extra match with an empty prompt. What the editor,
 * an edit and GIFT take.
 */
export function matchingPairsOf(
  prompts: { _id: string; text: string; match?: string | undefined }[],
  choices: MatchingChoice[],
): MatchingPairInput[] {
  const byId = new Map(choices.map((choice) => [choice._id, choice]));
  const matched = new Set(prompts.map((prompt) => prompt.match));
  return [
    ...prompts.map((prompt) => {
      const choice = prompt.match === undefined ? undefined : byId.get(prompt.match);
      return {
        _id: prompt._id,
        prompt: prompt.text,
        match: choice?.text ?? '',
        ...(choice ? { matchId: choice._id } : {}),
      };
    }),
    ...choices
      .filter((choice) => !matched.has(choice._id))
      .map((choice) => ({ prompt: '', match: choice.text, matchId: choice._id })),
  ];
}

type IdSource = { keeps: (optionId: string | undefined) => boolean; nextId: () => string };

/** A matching question's pairs grouped by match text: each group is one choice. */
const choiceGroupsOf = (pairs: MatchingPairInput[]) => {
  const groups = new Map<string, MatchingPairInput[]>();
  for (const pair of pairs) groups.set(pair.match, [...(groups.get(pair.match) ?? []), pair]);
  return groups;
};

/** Ids a matching question needs drawn: its new prompts, and its choices that keep no id. */
const matchingIdsNeeded = (pairs: MatchingPairInput[], keeps: IdSource['keeps']) =>
  pairs.filter((pair) => pair.prompt !== '' && !keeps(pair._id)).length +
  [...choiceGroupsOf(pairs).values()].filter((group) => !group.some((pair) => keeps(pair.matchId))).length;

/** The stored prompts and choices of a matching question: kept ids stay, the others are drawn. */
function storedMatching(pairs: MatchingPairInput[], { keeps, nextId }: IdSource) {
  const taken = new Set<string>();
  const claim = (id: string | undefined) => {
    if (id === undefined || !keeps(id) || taken.has(id)) return undefined;
    taken.add(id);
    return id;
  };
  // Kept ids first, so that no drawn id can take one of them.
  const groups = [...choiceGroupsOf(pairs)].map(([text, group]) => ({
    text,
    kept: group.reduce<string | undefined>((found, pair) => found ?? claim(pair.matchId), undefined),
  }));
  const promptPairs = pairs.filter((pair) => pair.prompt !== '').map((pair) => ({ pair, kept: claim(pair._id) }));
  const fresh = () => {
    let id = nextId();
    while (taken.has(id)) id = nextId();
    taken.add(id);
    return id;
  };
  const choices: MatchingChoice[] = groups.map(({ text, kept }) => ({ _id: kept ?? fresh(), text }));
  const choiceOf = new Map(choices.map((choice) => [choice.text, choice._id]));
  const prompts: MatchingPrompt[] = promptPairs.map(({ pair, kept }) => ({
    _id: kept ?? fresh(),
    text: pair.prompt,
    match: choiceOf.get(pair.match)!,
  }));
  return { prompts, choices };
}

/** The ids inside a question that answers and layouts name: options, or prompts and choices. */
const idsInside = (question: StoredQuestion): string[] =>
  isChoiceQuestion(question)
    ? question.options.map((option) => option._id)
    : question.type === 'matching'
      ? [...question.prompts, ...question.choices].map((item) => item._id)
      : [];

/**
 * The stored form of typed questions. `drawIds(count)` gives `count` fresh opaque ids (the
 * server draws them at random): every new question takes one, and so does every option that
 * does not keep an id its question already has in `current` (the stored quiz on an edit; none
 * on a creation, so an id a body or a file brings is never kept). Option ids are random, not
 * `o1…oN`: they are what a student's page and answers carry, and an order in them would give
 * away the key teachers usually write first (decision 039). An edit keeps the ids of the
 * options it keeps, whatever their new order, so attempts' layouts and answers still point
 * at them.
 */
export function toStoredQuestions(
  input: TypedQuestion[],
  drawIds: (count: number) => string[],
  current: StoredQuestion[] = [],
): StoredQuestion[] {
  const known = new Map(current.map((question) => [question._id, new Set(idsInside(question))]));
  const keeps = (questionId: string | undefined, optionId: string | undefined) =>
    questionId !== undefined && optionId !== undefined && known.get(questionId)?.has(optionId) === true;
  const needed = input.reduce(
    (count, question) =>
      count +
      (question._id === undefined ? 1 : 0) +
      (question.type === 'single' || question.type === 'multiple'
        ? question.options.filter((option) => !keeps(question._id, option._id)).length
        : 0) +
      (question.type === 'matching' ? matchingIdsNeeded(question.pairs, (id) => keeps(question._id, id)) : 0),
    0,
  );
  const fresh = drawIds(needed);
  let drawn = 0;
  const nextId = () => fresh[drawn++] ?? drawIds(1)[0]!;
  return input.map((question) => {
    const _id = question._id ?? nextId();
    const base = { _id, question_text: question.question_text, points: question.points };
    const withImage = question.image ? { ...base, image: question.image } : base;
    if (question.type === 'essay') {
      // An empty guidance is none: nothing to store.
      const { guidance, ...essay } = question;
      return { ...essay, ...withImage, ...(guidance ? { guidance } : {}) };
    }
    if (question.type === 'matching') {
      const ids = { keeps: (id: string | undefined) => keeps(question._id, id), nextId };
      return { ...withImage, type: 'matching', ...storedMatching(question.pairs, ids) };
    }
    if (question.type === 'short-text') {
      // Only a question with wildcards says so: every other one, and every older one, is literal.
      const { wildcards, ...shortText } = question;
      return { ...shortText, ...withImage, ...(wildcards ? { wildcards: true as const } : {}) };
    }
    if (question.type !== 'single' && question.type !== 'multiple') return { ...question, ...withImage };
    const taken = new Set(question.options.flatMap((option) => (keeps(question._id, option._id) ? [option._id!] : [])));
    const newOptionId = () => {
      let id = nextId();
      // Two draws of 48 random bits alike within one question: practically never, but never kept.
      while (taken.has(id)) id = drawIds(1)[0]!;
      taken.add(id);
      return id;
    };
    const options: StoredOption[] = question.options.map((option) => ({
      _id: keeps(question._id, option._id) ? option._id! : newOptionId(),
      text: option.text,
      ...(option.image ? { image: option.image } : {}),
      correct: option.correct,
      ...(option.weight !== undefined ? { weight: option.weight } : {}),
    }));
    return question.type === 'single'
      ? { ...withImage, type: 'single', options }
      : { ...withImage, type: 'multiple', options, scoring: question.scoring };
  });
}
