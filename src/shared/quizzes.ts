import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import {
  bodyObject,
  classIdField,
  hasForbiddenCharacters,
  IGNORED_FIELD_MAX_BYTES,
  pagingFields,
  requiredText,
} from './fields.ts';
import { JSON_BYTES_PER_CHARACTER } from './limits.ts';
import {
  answerValueSchema,
  MULTIPLE_SCORING,
  optionTextField,
  QUESTION_LIMITS,
  QUESTION_TYPES,
  questionCountOf,
  questionTextLength,
  typedQuestionInputSchema,
  type StoredQuestion,
  type TypedQuestion,
  type TypedQuestionInput,
} from './question-types.ts';

/**
 * The quiz contract (SPEC §3 Quiz, Question, attempt record; §5 quiz editor;
 * §7 add-quiz, get-all-quiz, quiz/{id}, update-student) and the attempt calls
 * we add so the server owns the timer and the answers.
 */

export const QUIZ_LIMITS = {
  title: 200,
  questionsMax: 200,
  optionsMin: 2,
  optionsMax: 10,
  /** A question's text or an option's: the typed questions' bound (optionTextField checks it for both). */
  text: QUESTION_LIMITS.text,
  /** All question texts and options of one quiz together, in characters: bounds storage and requests. */
  totalTextMax: 300_000,
  maxTimeMin: 1,
  maxTimeMax: 600,
  /** A submission this late after the timer still counts its own answers (network, a slow tab). */
  graceSeconds: 30,
  /** get-all-quiz pages. */
  pageSizeDefault: 50,
  pageSizeMax: 100,
} as const;

/** The whole text budget twice (the texts, and a copy of an option per question), at 3 bytes a character. */
const TWICE_THE_TEXT_BYTES = 2 * QUIZ_LIMITS.totalTextMax * JSON_BYTES_PER_CHARACTER;

/**
 * JSON around one typed question at its largest, its texts aside (issue 20): keys, a 40-character
 * id, type, points, scoring or value and tolerance, the quotes and commas of 20 accepted
 * answers (about 300 bytes together), an image's 64-character file key, and 20 partial answers
 * with their weights (decision 043, 64 bytes each, texts aside).
 */
const QUESTION_JSON_BYTES = 512 + 20 * 64;
/**
 * JSON around one option at its largest, its text aside: keys, a 40-character id, correct, an
 * image's 64-character key, a weight.
 */
const OPTION_JSON_BYTES = 224;

/** The largest typed quiz: every text at 3 bytes a character, the JSON around every question and option at its largest. */
const TYPED_QUIZ_BYTES =
  QUIZ_LIMITS.totalTextMax * JSON_BYTES_PER_CHARACTER +
  QUIZ_LIMITS.questionsMax * (QUESTION_JSON_BYTES + QUIZ_LIMITS.optionsMax * OPTION_JSON_BYTES);
/** The largest quiz in SPEC §3's shape: its answer repeats an option (the text budget twice), 256 bytes of JSON a question. */
const SPEC_QUIZ_BYTES = TWICE_THE_TEXT_BYTES + QUIZ_LIMITS.questionsMax * 256;

/**
 * Body limit of add-quiz (decision 023), from the largest valid quiz of either shape (SPEC §3's,
 * the heavier, about 1.8 MB; typed, about 1.4 MB), the ignored createdBy, subject and date at
 * their most, and 4 kB for the rest (title, class, deadline, background). About 1.8 MB.
 */
export const ADD_QUIZ_BODY_LIMIT_BYTES =
  Math.max(TYPED_QUIZ_BYTES, SPEC_QUIZ_BYTES) + 3 * IGNORED_FIELD_MAX_BYTES + 4 * 1024;

/** The essays of a quiz at their longest, at 3 bytes a character (decision 046): about 300 kB. */
const ESSAY_ANSWER_BYTES = QUESTION_LIMITS.essaysMax * QUESTION_LIMITS.essayMax * JSON_BYTES_PER_CHARACTER;

