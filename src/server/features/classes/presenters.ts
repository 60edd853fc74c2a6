import {
  formatJoinCode,
  type RosterEntry,
  type StudentClass,
  type TeacherClass,
  type UntaughtClass,
} from '#shared/classes';
import type { ClassRow } from '../../db/schema.ts';

/** A class as its teachers see it: an explicit list of fields; the code as people type it. */
export function presentTeacherClass(
  row: Pick<ClassRow, 'id' | 'name' | 'subject' | 'joinCode' | 'archivedAt' | 'createdAt'>,
  teachers: { id: string; name: string; isOwner: boolean }[],
  studentCount: number,
): TeacherClass {
  return {
    _id: row.id,
    name: row.name,
    subject: row.subject,
    joinCode: row.joinCode === null ? null : formatJoinCode(row.joinCode),
    isArchived: row.archivedAt !== null,
    studentCount,
    teachers: teachers.map((teacher) => ({ _id: teacher.id, name: teacher.name, isOwner: teacher.isOwner })),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A class as its students see it: never its code, its teachers' details or its roster. */
export const presentStudentClass = (row: Pick<ClassRow, 'id' | 'name' | 'subject'>): StudentClass => ({
  _id: row.id,
  name: row.name,
  subject: row.subject,
});

export type RosterRow = {
  id: string;
  name: string;
  rollNumber: string;
  email: string;
  parentName: string;
  parentEmail: string;
  joinedAt: Date;
};

/** One student of a roster: the contact details a teacher of the class needs, never a hash. */
export const presentRosterEntry = (row: RosterRow): RosterEntry => ({
  _id: row.id,
  name: row.name,
  rollNumber: row.rollNumber,
  email: row.email,
  parentName: row.parentName,
  parentEmail: row.parentEmail,
  joinedAt: row.joinedAt.toISOString(),
});

/** A class no teacher teaches, as the administrator sees it: never its code or its roster. */
export const presentUntaughtClass = (
  row: Pick<ClassRow, 'id' | 'name' | 'subject' | 'archivedAt'> & { studentCount: number },
): UntaughtClass => ({
  _id: row.id,
  name: row.name,
  subject: row.subject,
  isArchived: row.archivedAt !== null,
  studentCount: row.studentCount,
});
