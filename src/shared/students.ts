import { z } from 'zod/mini';
import { studentDetailFields, studentProfileSchema } from './accounts.ts';
import { bodyObject, optionalQueryId, optionalQueryText, pagingFields } from './fields.ts';

/** The teacher's students screen (SPEC §2 /dashboard/teacher/students): list query and presented shapes. */

export const STUDENT_LIST_LIMITS = {
  pageSizeDefault: 25,
  pageSizeMax: 100,
  search: 100,
} as const;

export const studentListQuerySchema = z.object({
  /** One of the caller's classes by its id (decision 031); omitted = all of them. */
  classId: optionalQueryId(),
  /** Case-insensitive substring of the name or the roll number. */
  search: optionalQueryText(STUDENT_LIST_LIMITS.search),
  ...pagingFields(STUDENT_LIST_LIMITS),
});
export type StudentListQuery = z.infer<typeof studentListQuerySchema>;

/**
 * One row of the students screen: contact details for the teachers of the student's classes,
 * never a hash. `class` is the names of the student's classes the caller teaches, joined.
 */
export const studentListEntrySchema = z.extend(
  z.omit(studentProfileSchema, { totalScore: true, mustChangePassword: true, locale: true }),
  {
    quizzesAttempted: z.int(),
    /** ISO date-time of the account's creation. */
    createdAt: z.iso.datetime(),
  },
);
export type StudentListEntry = z.infer<typeof studentListEntrySchema>;

/** The names of the caller's classes, sorted: the filter's choices. */
export const classListSchema = z.array(z.string());
export type ClassList = z.infer<typeof classListSchema>;

/** The student an address names. */
export const studentIdParamsSchema = z.object({ id: z.uuid() });

/**
 * A teacher edits a student's details (decision 033): all five at once, under the
 * registration's rules; the roll number and email stay unique by their keys (decision 024).
 */
export const studentDetailsSchema = bodyObject(studentDetailFields);
export type StudentDetails = z.infer<typeof studentDetailsSchema>;

/** The answer to a password reset: the temporary password, shown once and never stored in clear. */
export const temporaryPasswordSchema = z.strictObject({ temporaryPassword: z.string().check(z.minLength(1)) });
export type TemporaryPassword = z.infer<typeof temporaryPasswordSchema>;