/**
 * Body limit of update-student (decision 023). SPEC §7 clients may send each question back
 * with its text and options beside the choice (decision 025 accepts and ignores them, within
 * the quiz's own text limits), so the largest valid submission carries a quiz's whole text and
 * every `selectedOption` as an option's text (at most the text budget again); 256 bytes of JSON
 * a question (its id, keys, and a `response` beside the selected option: option ids); the
 * five ignored fields at their most and 4 kB for the rest. About 1.8 MB. Essays (decision 046)
 * are not added: our client saves them as they are written and a typed submission of 20 full
 * essays is about 0.4 MB; only a SPEC §3 client echoing a quiz of the whole text budget with
 * 20 full essays would exceed it (decision 046 says so). A typed answer of 200
 * characters belongs to a question without options, whose text then goes back only once.
 */
export const SUBMIT_ATTEMPT_BODY_LIMIT_BYTES =
  TWICE_THE_TEXT_BYTES + QUIZ_LIMITS.questionsMax * 256 + 5 * IGNORED_FIELD_MAX_BYTES + 4 * 1024;

/**
 * Body limit of PUT answers (decision 023): every question's answer at once, each at its
 * largest with its 8-character question id: a short answer of 200 characters at 3 bytes
 * (about 615 bytes; choices are option ids now, ten of them well under that), and the quiz's
 * essays at their longest on top (decision 046); 1 kB for the rest. About 426 kB (419 KiB).
 */
export const SAVE_ANSWERS_BODY_LIMIT_BYTES = QUIZ_LIMITS.questionsMax * 640 + ESSAY_ANSWER_BYTES + 1024;

/**
 * When a student who has submitted sees the correct answers, and their score (decision 032).
 * "after-deadline" is the quiz's close: its deadline plus its time limit and grace, when no
 * attempt started before the deadline can still be answering.
 */
export const REVIEW_ANSWERS = ['after-deadline', 'after-submit', 'never'] as const;
export const REVIEW_SCORE = ['after-submit', 'after-deadline'] as const;
export type ReviewAnswers = (typeof REVIEW_ANSWERS)[number];
export type ReviewScore = (typeof REVIEW_SCORE)[number];
export const DEFAULT_REVIEW_ANSWERS: ReviewAnswers = 'after-deadline';
export const DEFAULT_REVIEW_SCORE: ReviewScore = 'after-submit';

/** The six background templates (SPEC §9), served by the client. */
export const QUIZ_BACKGROUNDS = [1, 2, 3, 4, 5, 6].map(
  (number) => `/images/quiz-templates/quiz${number}-template.png`,
) as [string, ...string[]];
export const DEFAULT_QUIZ_BACKGROUND = QUIZ_BACKGROUNDS[0];

/** Confetti pieces on the result screen (SPEC §9). */
export const CONFETTI_PIECES = 100;
/** Confetti only for a result worth celebrating: at least this accuracy, in percent (decision 027). */
export const CONFETTI_MIN_ACCURACY = 60;

/** Whether a just-submitted result earns confetti (decision 027): a pass, not a 0 %. */
export const isWorthCelebrating = (accuracy: number | string) => Number(accuracy) >= CONFETTI_MIN_ACCURACY;

/**
 * A question as SPEC §3 writes it: text, options as strings, the correct option's text. Empty
 * options are dropped (SPEC §3); the answer must be one of what remains. Read as a single
 * choice question of 1 point (issue 20 keeps SPEC §7 clients working).
 */
export const specQuestionInputSchema = z.pipe(
  bodyObject({
    question_text: requiredText(QUIZ_LIMITS.text),
    options: z
      .pipe(
        z.array(optionTextField).check(
          // Room for empty rows the editor drops; the real bound is checked after dropping.
          z.maxLength(QUIZ_LIMITS.optionsMax * 5),
        ),
        z.transform((options) => options.filter((option) => option !== '')),
      )
      .check(
        z.refine((options) => options.length >= QUIZ_LIMITS.optionsMin, {
          params: fieldCode('TOO_FEW', { minimum: QUIZ_LIMITS.optionsMin }),
        }),
        z.refine((options) => options.length <= QUIZ_LIMITS.optionsMax, {
          params: fieldCode('TOO_MANY', { maximum: QUIZ_LIMITS.optionsMax }),
        }),
        z.refine((options) => new Set(options).size === options.length, { params: fieldCode('NOT_UNIQUE') }),
      ),
    answer: z.pipe(
      z.string().check(z.maxLength(QUIZ_LIMITS.text)),
      z.transform((value) => value.trim()),
    ),
  }).check(
    z.refine((question) => question.answer !== '', { path: ['answer'], params: fieldCode('CORRECT_ANSWER_MISSING') }),
    z.refine((question) => question.answer === '' || question.options.includes(question.answer), {
      path: ['answer'],
      params: fieldCode('ANSWER_NOT_AN_OPTION'),
    }),
  ),
  z.transform((question): TypedQuestion => ({
    type: 'single',
    question_text: question.question_text,
    points: QUESTION_LIMITS.pointsDefault,
    options: question.options.map((text) => ({ text, correct: text === question.answer })),
  })),
);

