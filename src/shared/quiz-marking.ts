import { z } from 'zod';
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
  view: z.enum(MARKING_VIEWS, { error: 'view must be awaiting or marked' }).default('awaiting'),
  ...pagingFields(MARKING_LIMITS),
});

export const essayParamsSchema = z.object({
  id: z.uuid({ error: 'Quiz id is not valid' }),
  attemptId: z.uuid({ error: 'Attempt id is not valid' }),
  questionId: z
    .string()
    .min(1)
    .max(QUESTION_LIMITS.idMax)
    .regex(/^[\w-]+$/, { error: 'Question id is not valid' }),
});

/**
 * A mark: points from 0 to the question's points in half steps (as questions' points; the
 * server checks the question's own maximum), an optional comment the student sees with the
 * points, and the version of the essay the teacher marked (a stale one is 409 MARK_CHANGED).
 */
export const essayMarkInputSchema = z.strictObject({
  points: z
    .number({ error: 'Points must be a number' })
    .min(0, { error: 'Points cannot be negative' })
    .max(QUESTION_LIMITS.pointsMax, { error: `Points are at most ${QUESTION_LIMITS.pointsMax}` })
    .refine((value) => Number.isInteger(value * 2), {
      error: 'Points go in halves: 1, 1.5, 2…',
      params: fieldCode('POINTS_NOT_HALVES'),
    }),
  comment: z
    .string({ error: 'The comment must be text' })
    .max(QUESTION_LIMITS.commentMax, { error: `A comment must be at most ${QUESTION_LIMITS.commentMax} characters` })
    .refine((value) => !hasForbiddenCharacters(value), {
      error: 'The comment contains characters that are not allowed',
      params: fieldCode('FORBIDDEN_CHARACTERS'),
    })
    .transform((value) => value.trim())
    .default(''),
  version: z.number({ error: 'Send the version of the essay you marked' }).int().min(0),
});
export type EssayMarkInput = z.input<typeof essayMarkInputSchema>;

/** One essay to mark: whose, to which question, what they wrote, and its mark once given. */
export const essayToMarkSchema = z.strictObject({
  attemptId: z.string(),
  question: z.strictObject({
    _id: z.string(),
    /** 1-based, in the quiz's order. */
    number: z.number().int(),
    question_text: z.string(),
    points: z.number(),
    /** The teacher's marking guidance (never sent to students). */
    guidance: z.string().optional(),
  }),
  student: z.strictObject({ _id: z.string(), name: z.string(), rollNumber: z.string() }),
  submittedAt: z.iso.datetime(),
  text: z.string(),
  mark: z
    .strictObject({
      points: z.number(),
      comment: z.string(),
      markedAt: z.iso.datetime(),
      /** The marker's name; null once their account is gone. */
      markedBy: z.string().nullable(),
    })
    .nullable(),
  version: z.number().int(),
});
export type EssayToMark = z.infer<typeof essayToMarkSchema>;
