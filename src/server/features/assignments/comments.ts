import { asc, eq } from 'drizzle-orm';
import type { CommentBody, HandInComment } from '#shared/assignments';
import type { Database } from '../../db/client.ts';
import { handInComments, students, teachers, type HandInRow } from '../../db/schema.ts';
import type { AccountRef } from '../../plugins/auth.ts';
import { notify } from '../notifications/notify.ts';
import {
  ensureHandIn,
  requireGradable,
  requireStudentAssignment,
  toPage,
  type ListedPage,
  type Page,
  type Queryable,
} from './records.ts';

/**
 * The private thread of a hand-in (issue 33 point 3, decision 061): its student and the teachers
 * of the hand-in's class, nobody else. Oldest first, paged in SQL on hand_in_comments_thread_idx.
 * A comment hangs on the hand-in's row (made as an empty draft when there is none: a teacher may
 * ask about work not yet begun) and tells the other side in the same transaction.
 */
export function createHandInComments(db: Database) {
  const now = () => new Date();

  async function thread(tx: Queryable, handIn: HandInRow | null, viewer: AccountRef, page: Page) {
    if (!handIn) return { items: [], hasMore: false };
    const rows = await tx
      .select({
        id: handInComments.id,
        role: handInComments.authorRole,
        studentId: handInComments.authorStudentId,
        teacherId: handInComments.authorTeacherId,
        studentName: students.name,
        teacherName: teachers.name,
        text: handInComments.text,
        createdAt: handInComments.createdAt,
      })
      .from(handInComments)
      .leftJoin(students, eq(students.id, handInComments.authorStudentId))
      .leftJoin(teachers, eq(teachers.id, handInComments.authorTeacherId))
      .where(eq(handInComments.handInId, handIn.id))
      .orderBy(asc(handInComments.createdAt), asc(handInComments.id))
      .offset(page.offset)
      .limit(page.limit + 1);
    const listed = toPage(rows, page.limit);
    return { items: listed.items.map((row) => present(row, viewer)), hasMore: listed.hasMore };
  }

  async function write(tx: Queryable, handIn: HandInRow, author: AccountRef, text: string) {
    const [row] = await tx
      .insert(handInComments)
      .values({
        handInId: handIn.id,
        authorRole: author.role,
        authorStudentId: author.role === 'student' ? author.id : null,
        authorTeacherId: author.role === 'teacher' ? author.id : null,
        text,
        createdAt: now(),
      })
      .returning();
    const table = author.role === 'student' ? students : teachers;
    const [named] = await tx.select({ name: table.name }).from(table).where(eq(table.id, author.id));
    return { row: row!, authorName: named?.name ?? '' };
  }

  return {
    /** GET /api/student/assignments/{id}/comments. */
    async listOwn(studentId: string, assignmentId: string, page: Page): Promise<ListedPage<HandInComment>> {
      const { handIn } = await requireStudentAssignment(db, studentId, assignmentId, { lock: false, now: now() });
      return thread(db, handIn, { role: 'student', id: studentId }, page);
    },

    /** POST /api/student/assignments/{id}/comments: to the teachers of the hand-in's class. */
    async postOwn(studentId: string, assignmentId: string, input: CommentBody): Promise<HandInComment> {
      return db.transaction(async (tx) => {
        const { row: assignment } = await requireStudentAssignment(tx, studentId, assignmentId, {
          lock: false,
          now: now(),
        });
        const handIn = await ensureHandIn(tx, assignmentId, studentId);
        const author: AccountRef = { role: 'student', id: studentId };
        const { row, authorName } = await write(tx, handIn, author, input.text);
        await notify(
          tx,
          { teachersOfClass: handIn.classId },
          'HAND_IN_COMMENT',
          { assignmentId, handInId: handIn.id, studentId, title: assignment.title, authorName },
          { classId: handIn.classId },
        );
        return present({ ...row, ...authorColumns(row), studentName: authorName, teacherName: null }, author);
      });
    },

    /** GET /api/assignments/{id}/hand-ins/{studentId}/comments. */
    async listForTeacher(
      teacherId: string,
      assignmentId: string,
      studentId: string,
      page: Page,
    ): Promise<ListedPage<HandInComment>> {
      const { handIn } = await requireGradable(db, teacherId, assignmentId, studentId, false);
      return thread(db, handIn, { role: 'teacher', id: teacherId }, page);
    },

    /** POST /api/assignments/{id}/hand-ins/{studentId}/comments: to the student. */
    async postForTeacher(
      teacherId: string,
      assignmentId: string,
      studentId: string,
      input: CommentBody,
    ): Promise<HandInComment> {
      return db.transaction(async (tx) => {
        const { row: assignment } = await requireGradable(tx, teacherId, assignmentId, studentId, false);
        const handIn = await ensureHandIn(tx, assignmentId, studentId);
        const author: AccountRef = { role: 'teacher', id: teacherId };
        const { row, authorName } = await write(tx, handIn, author, input.text);
        await notify(
          tx,
          [{ role: 'student', id: studentId }],
          'HAND_IN_COMMENT',
          { assignmentId, handInId: handIn.id, studentId, title: assignment.title, authorName },
          { classId: handIn.classId },
        );
        return present({ ...row, ...authorColumns(row), studentName: null, teacherName: authorName }, author);
      });
    },
  };
}

type CommentView = {
  id: string;
  role: 'student' | 'teacher';
  studentId: string | null;
  teacherId: string | null;
  studentName: string | null;
  teacherName: string | null;
  text: string;
  createdAt: Date;
};

const authorColumns = (row: typeof handInComments.$inferSelect) => ({
  role: row.authorRole,
  studentId: row.authorStudentId,
  teacherId: row.authorTeacherId,
});

/** A comment for one viewer: the author's role and name (a removed teacher's: neither id nor name). */
function present(row: CommentView, viewer: AccountRef): HandInComment {
  const authorId = row.role === 'student' ? row.studentId : row.teacherId;
  return {
    _id: row.id,
    author: { role: row.role, _id: authorId, name: row.role === 'student' ? row.studentName : row.teacherName },
    mine: authorId === viewer.id && row.role === viewer.role,
    text: row.text,
    createdAt: row.createdAt.toISOString(),
  };
}

export type HandInComments = ReturnType<typeof createHandInComments>;