/**
 * A question of add-quiz or an edit: typed (issue 20, with `type`) or SPEC §3's shape (without).
 * Dispatched on the key so each shape reports its own messages, not a union's.
 */
export const questionInputSchema = z.pipe(
  z.unknown(),
  z.pipe(
    z.custom<unknown>(),
    z.transform((value, context) => {
      const schema =
        typeof value === 'object' && value !== null && 'type' in value
          ? typedQuestionInputSchema
          : specQuestionInputSchema;
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      // Each issue as it is, with its kind, bounds and params: the field error keeps its code.
      context.issues.push(...(parsed.error.issues as z.core.$ZodRawIssue[]));
      return z.NEVER;
    }),
  ),
);
export type QuestionInput = TypedQuestionInput | z.input<typeof specQuestionInputSchema>;

/** Characters of all question texts, options, accepted answers and alt texts of a quiz. */
export const totalTextOf = (questions: (TypedQuestion | StoredQuestion)[]): number =>
  questions.reduce((total, question) => total + questionTextLength(question), 0);

/**
 * add-quiz body. The client also sends createdBy, subject and date (SPEC §7):
 * they are ignored, because the token says who creates the quiz and the server
 * knows the teacher's subject and the time.
 */
export const deadlineField = z.pipe(z.string().check(z.minLength(1)), z.iso.datetime({ offset: true }));
export const futureDeadlineField = deadlineField.check(
  z.refine((value) => Date.parse(value) > Date.now(), { params: fieldCode('DEADLINE_PAST') }),
);

/** add-quiz's body, and an edit's: its deadline must be in the future only if it changes (the server checks). */
export const quizBodySchema = <Extra extends z.core.$ZodShape = Record<never, never>>(
  deadline: typeof deadlineField,
  extra?: Extra,
) =>
  bodyObject(
    {
      ...(extra as Extra),
      title: requiredText(QUIZ_LIMITS.title),
      classId: classIdField(),
      deadline,
      maxTime: z.number().check(z.int(), z.gte(QUIZ_LIMITS.maxTimeMin), z.lte(QUIZ_LIMITS.maxTimeMax)),
      // Optional so SPEC §7 clients, which know nothing of them, get the defaults.
      reviewAnswers: z._default(z.enum(REVIEW_ANSWERS), DEFAULT_REVIEW_ANSWERS),
      reviewScore: z._default(z.enum(REVIEW_SCORE), DEFAULT_REVIEW_SCORE),
      quiz: z.strictObject({
        background: z.enum(QUIZ_BACKGROUNDS),
        questions: z.array(questionInputSchema).check(
          z.minLength(1),
          z.maxLength(QUIZ_LIMITS.questionsMax),
          z.refine((questions) => totalTextOf(questions) <= QUIZ_LIMITS.totalTextMax, {
            params: fieldCode('QUIZ_TOO_LONG', { maximum: QUIZ_LIMITS.totalTextMax }),
          }),
          z.refine((questions) => questions.length === 0 || questionCountOf(questions) > 0, {
            params: fieldCode('NO_QUESTIONS'),
          }),
          z.refine(
            (questions) =>
              questions.filter((question) => question.type === 'essay').length <= QUESTION_LIMITS.essaysMax,
            { params: fieldCode('TOO_MANY_ESSAYS', { maximum: QUESTION_LIMITS.essaysMax }) },
          ),
        ),
      }),
    },
    ['createdBy', 'subject', 'date'],
  ).check(
    z.superRefine((quiz, context) => {
      // The marked key gives the score away: it cannot be shown before the score is (decision 032).
      const { reviewAnswers, reviewScore } = quiz as { reviewAnswers: ReviewAnswers; reviewScore: ReviewScore };
      if (reviewAnswers === 'after-submit' && reviewScore === 'after-deadline') {
        context.addIssue({
          code: 'custom',
          path: ['reviewScore'],
          params: fieldCode('REVIEW_REVEALS_SCORE'),
        });
      }
    }),
  );

