import { z } from 'zod';
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
export type StudentListEntry = {
  _id: string;
  name: string;
  rollNumber: string;
  email: string;
  class: string;
  parentName: string;
  parentEmail: string;
  averageScore: number;
  averageAccuracy: number;
  quizzesAttempted: number;
  /** ISO date-time of the account's creation. */
  createdAt: string;
};

/** The classes known to the school (of students and of quizzes), sorted: the filter's choices. */
export type ClassList = string[];
