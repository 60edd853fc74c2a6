import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { hasForbiddenCharacters, pagingFields } from './fields.ts';
import { QUESTION_LIMITS } from './question-types.ts';

/**
 * Marking essays by hand (decision 046): the list of a quiz's essays a teacher of its class
 * marks, and a mark. Apart from the quiz contract so only the marking screen loads it.
 */

export const MARKING_LIMITS = { pageSizeDefault: 20, pageSizeMax: 50 } as const;

/** awaiting: not marked yet (the work to do); marked: marked already, to read or change. */
export const MARKING_VIEWS = ['awaiting', 'marked'] as const;
export type MarkingView = (typeof MARKING_VIEWS)[number];

export const markingListQuerySchema = z.object({
  view: z._default(z.enum(MARKING_VIEWS, { error: 'view must be awaiting or marked' }), 'awaiting'),
  ...pagingFields(MARKING_LIMITS),
});

export const essayParamsSchema = z.object({
  id: z.uuid({ error: 'Quiz id is not valid' }),
  attemptId: z.uuid({ error: 'Attempt id is not valid' }),
  questionId: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(QUESTION_LIMITS.idMax),
      z.regex(/^[\w-]+$/, { error: 'Question id is not valid' }),
    ),
});

/**
 * A mark: points from 0 to the question's points in half steps (as questions' points; the
 * server checks the question's own maximum), an optional comment the student sees with the
 * points, and the version of the essay the teacher marked (a stale one is 409 MARK_CHANGED).
 */
export const essayMarkInputSchema = z.strictObject({
  points: z.number({ error: 'Points must be a number' }).check(
    z.gte(0, { error: 'Points cannot be negative' }),
    z.lte(QUESTION_LIMITS.pointsMax, { error: `Points are at most ${QUESTION_LIMITS.pointsMax}` }),
    z.refine((value) => Number.isInteger(value * 2), {
      error: 'Points go in halves: 1, 1.5, 2…',
      params: fieldCode('POINTS_NOT_HALVES'),
    }),
  ),
  comment: z._default(
    z.pipe(
      z.string({ error: 'The comment must be text' }).check(
        z.maxLength(QUESTION_LIMITS.commentMax, {
          error: `A comment must be at most ${QUESTION_LIMITS.commentMax} characters`,
        }),
        z.refine((value) => !hasForbiddenCharacters(value), {
          error: 'The comment contains characters that are not allowed',
          params: fieldCode('FORBIDDEN_CHARACTERS'),
        }),
      ),
      z.transform((value) => value.trim()),
    ),
    '',
  ),
  version: z.number({ error: 'Send the version of the essay you marked' }).check(z.int(), z.gte(0)),
});
export type EssayMarkInput = z.input<typeof essayMarkInputSchema>;

/** One essay to mark: whose, to which question, what they wrote, and its mark once given. */
export const essayToMarkSchema = z.strictObject({
  attemptId: z.string(),
  question: z.strictObject({
    _id: z.string(),
    /** 1-based, in the quiz's order. */
    number: z.int(),
    question_text: z.string(),
    points: z.number(),
    /** The teacher's marking guidance (never sent to students). */
    guidance: z.optional(z.string()),
  }),
  student: z.strictObject({ _id: z.string(), name: z.string(), rollNumber: z.string() }),
  submittedAt: z.iso.datetime(),
  text: z.string(),
  mark: z.nullable(
    z.strictObject({
      points: z.number(),
      comment: z.string(),
      markedAt: z.iso.datetime(),
      /** The marker's name; null once their account is gone. */
      markedBy: z.nullable(z.string()),
    }),
  ),
  version: z.int(),
});
export type EssayToMark = z.infer<typeof essayToMarkSchema>;
