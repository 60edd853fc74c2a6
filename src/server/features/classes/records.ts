import { and, eq, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { identityKey } from '#shared/identity';
import type { Database } from '../../db/client.ts';
import { classes, classStudents, classTeachers, type ClassRow } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';

/** A database or a transaction: what the helpers below run on. */
type Executor = Pick<Database, 'select' | 'insert'>;

/**
 * The class named `name` (compared by its key, decision 024), made if the school has none yet.
 * One statement per step and ON CONFLICT: two requests naming a new class at once make one.
 */
export async function classIdNamed(tx: Executor, name: string): Promise<{ id: string; isNew: boolean }> {
  const nameKey = identityKey(name);
  const [created] = await tx
    .insert(classes)
    .values({ name: name.normalize('NFC').trim(), nameKey })
    .onConflictDoNothing({ target: classes.nameKey })
    .returning({ id: classes.id });
  if (created) return { id: created.id, isNew: true };
  const [existing] = await tx.select({ id: classes.id }).from(classes).where(eq(classes.nameKey, nameKey)).limit(1);
  return { id: existing!.id, isNew: false };
}

/**
 * Bridge while quizzes and resources still name their class by text (decision 031, step 1): the
 * class of that name, made if the school has none. The teacher joins it only as its owner, when
 * it is new or nobody teaches it (a class only students named): naming a colleague's class
 * publishes into it, as before classes were records, but gives no say over it or its roster.
 */
export async function classIdForTeacher(tx: Executor, name: string, teacherId: string): Promise<string> {
  const target = await classIdNamed(tx, name);
  await tx
    .insert(classTeachers)
    .select(
      sql`select ${target.id}::uuid, ${teacherId}::uuid, true
          where not exists (select 1 from ${classTeachers} where ${classTeachers.classId} = ${target.id})`,
    )
    .onConflictDoNothing();
  return target.id;
}

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
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(classStudents)
    .where(and(eq(classStudents.classId, classId), eq(classStudents.studentId, studentId)))
    .limit(1);
  return row !== undefined;
}

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
