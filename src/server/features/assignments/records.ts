import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { AssignmentAttachment, TeacherAssignment } from '#shared/assignments';
import type { Database } from '../../db/client.ts';
import {
  assignmentAttachments,
  assignmentClasses,
  assignments,
  classes,
  classStudents,
  classTeachers,
  handIns,
  resources,
  students,
  teachers,
  type AssignmentRow,
  type HandInRow,
} from '../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { presentTeacherAssignment } from './presenters.ts';

/**
 * The look-ups every assignment module shares (decision 058): who may see an assignment, its
 * classes and attachments, a student's hand-in. Batched by ids, so a page is a few statements.
 */

/** Anything that can run queries: the database or an open transaction. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

// Paging as the quizzes' lists page (one row more than asked says whether more follow).
export { toPage, type ListedPage, type Page } from '../quizzes/quiz-records.ts';

/** The assignment's row, optionally locked (`update` for its editors, `share` for hand-ins and grades); 404 without it. */
export async function findAssignment(tx: Queryable, id: string, lock?: 'update' | 'share'): Promise<AssignmentRow> {
  const query = tx.select().from(assignments).where(eq(assignments.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) throw notFound('This assignment does not exist');
  return row;
}

/** The row locked for update, if the caller created it (as quizzes: only its creator changes it). */
export async function lockOwnAssignment(tx: Queryable, teacherId: string, id: string): Promise<AssignmentRow> {
  const row = await findAssignment(tx, id, 'update');
  if (row.createdByTeacherId !== teacherId)
    throw forbidden('Only the teacher who created this assignment can change it');
  return row;
}

/** The ids of the assignment's classes the teacher teaches. */
export async function taughtClassIdsOf(tx: Queryable, teacherId: string, assignmentId: string): Promise<string[]> {
  const rows = await tx
    .select({ classId: assignmentClasses.classId })
    .from(assignmentClasses)
    .innerJoin(
      classTeachers,
      and(eq(classTeachers.classId, assignmentClasses.classId), eq(classTeachers.teacherId, teacherId)),
    )
    .where(eq(assignmentClasses.assignmentId, assignmentId));
  return rows.map((row) => row.classId);
}

/** The assignment if the teacher teaches one of its classes: 404 without it, 403 otherwise. */
export async function requireTaughtAssignment(tx: Queryable, teacherId: string, id: string, lock?: 'share') {
  const row = await findAssignment(tx, id, lock);
  const taught = await taughtClassIdsOf(tx, teacherId, id);
  if (taught.length === 0) throw forbidden('You do not teach a class of this assignment');
  return { row, taught };
}

/** Is any hand-in of the assignment handed in (graded, returned)? Then its points and classes stay. */
export async function hasHandedInWork(tx: Queryable, assignmentId: string): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(handIns)
    .where(and(eq(handIns.assignmentId, assignmentId), ne(handIns.state, 'draft')))
    .limit(1);
  return row !== undefined;
}

export async function findHandIn(tx: Queryable, assignmentId: string, studentId: string): Promise<HandInRow | null> {
  const [row] = await tx
    .select()
    .from(handIns)
    .where(and(eq(handIns.assignmentId, assignmentId), eq(handIns.studentId, studentId)))
    .limit(1);
  return row ?? null;
}

