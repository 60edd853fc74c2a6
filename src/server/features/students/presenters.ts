import type { StudentListEntry } from '#shared/students';
import type { StudentRow } from '../../db/schema.ts';

/** The columns the students screen reads: the password hash is never even selected. */
export type StudentListRow = Pick<
  StudentRow,
  | 'id'
  | 'name'
  | 'rollNumber'
  | 'email'
  | 'parentName'
  | 'parentEmail'
  | 'averageScore'
  | 'averageAccuracy'
  | 'quizzesAttempted'
  | 'createdAt'
> & { /** The names of the student's classes the caller teaches, joined (classNamesOf). */ className: string };

/** What a teacher sees of one student on the students screen: an explicit list of fields. */
export function presentStudentListEntry(row: StudentListRow): StudentListEntry {
  return {
    _id: row.id,
    name: row.name,
    rollNumber: row.rollNumber,
    email: row.email,
    class: row.className,
    parentName: row.parentName,
    parentEmail: row.parentEmail,
    averageScore: row.averageScore,
    averageAccuracy: row.averageAccuracy,
    quizzesAttempted: row.quizzesAttempted,
    createdAt: row.createdAt.toISOString(),
  };
}
