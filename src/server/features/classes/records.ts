import { and, eq, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { preparedPerDatabase } from '../../db/prepared.ts';
import { classes, classStudents, classTeachers, type ClassRow } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';

/**
 * A student's classes as one text (decision 031, issue 19): their names sorted by key and joined
 * with ", ", "" for a student in none; with `taughtBy`, only the classes that teacher teaches.
 * A correlated subquery of the row's statement (class_students_student_idx), never a query per
 * row. `studentId` is the outer row's id, spelled out: drizzle leaves select fields unqualified.
 */
export const classNamesOf = (studentId: SQL = sql`"students"."id"`, taughtBy?: string) => sql<string>`coalesce((
  select string_agg(c.name, ', ' order by c.name_key)
  from class_students cs
  ${taughtBy === undefined ? sql`` : sql`join class_teachers ct on ct.class_id = cs.class_id and ct.teacher_id = ${taughtBy}`}
  join classes c on c.id = cs.class_id
  where cs.student_id = ${studentId}
), '')`;

/** `column` (a class id) is one of the student's classes: a condition for one statement. */
export const inStudentClasses = (column: SQLWrapper, studentId: string | Placeholder) =>
  sql`${column} in (select ${classStudents.classId} from ${classStudents} where ${classStudents.studentId} = ${studentId})`;

/** `column` (a student id) is a student of the class today: a condition for one statement. */
export const inClassStudents = (column: SQLWrapper, classId: string | Placeholder) =>
  sql`${column} in (select ${classStudents.studentId} from ${classStudents} where ${classStudents.classId} = ${classId})`;

/** True when the student belongs to the class today (decision 031). */
export async function isStudentOfClass(tx: Pick<Database, 'select'>, studentId: string, classId: string) {
  const [row] = await membership(tx).execute({ classId, studentId });
  return row !== undefined;
}

/** Asked by every open, start and submit of a quiz (db/prepared.ts). */
const membership = preparedPerDatabase('classes_membership', (db) =>
  db
    .select({ one: sql<number>`1` })
    .from(classStudents)
    .where(
      and(
        eq(classStudents.classId, sql.placeholder('classId')),
        eq(classStudents.studentId, sql.placeholder('studentId')),
      ),
    )
    .limit(1),
);

/** True when the teacher teaches the class (the one question every class rule asks). */
export async function teachesClass(tx: Pick<Database, 'select'>, teacherId: string, classId: string) {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(classTeachers)
    .where(and(eq(classTeachers.classId, classId), eq(classTeachers.teacherId, teacherId)))
    .limit(1);
  return row !== undefined;
}

/**
 * The class `classId` if `teacherId` teaches it: 404 when there is no such class, 403 when the
 * teacher does not teach it, 409 CLASS_ARCHIVED when `mustBeActive` and it is archived. Every
 * rule about "a teacher's class" asks this (decision 031), so the answer cannot differ by route.
 */
export async function requireTaughtClass(
  tx: Pick<Database, 'select'>,
  teacherId: string,
  classId: string,
  options: { mustBeActive?: boolean; forUpdate?: boolean } = {},
): Promise<ClassRow> {
  const query = tx
    .select({ row: classes, teacherId: classTeachers.teacherId })
    .from(classes)
    .leftJoin(classTeachers, and(eq(classTeachers.classId, classes.id), eq(classTeachers.teacherId, teacherId)))
    .where(eq(classes.id, classId))
    .limit(1);
  const [found] = options.forUpdate ? await query.for('update', { of: classes }) : await query;
  if (!found) throw notFound('This class does not exist');
  if (found.teacherId === null) throw forbidden('You do not teach this class');
  if (options.mustBeActive && found.row.archivedAt !== null)
    throw new AppError('CLASS_ARCHIVED', 'This class is archived: unarchive it first');
  return found.row;
}