export const newQuizSchema = quizBodySchema(futureDeadlineField);
export type NewQuiz = z.infer<typeof newQuizSchema>;

/** What the editor sends: the raw form (createdBy, subject, date are ignored by the server). */
export type NewQuizPayload = z.input<typeof newQuizSchema> & Record<string, unknown>;

export const quizIdParamsSchema = z.object({ id: z.uuid() });

export const quizListQuerySchema = z.object({
  /** Students only: online (can be taken now) or attempted; omitted = every quiz of the class. */
  view: z.optional(z.enum(['online', 'attempted'])),
  ...pagingFields(QUIZ_LIMITS),
});

const questionId = z.string().check(z.minLength(1), z.maxLength(40));
/** SPEC §7's selectedOption: an option's id, or (as SPEC §3 clients send it) its text. */
const selectedOption = z.string().check(
  z.maxLength(QUIZ_LIMITS.text),
  z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
);

/** Answers saved while the student works: question id -> the type's answer (null clears it). */
export const saveAnswersSchema = z.strictObject({
  answers: z.record(questionId, z.nullable(answerValueSchema)).check(
    z.refine((answers) => Object.keys(answers).length <= QUIZ_LIMITS.questionsMax, {
      params: fieldCode('TOO_MANY', { maximum: QUIZ_LIMITS.questionsMax }),
    }),
  ),
});
export type SaveAnswers = z.infer<typeof saveAnswersSchema>;

/** A question's text or option sent back with a submission: a quiz's text, within its limits. */
const echoedText = z.string().check(z.maxLength(QUIZ_LIMITS.text));

/** Characters of the question texts and options a submission sends back (whatever their shape: checked before the schema). */
function echoedTextOf(questions: unknown[]): number {
  const lengthOf = (value: unknown) => (typeof value === 'string' ? value.length : 0);
  return questions.reduce<number>((total, question) => {
    const { question_text: text, options } = (question ?? {}) as { question_text?: unknown; options?: unknown };
    return (
      total +
      lengthOf(text) +
      (Array.isArray(options) ? options.reduce<number>((sum, option) => sum + lengthOf(option), 0) : 0)
    );
  }, 0);
}

/**
 * update-student body (SPEC §7): the quiz with the selected options. score,
 * accuracy, attemptedAt, user and timeTaken may be sent and are ignored: the
 * server scores and times the attempt itself. Each question may come back with
 * its text and options (ignored), together no more text than a quiz may hold.
 */
export const submitAttemptSchema = bodyObject(
  {
    quiz: z.strictObject({
      _id: z.uuid(),
      // Required (an empty list is fine): a submission whose choices sit under another key
      // must be refused, not scored as if nothing had been chosen.
      questions: z.pipe(
        z.array(z.unknown()).check(
          z.maxLength(QUIZ_LIMITS.questionsMax),
          z.refine((questions) => echoedTextOf(questions) <= QUIZ_LIMITS.totalTextMax, {
            params: fieldCode('QUIZ_TOO_LONG', { maximum: QUIZ_LIMITS.totalTextMax }),
          }),
        ),
        z.array(
          bodyObject(
            {
              _id: questionId,
              /** The type's answer (issue 20); wins over selectedOption when both are sent. */
              response: z.nullish(answerValueSchema),
              selectedOption: z.nullish(selectedOption),
              question_text: z.optional(echoedText),
              options: z.optional(z.array(echoedText).check(z.maxLength(QUIZ_LIMITS.optionsMax))),
            },
            ['question_text', 'options'],
          ),
        ),
      ),
    }),
  },
  ['score', 'accuracy', 'attemptedAt', 'user', 'timeTaken'],
);
export type SubmitAttempt = z.infer<typeof submitAttemptSchema>;

// ---- What the server presents ----------------------------------------------------------

/** An image as it leaves the server: an address signed for the caller (decision 009), and its alt text. */
export const presentedImageSchema = z.strictObject({ url: z.string(), alt: z.string() });

/**
 * A question as it leaves the server (issue 20). The key (`correct` of options and of
 * true-false, `accepted`, `value`, `tolerance`) is present for the quiz's teachers, and for a
 * student only when their quiz's review options let it out (decision 032); `response` and
 * `earnedPoints` are the student's own answer and what it earned (attempt, review).
 */