/** Each assignment's classes, by name. */
export async function classesOf(tx: Queryable, ids: string[]) {
  const byAssignment = new Map<string, { _id: string; name: string }[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byAssignment;
  const rows = await tx
    .select({ assignmentId: assignmentClasses.assignmentId, id: classes.id, name: classes.name })
    .from(assignmentClasses)
    .innerJoin(classes, eq(classes.id, assignmentClasses.classId))
    .where(inArray(assignmentClasses.assignmentId, ids))
    .orderBy(asc(classes.nameKey), asc(classes.id));
  for (const row of rows) byAssignment.get(row.assignmentId)!.push({ _id: row.id, name: row.name });
  return byAssignment;
}

/** Signs an attachment's file address for the caller (decision 061); the caller's id is the signer's. */
export type SignAttachment = (assignmentId: string, resourceId: string) => string;

/** The address of an attachment's file, signed for one viewer. */
export const attachmentFileUrl = (assignmentId: string, resourceId: string, access: string) =>
  `/api/assignments/${assignmentId}/attachments/${resourceId}/file?access=${encodeURIComponent(access)}`;

/** Each assignment's attachments, in order; files with their address signed for the viewer. */
export async function attachmentsOf(tx: Queryable, ids: string[], sign: SignAttachment) {
  const byAssignment = new Map<string, AssignmentAttachment[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byAssignment;
  const rows = await tx
    .select({
      assignmentId: assignmentAttachments.assignmentId,
      id: resources.id,
      kind: resources.kind,
      fileName: resources.fileName,
      mimeType: resources.mimeType,
      linkUrl: resources.linkUrl,
    })
    .from(assignmentAttachments)
    .innerJoin(resources, eq(resources.id, assignmentAttachments.resourceId))
    .where(inArray(assignmentAttachments.assignmentId, ids))
    .orderBy(asc(assignmentAttachments.position));
  for (const row of rows)
    byAssignment.get(row.assignmentId)!.push({
      _id: row.id,
      kind: row.kind,
      fileName: row.fileName,
      mimeType: row.mimeType,
      linkUrl: row.kind === 'link' ? row.linkUrl : null,
      fileUrl: row.kind === 'file' ? attachmentFileUrl(row.assignmentId, row.id, sign(row.assignmentId, row.id)) : null,
    });
  return byAssignment;
}

/** Assignments as the teacher sees them, in the order of `rows`: classes, attachments, their classes' hand-in counts. */
export async function presentForTeacher(
  tx: Queryable,
  teacherId: string,
  rows: AssignmentRow[],
  sign: SignAttachment,
): Promise<TeacherAssignment[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [classLists, attachmentLists, creators, counts] = [
    await classesOf(tx, ids),
    await attachmentsOf(tx, ids, sign),
    await tx
      .select({ id: teachers.id, name: teachers.name })
      .from(teachers)
      .where(inArray(teachers.id, [...new Set(rows.map((row) => row.createdByTeacherId))])),
    await tx
      .select({
        assignmentId: handIns.assignmentId,
        handedIn: sql<number>`(count(*) filter (where ${handIns.state} <> 'draft'))::int`,
        toGrade: sql<number>`(count(*) filter (where ${handIns.state} = 'handed-in'))::int`,
        returned: sql<number>`(count(*) filter (where ${handIns.state} = 'returned'))::int`,
      })
      .from(handIns)
      .where(
        and(
          inArray(handIns.assignmentId, ids),
          sql`${handIns.classId} in (select ${classTeachers.classId} from ${classTeachers} where ${classTeachers.teacherId} = ${teacherId})`,
        ),
      )
      .groupBy(handIns.assignmentId),
  ];
  const creatorNames = new Map(creators.map((creator) => [creator.id, creator.name]));
  const countsOf = new Map(counts.map(({ assignmentId, ...count }) => [assignmentId, count]));
  return rows.map((row) =>
    presentTeacherAssignment(
      row,
      {
        classes: classLists.get(row.id)!,
        attachments: attachmentLists.get(row.id)!,
        creatorName: creatorNames.get(row.createdByTeacherId) ?? '',
        handIns: countsOf.get(row.id) ?? { handedIn: 0, toGrade: 0, returned: 0 },
      },
      teacherId,
    ),
  );
}

/**
 * The class of the assignment a student's work belongs to: their hand-in's, else the first of
 * the assignment's classes they are in (by name); null when they are in none.
 */
export async function studentClassOf(
  tx: Queryable,
  assignmentId: string,
  studentId: string,
  handIn: HandInRow | null,
): Promise<string | null> {
  if (handIn) return handIn.classId;
  const [row] = await tx
    .select({ classId: assignmentClasses.classId })
    .from(assignmentClasses)
    .innerJoin(
      classStudents,
      and(eq(classStudents.classId, assignmentClasses.classId), eq(classStudents.studentId, studentId)),
    )
    .innerJoin(classes, eq(classes.id, assignmentClasses.classId))
    .where(eq(assignmentClasses.assignmentId, assignmentId))
    .orderBy(asc(classes.nameKey), asc(classes.id))
    .limit(1);
  return row?.classId ?? null;
}

/**
 * May the teacher see and grade this student's work? They teach the class of the student's
 * hand-in, or a class of the assignment the student is in today.
 */
export async function teachesStudentOfAssignment(
  tx: Queryable,
  teacherId: string,
  assignmentId: string,
  studentId: string,
  handIn: HandInRow | null,
): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(assignmentClasses)
    .innerJoin(
      classTeachers,
      and(eq(classTeachers.classId, assignmentClasses.classId), eq(classTeachers.teacherId, teacherId)),
    )
    .where(
      and(
        eq(assignmentClasses.assignmentId, assignmentId),
        or(
          handIn ? eq(assignmentClasses.classId, handIn.classId) : sql`false`,
          sql`exists (select 1 from ${classStudents} where ${classStudents.classId} = ${assignmentClasses.classId} and ${classStudents.studentId} = ${studentId})`,
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The assignment as its student may reach it (locked shared when writing), with their hand-in:
 * 404 when it does not exist, is not yet published or is archived without their work; 403 for
 * another class's.
 */
export async function requireStudentAssignment(
  tx: Queryable,
  studentId: string,
  id: string,
  options: { lock: boolean; now: Date },
) {
  const row = await findAssignment(tx, id, options.lock ? 'share' : undefined);
  const handIn = await findHandIn(tx, id, studentId);
  const handedIn = handIn !== null && handIn.state !== 'draft';
  if (!handedIn) {
    if (row.archivedAt !== null || (row.publishAt !== null && row.publishAt > options.now))
      throw notFound('This assignment does not exist');
    if ((await studentClassOf(tx, id, studentId, null)) === null)
      throw forbidden('This assignment is for another class');
  }
  return { row, handIn };
}

/** The hand-in a teacher reaches: the assignment (shared when writing), the student, their row; 404 / 403. */
export async function requireGradable(tx: Queryable, teacherId: string, id: string, studentId: string, lock: boolean) {
  const row = await findAssignment(tx, id, lock ? 'share' : undefined);
  const handIn = await findHandIn(tx, id, studentId);
  const [student] = await tx
    .select({ _id: students.id, name: students.name, rollNumber: students.rollNumber })
    .from(students)
    .where(eq(students.id, studentId));
  if (!student || (handIn === null && (await studentClassOf(tx, id, studentId, null)) === null))
    throw notFound('This student has no work for this assignment');
  if (!(await teachesStudentOfAssignment(tx, teacherId, id, studentId, handIn)))
    throw forbidden('You do not teach this student’s class of this assignment');
  return { row, handIn, student };
}

/** Archived assignments take no new work (decision 058). */
export function refuseArchived(row: AssignmentRow) {
  if (row.archivedAt) throw conflict('ASSIGNMENT_ARCHIVED', 'This assignment is archived: it takes no more work');
}

/**
 * The student's hand-in row, made as an empty draft at version 0 ("nothing saved yet") when it
 * does not exist: what a file or a comment hangs on (decision 061). Another writer's row wins.
 */
export async function ensureHandIn(tx: Queryable, assignmentId: string, studentId: string): Promise<HandInRow> {
  const existing = await findHandIn(tx, assignmentId, studentId);
  if (existing) return existing;
  const classId = await studentClassOf(tx, assignmentId, studentId, null);
  if (classId === null) throw forbidden('This assignment is for another class');
  await tx
    .insert(handIns)
    .values({ assignmentId, studentId, classId, state: 'draft', text: '', version: 0, updatedAt: new Date() })
    .onConflictDoNothing();
  return (await findHandIn(tx, assignmentId, studentId))!;
}
