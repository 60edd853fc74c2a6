import { z } from 'zod';
import { studentProfileSchema } from './accounts.ts';
import { optionalQueryText, pagingFields } from './fields.ts';
import { FIELD_LIMITS } from './limits.ts';

/** The teacher's students screen (SPEC §2 /dashboard/teacher/students): list query and presented shapes. */

export const STUDENT_LIST_LIMITS = {
  pageSizeDefault: 25,
  pageSizeMax: 100,
  search: 100,
} as const;

export const studentListQuerySchema = z.object({
  /** Exactly one class (as listed by /api/teacher/classes); omitted = every class. */
  class: optionalQueryText('Class', FIELD_LIMITS.className),
  /** Case-insensitive substring of the name or the roll number. */
  search: optionalQueryText('Search', STUDENT_LIST_LIMITS.search),
  ...pagingFields(STUDENT_LIST_LIMITS),
});
export type StudentListQuery = z.infer<typeof studentListQuerySchema>;

/** One row of the students screen: contact details for the school's teachers, never a hash. */
export const studentListEntrySchema = studentProfileSchema.omit({ totalScore: true }).extend({
  quizzesAttempted: z.number().int(),
  /** ISO date-time of the account's creation. */
  createdAt: z.iso.datetime(),
});
export type StudentListEntry = z.infer<typeof studentListEntrySchema>;

/** The classes known to the school (of students and of quizzes), sorted: the filter's choices. */
export const classListSchema = z.array(z.string());
export type ClassList = z.infer<typeof classListSchema>;