export const quizQuestionSchema = z.strictObject({
  _id: z.string(),
  type: z.enum(QUESTION_TYPES),
  question_text: z.string(),
  points: z.number(),
  image: z.optional(presentedImageSchema),
  /** single and multiple: the options, in the attempt's shuffled order for a student. */
  options: z.optional(
    z.array(
      z.strictObject({
        _id: z.string(),
        text: z.string(),
        image: z.optional(presentedImageSchema),
        correct: z.optional(z.boolean()),
        /** A weighted option's percent of the points (decision 043), with the key. */
        weight: z.optional(z.number()),
      }),
    ),
  ),
  /** multiple: how it is scored (a student may know partial credit exists). */
  scoring: z.optional(z.enum(MULTIPLE_SCORING)),
  /** true-false: the right answer. */
  correct: z.optional(z.boolean()),
  /** short-text: the accepted answers. */
  accepted: z.optional(z.array(z.string())),
  /** short-text: `*` in its answers is any text (decision 049), with the key. */
  wildcards: z.optional(z.literal(true)),
  /** numeric: the value and its tolerance. */
  value: z.optional(z.number()),
  tolerance: z.optional(z.number()),
  /**
   * short-text and numeric: answers that earn part of the points (decision 043), and a number's
   * further answers worth all of them (weight 100, decision 043's addendum), with the key.
   */
  partial: z.optional(
    z.array(
      z.union([
        z.strictObject({ text: z.string(), weight: z.number() }),
        z.strictObject({ value: z.number(), tolerance: z.number(), weight: z.number() }),
      ]),
    ),
  ),
  /** matching: the prompts in the teacher's order; `match` (the choice's id) with the key. */
  prompts: z.optional(z.array(z.strictObject({ _id: z.string(), text: z.string(), match: z.optional(z.string()) }))),
  /** matching: what a prompt may be matched to, in the attempt's shuffled order for a student. */
  choices: z.optional(z.array(z.strictObject({ _id: z.string(), text: z.string() }))),
  /** essay: the marking guidance (decision 046), to the quiz's teachers only, never to a student. */
  guidance: z.optional(z.string()),
  /** The student's answer (attempt, review); null when unanswered. */
  response: z.optional(z.nullable(answerValueSchema)),
  /** Points the answer earned: in a review that shows the score, and to teachers. */
  earnedPoints: z.optional(z.number()),
  /** essay: submitted and not marked yet (decision 046); absent once marked or when not answered. */
  awaitingMarking: z.optional(z.literal(true)),
  /** essay: the marker's comment, with earnedPoints (decision 046). */
  comment: z.optional(z.string()),
});
export type QuizQuestion = z.infer<typeof quizQuestionSchema>;

const quizBaseFields = {
  _id: z.string(),
  title: z.string(),
  subject: z.string(),
  /** The class's name (SPEC §3 shows it), and its id (decision 031). */
  class: z.string(),
  classId: z.string(),
  /** Creation time, ISO. */
  date: z.iso.datetime(),
  deadline: z.iso.datetime(),
  /** Minutes. */
  maxTime: z.int(),
  createdBy: z.strictObject({ _id: z.string(), name: z.string() }),
  questionCount: z.int(),
  /** The points of all questions (issue 20): what a score is out of. */
  totalPoints: z.number(),
  reviewAnswers: z.enum(REVIEW_ANSWERS),
  reviewScore: z.enum(REVIEW_SCORE),
  /** When its teacher archived it (deleted it with attempts, decision 036); null while it is live. */
  archivedAt: z.nullable(z.iso.datetime()),
};

/** How an attempt ended: submitted by the student or closed by the server when time ran out. */
export const attemptEndingSchema = z.enum(['submitted', 'time-up']);
export type AttemptEnding = z.infer<typeof attemptEndingSchema>;

const attemptResultFields = {
  /** Points earned (hundredths). */
  score: z.number(),
  /** 100 × points earned / total points, a numeric string with at most 2 decimals. */
  accuracy: z.string(),
  attemptedAt: z.iso.datetime(),
  /** Seconds. */
  timeTaken: z.int(),
  endedBy: attemptEndingSchema,
};
export type AttemptResult = z.infer<z.ZodMiniObject<typeof attemptResultFields>>;

