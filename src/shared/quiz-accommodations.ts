import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { bodyObject } from './fields.ts';

/**
 * Accommodations (decision 036, issue 20 point 3): one student's extra time on a quiz and a
 * later deadline. The server applies them to the student's timer and to when the quiz closes.
 */

export const ACCOMMODATION_LIMITS = { extraMinutesMax: 600, extraPercentMax: 300 } as const;

/**
 * The minutes a student has: the limit × (1 + percent / 100), rounded up to a whole minute, plus
 * the extra minutes. The server's SQL (effectiveMinutesSql) says the same.
 */
export const effectiveMinutes = (
  maxTimeMinutes: number,
  accommodation: { extraMinutes: number | null; extraPercent: number | null } | null | undefined,
) =>
  Math.ceil((maxTimeMinutes * (100 + (accommodation?.extraPercent ?? 0))) / 100) + (accommodation?.extraMinutes ?? 0);

export const accommodationParamsSchema = z.object({
  id: z.uuid(),
  studentId: z.uuid(),
});

const wholeNumber = (max: number) => z._default(z.nullable(z.number().check(z.int(), z.gte(0), z.lte(max))), null);

/** PUT: the student's whole accommodation (what is left out is none). */
export const accommodationInputSchema = bodyObject({
  extraMinutes: wholeNumber(ACCOMMODATION_LIMITS.extraMinutesMax),
  extraPercent: wholeNumber(ACCOMMODATION_LIMITS.extraPercentMax),
  deadline: z._default(z.nullable(z.iso.datetime({ offset: true })), null),
}).check(
  z.superRefine((input, context) => {
    if (!input.extraMinutes && !input.extraPercent && input.deadline === null) {
      context.addIssue({
        code: 'custom',
        path: ['extraMinutes'],
        params: fieldCode('NO_ACCOMMODATION'),
      });
    }
  }),
);
export type AccommodationInput = z.infer<typeof accommodationInputSchema>;
export type AccommodationPayload = z.input<typeof accommodationInputSchema>;

export const accommodationSchema = z.strictObject({
  student: z.strictObject({ _id: z.string(), name: z.string(), rollNumber: z.string() }),
  extraMinutes: z.nullable(z.int()),
  extraPercent: z.nullable(z.int()),
  /** The student's own deadline; null: the quiz's. */
  deadline: z.nullable(z.iso.datetime()),
  /** What the student gets: minutes for the attempt and the deadline to start by. */
  effectiveMaxTime: z.int(),
  effectiveDeadline: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Accommodation = z.infer<typeof accommodationSchema>;
