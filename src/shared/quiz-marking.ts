import { z } from 'zod/mini';
import { halfPoints, pagingFields, trimmedCleanText } from './fields.ts';
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
  view: z._default(z.enum(MARKING_VIEWS), 'awaiting'),
  ...pagingFields(MARKING_LIMITS),
});

export const essayParamsSchema = z.object({
  id: z.uuid(),
  attemptId: z.uuid(),
  questionId: z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.idMax), z.regex(/^[\w-]+$/)),
});

/**
 * A mark: points from 0 to the question's points in half steps (as questions' points; the
 * server checks the question's own maximum), an optional comment the student sees with the
 * points, and the version of the essay the teacher marked (a stale one is 409 MARK_CHANGED).
 */
export const essayMarkInputSchema = z.strictObject({
  points: halfPoints(0, QUESTION_LIMITS.pointsMax),
  comment: z._default(trimmedCleanText(QUESTION_LIMITS.commentMax), ''),
  version: z.number().check(z.int(), z.gte(0)),
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