/** A student's own attempt, as their list and quiz screens see it. */
export const attemptStateSchema = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('in-progress'),
    startedAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    remainingSeconds: z.int(),
  }),
  z.strictObject({
    status: z.literal('submitted'),
    ...attemptResultFields,
    // Absent until the quiz's review options show the score (decision 032), and while essays
    // await marking (decision 046): the score is not final until they are marked.
    score: z.optional(attemptResultFields.score),
    accuracy: z.optional(attemptResultFields.accuracy),
    /** Essays still to be marked by a teacher (decision 046): the score waits for them. Absent: none. */
    awaitingMarking: z.optional(z.literal(true)),
    /** While awaiting marking: the points of what is scored so far, when the review options show the score. */
    scoreSoFar: z.optional(z.number()),
    /** When the questions' answer keys become visible (past once they are); null: never. */
    answersVisibleAt: z.nullable(z.iso.datetime()),
    /** When the score and accuracy become visible (past once they are). */
    scoreVisibleAt: z.iso.datetime(),
  }),
]);
export type AttemptState = z.infer<typeof attemptStateSchema>;

export const teacherQuizSummarySchema = z.strictObject({
  ...quizBaseFields,
  quiz: z.strictObject({ background: z.string() }),
  attemptCount: z.int(),
});
export type TeacherQuizSummary = z.infer<typeof teacherQuizSummarySchema>;

export const studentQuizSummarySchema = z.strictObject({
  ...quizBaseFields,
  quiz: z.strictObject({ background: z.string() }),
  attempt: z.nullable(attemptStateSchema),
});
export type StudentQuizSummary = z.infer<typeof studentQuizSummarySchema>;

/** One row of the analytics table (SPEC §3 quiz.attempts). */
export const attemptRecordSchema = z.strictObject({
  ...attemptResultFields,
  /** Essays still to mark (decision 046): its score is the points so far, counted in no average yet. Absent: none. */
  awaitingMarking: z.optional(z.literal(true)),
  _id: z.string(),
  user: z.strictObject({ _id: z.string(), name: z.string(), rollNumber: z.string() }),
  quiz: z.strictObject({
    questions: z.array(
      z.strictObject({
        _id: z.string(),
        response: z.nullable(answerValueSchema),
        earnedPoints: z.number(),
        /** essay: not marked yet (decision 046). */
        awaitingMarking: z.optional(z.literal(true)),
        /** Seconds the student spent on the question before first answering it; absent where unknown. */
        seconds: z.optional(z.number()),
      }),
    ),
  }),
});
export type AttemptRecord = z.infer<typeof attemptRecordSchema>;

export const teacherQuizDetailSchema = z.strictObject({
  ...quizBaseFields,
  quiz: z.strictObject({
    background: z.string(),
    questions: z.array(quizQuestionSchema),
  }),
  attempts: z.array(attemptRecordSchema),
  /** Attempts started, open ones included: with any, the structure is frozen (decision 036). */
  attemptsStarted: z.int(),
  /** Counts the quiz's edits: an edit sends back the one it was made on, and a stale one is refused. */
  version: z.int(),
  /** Each regrade of the key, oldest first: when, by whom (null: account gone), how many attempts changed. */
  regrades: z.array(z.strictObject({ at: z.iso.datetime(), attemptsChanged: z.int(), by: z.nullable(z.string()) })),
});
export type TeacherQuizDetail = z.infer<typeof teacherQuizDetailSchema>;

/**
 * A student's view of one quiz: no questions before starting; the attempt's
 * shuffled questions without answers while in progress; the review after.
 */
export const studentQuizDetailSchema = z.strictObject({
  ...quizBaseFields,
  quiz: z.strictObject({ background: z.string(), questions: z.array(quizQuestionSchema) }),
  attempt: z.nullable(attemptStateSchema),
});
export type StudentQuizDetail = z.infer<typeof studentQuizDetailSchema>;

/** get-all-quiz and quiz/{id} answer each role with its own view (the token's role): which one this is. */
export const isTeacherQuizSummary = (quiz: TeacherQuizSummary | StudentQuizSummary): quiz is TeacherQuizSummary =>
  'attemptCount' in quiz;
export const isTeacherQuizDetail = (quiz: TeacherQuizDetail | StudentQuizDetail): quiz is TeacherQuizDetail =>
  'attempts' in quiz;

/** PUT /api/quiz/{id}/answers: when the server stored the choices. */
export const savedAnswersSchema = z.strictObject({ savedAt: z.iso.datetime() });

export { formatAccuracy } from './accuracy.ts';
