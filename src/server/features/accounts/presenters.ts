import type { StudentProfile, TeacherProfile } from '#shared/accounts';
import { isLocale, type Locale } from '#shared/locales';
import type { StudentRow, TeacherRow } from '../../db/schema.ts';

/** A kept choice of a language no longer shipped reads as no choice. */
export const knownLocale = (value: string | null): Locale | null => (isLocale(value) ? value : null);

/**
 * Presenters decide what of an account leaves the server: an explicit list of
 * fields, so a new column (a hash, a token version) never leaks by default.
 */
export function presentTeacher(teacher: TeacherRow): TeacherProfile {
  return {
    _id: teacher.id,
    name: teacher.name,
    email: teacher.email,
    subject: teacher.subject,
    isAdministrator: teacher.isAdministrator,
    locale: knownLocale(teacher.locale),
  };
}

/** `classNames`: the names of the student's classes, sorted and joined (classNamesOf). */
export function presentStudent(student: StudentRow, classNames: string): StudentProfile {
  return {
    _id: student.id,
    name: student.name,
    rollNumber: student.rollNumber,
    email: student.email,
    class: classNames,
    parentName: student.parentName,
    parentEmail: student.parentEmail,
    averageScore: student.averageScore,
    averageAccuracy: student.averageAccuracy,
    totalScore: student.totalScore,
    mustChangePassword: student.mustChangePassword,
    locale: knownLocale(student.locale),
  };
}
