import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type {
  GradeBody,
  HandInState,
  HandInBody,
  HandInDetail,
  HandInRow as PresentedHandInRow,
  StudentAssignment,
  StudentAssignmentGroup,
  StudentAssignmentSummary,
} from '#shared/assignments';
import type { Database } from '../../db/client.ts';
import {
  assignmentClasses,
  assignments,
  classStudents,
  handIns,
  students,
  type AssignmentRow,
  type HandInRow,
} from '../../db/schema.ts';
import type { AppError } from '../../errors.ts';
import { badRequest, conflict, fieldProblem, forbidden, notFound } from '../../errors.ts';
import { requireTaughtClass } from '../classes/records.ts';
import { notifyEach } from '../notifications/notify.ts';
import {
  isClosed,
  isPastDue,
  presentHandInDetail,
  presentHandInRow,
  presentStudentAssignment,
  presentStudentSummary,
} from './presenters.ts';
import {
  attachmentsOf,
  classesOf,
  findAssignment,
  findHandIn,
  refuseArchived,
  requireGradable,
  requireStudentAssignment,
  studentClassOf,
  taughtClassIdsOf,
  toPage,
  type ListedPage,
  type Page,
  type Queryable,
  type SignAttachment,
} from './records.ts';
import { byName } from '../../db/name-order.ts';

/**
 * Hand-ins (decision 058): the student's lists, draft saves, hand-ins and take-backs; the
 * teacher's list of a class, grades and returns. Every change is one conditional statement on
 * the hand-in's row (its version, its state), inside a transaction that holds the assignment's
 * row shared, so two tabs, a take-back and a grade, or a hand-in and an edit of the due time
 * never interleave: one wins, the other is refused with its code and changes nothing.
 */

const HANDED_IN_STATES = ['handed-in', 'graded', 'returned'] as const;
const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** Published to the student (a class of theirs, not archived, its publish time passed), or handed in by them. */
function visibleTo(studentId: string, now: Date): SQL {
  return sql`(
    (${assignments.archivedAt} is null
      and (${assignments.publishAt} is null or ${assignments.publishAt} <= ${ts(now)})
      and exists (select 1 from ${assignmentClasses} join ${classStudents}
        on ${classStudents.classId} = ${assignmentClasses.classId} and ${classStudents.studentId} = ${studentId}
        where ${assignmentClasses.assignmentId} = ${assignments.id}))
    or ${handIns.state} in ('handed-in', 'graded', 'returned'))`;
}

/** Each group's condition and order (the student's dashboard, issue 33 point 2). */
function groupQuery(group: StudentAssignmentGroup, now: Date): { where: SQL; orderBy: SQL[] } {
  const notHandedIn = sql`(${handIns.state} is null or ${handIns.state} = 'draft')`;
  switch (group) {
    case 'todo':
      return {
        where: sql`${notHandedIn} and (${assignments.dueAt} is null or ${assignments.dueAt} > ${ts(now)})`,
        orderBy: [sql`${assignments.dueAt} asc nulls last`, desc(assignments.createdAt), asc(assignments.id)],
      };
    case 'missing':
      return {
        where: sql`${notHandedIn} and ${assignments.dueAt} <= ${ts(now)}`,
        orderBy: [desc(assignments.dueAt), asc(assignments.id)],
      };
    case 'done':
      return {
        where: sql`${handIns.state} in ('handed-in', 'graded')`,
        orderBy: [desc(handIns.submittedAt), asc(assignments.id)],
      };
    case 'returned':
      return { where: sql`${handIns.state} = 'returned'`, orderBy: [desc(handIns.returnedAt), asc(assignments.id)] };
  }
}

/** Why a conditional write on a hand-in changed nothing: its state does not allow it, or another write came first. */
function refusal(current: HandInRow | null, allowedStates: readonly string[]): AppError {
  if (current === null || !allowedStates.includes(current.state))
    return conflict('HAND_IN_LOCKED', 'This work is not in a state that allows this: reload it');
  return conflict('HAND_IN_CHANGED', 'This work was changed elsewhere since you opened it: reload it', {
    field: 'version',
    code: 'CHANGED',
  });
}

/**
 * Changes the student's hand-in only at the version read and in one of `states`, in one
 * conditional statement (the row lock orders racing writers); refused with the reason otherwise.
 */
async function compareAndSet(
  tx: Queryable,
  where: { assignmentId: string; studentId: string; version: number },
  states: readonly HandInState[],
  values: PgUpdateSetSource<typeof handIns>,
): Promise<HandInRow> {
  const [updated] = await tx
    .update(handIns)
    .set({ ...values, version: sql`${handIns.version} + 1`, updatedAt: new Date() })
    .where(
      and(
        eq(handIns.assignmentId, where.assignmentId),
        eq(handIns.studentId, where.studentId),
        eq(handIns.version, where.version),
        inArray(handIns.state, [...states]),
      ),
    )
    .returning();
  if (updated) return updated;
  throw refusal(await findHandIn(tx, where.assignmentId, where.studentId), states);
}

/** HAND_IN_RETURNED to each student whose work was returned (or whose returned grade changed), with the grade. */
async function tellReturned(tx: Queryable, row: AssignmentRow, returned: HandInRow[]) {
  await notifyEach(
    tx,
    'HAND_IN_RETURNED',
    returned.map((handIn) => ({
      recipient: { role: 'student', id: handIn.studentId },
      params: { assignmentId: row.id, title: row.title, points: handIn.points, maxPoints: row.points },
      classId: handIn.classId,
    })),
  );
}

export function createHandIns(db: Database, signAttachment: (viewerId: string) => SignAttachment) {
  const now = () => new Date();

  /** The student's class ids (what they see of an assignment's classes). */
  async function classIdsOfStudent(tx: Queryable, studentId: string) {
    const rows = await tx
      .select({ classId: classStudents.classId })
      .from(classStudents)
      .where(eq(classStudents.studentId, studentId));
    return new Set(rows.map((row) => row.classId));
  }

  async function studentView(tx: Queryable, studentId: string, row: AssignmentRow, handIn: HandInRow | null) {
    const mine = await classIdsOfStudent(tx, studentId);
    const classes = (await classesOf(tx, [row.id])).get(row.id)!.filter((entry) => mine.has(entry._id));
    const attachments = (await attachmentsOf(tx, [row.id], signAttachment(studentId))).get(row.id)!;
    return presentStudentAssignment(row, { classes, attachments }, handIn, now());
  }

  /** The writes of a student's own hand-in: the assignment shared, archived refused, then `write`. */
  async function studentWrite(
    studentId: string,
    id: string,
    write: (tx: Queryable, row: AssignmentRow, handIn: HandInRow | null) => Promise<HandInRow>,
  ): Promise<StudentAssignment> {
    return db.transaction(async (tx) => {
      const { row, handIn } = await requireStudentAssignment(tx, studentId, id, { lock: true, now: now() });
      refuseArchived(row);
      const written = await write(tx, row, handIn);
      return studentView(tx, studentId, row, written);
    });
  }

  /**
   * The first save or hand-in (version 0) inserts the row, unless another came first; a later one
   * updates it only at the version read and while a draft. Never read-then-write.
   */
  async function writeDraftOrHandIn(
    tx: Queryable,
    row: AssignmentRow,
    studentId: string,
    version: number,
    values: Partial<typeof handIns.$inferInsert> & Pick<typeof handIns.$inferInsert, 'state' | 'text'>,
  ): Promise<HandInRow> {
    if (version > 0) return compareAndSet(tx, { assignmentId: row.id, studentId, version }, ['draft'], values);
    const classId = await studentClassOf(tx, row.id, studentId, null);
    if (classId === null) throw forbidden('This assignment is for another class');
    const [inserted] = await tx
      .insert(handIns)
      .values({ assignmentId: row.id, studentId, classId, ...values, version: 1, updatedAt: now() })
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted;
    // A file or a comment may have made the row at version 0, nothing saved in it yet (decision 061).
    return compareAndSet(tx, { assignmentId: row.id, studentId, version: 0 }, ['draft'], values);
  }

  return {
    /** GET /api/student/assignments?group=…: one group, paged, sorted in SQL. */
    async listForStudent(
      studentId: string,
      group: StudentAssignmentGroup,
      page: Page,
    ): Promise<ListedPage<StudentAssignmentSummary>> {
      const at = now();
      const { where, orderBy } = groupQuery(group, at);
      const rows = await db
        .select({ assignment: assignments, handIn: handIns })
        .from(assignments)
        .leftJoin(handIns, and(eq(handIns.assignmentId, assignments.id), eq(handIns.studentId, studentId)))
        .where(
          and(
            sql`${assignments.id} in (
              select ${assignmentClasses.assignmentId} from ${assignmentClasses} join ${classStudents}
                on ${classStudents.classId} = ${assignmentClasses.classId} where ${classStudents.studentId} = ${studentId}
              union select ${handIns.assignmentId} from ${handIns} where ${handIns.studentId} = ${studentId})`,
            visibleTo(studentId, at),
            where,
          ),
        )
        .orderBy(...orderBy)
        .offset(page.offset)
        .limit(page.limit + 1);
      const listed = toPage(rows, page.limit);
      const ids = listed.items.map((item) => item.assignment.id);
      const mine = await classIdsOfStudent(db, studentId);
      const classLists = await classesOf(db, ids);
      return {
        items: listed.items.map(({ assignment, handIn }) =>
          presentStudentSummary(
            assignment,
            { classes: classLists.get(assignment.id)!.filter((entry) => mine.has(entry._id)) },
            handIn,
            at,
          ),
        ),
        hasMore: listed.hasMore,
      };
    },

    /** GET /api/student/assignments/{id}. */
    async getForStudent(studentId: string, id: string): Promise<StudentAssignment> {
      const { row, handIn } = await requireStudentAssignment(db, studentId, id, { lock: false, now: now() });
      return studentView(db, studentId, row, handIn);
    },

    /** PUT /api/student/assignments/{id}/draft: while not handed in, at the version read. */
    async saveDraft(studentId: string, id: string, input: HandInBody): Promise<StudentAssignment> {
      return studentWrite(studentId, id, (tx, row) =>
        writeDraftOrHandIn(tx, row, studentId, input.version, { state: 'draft', text: input.text }),
      );
    },

    /** POST /api/student/assignments/{id}/hand-in: late by the server's clock; refused after the due time unless late work is accepted. */
    async handIn(studentId: string, id: string, input: HandInBody): Promise<StudentAssignment> {
      return studentWrite(studentId, id, (tx, row) => {
        const at = now();
        const late = isPastDue(row, at);
        if (late && !row.acceptLate)
          throw conflict('ASSIGNMENT_CLOSED', 'The due time has passed and late work is not accepted');
        return writeDraftOrHandIn(tx, row, studentId, input.version, {
          state: 'handed-in',
          text: input.text,
          submittedAt: at,
          late,
        });
      });
    },

    /** POST /api/student/assignments/{id}/take-back: back to a draft, unless graded or closed by the late rule. */
    async takeBack(studentId: string, id: string, version: number): Promise<StudentAssignment> {
      return studentWrite(studentId, id, async (tx, row) => {
        if (isClosed(row, now()))
          throw conflict(
            'ASSIGNMENT_CLOSED',
            'The due time has passed and late work is not accepted: it stays handed in',
          );
        return compareAndSet(tx, { assignmentId: row.id, studentId, version }, ['handed-in'], {
          state: 'draft',
          submittedAt: null,
          late: false,
        });
      });
    },

    /** GET /api/assignments/{id}/hand-ins?classId=…: every student of the class, by name. */
    async listForClass(
      teacherId: string,
      id: string,
      classId: string,
      page: Page,
    ): Promise<ListedPage<PresentedHandInRow>> {
      const row = await findAssignment(db, id);
      const [linked] = await db
        .select({ classId: assignmentClasses.classId })
        .from(assignmentClasses)
        .where(and(eq(assignmentClasses.assignmentId, id), eq(assignmentClasses.classId, classId)));
      await requireTaughtClass(db, teacherId, classId);
      if (!linked) throw notFound('This class has no such assignment');
      const rows = await db
        .select({ _id: students.id, name: students.name, rollNumber: students.rollNumber, handIn: handIns })
        .from(classStudents)
        .innerJoin(students, eq(students.id, classStudents.studentId))
        .leftJoin(handIns, and(eq(handIns.assignmentId, id), eq(handIns.studentId, students.id)))
        .where(eq(classStudents.classId, classId))
        .orderBy(asc(byName(students.name)), asc(students.id))
        .offset(page.offset)
        .limit(page.limit + 1);
      const listed = toPage(rows, page.limit);
      const at = now();
      return {
        items: listed.items.map(({ handIn, ...student }) => presentHandInRow(row, student, handIn, at)),
        hasMore: listed.hasMore,
      };
    },

    /** GET /api/assignments/{id}/hand-ins/{studentId}. */
    async getForTeacher(teacherId: string, id: string, studentId: string): Promise<HandInDetail> {
      const { row, handIn, student } = await requireGradable(db, teacherId, id, studentId, false);
      return presentHandInDetail(row, student, handIn, now());
    },

    /**
     * PUT …/grade: points within the assignment's (none when ungraded) and feedback, at the version
     * read, on handed-in work. A returned hand-in stays returned, flagged when the grade changed.
     */
    async grade(teacherId: string, id: string, studentId: string, input: GradeBody): Promise<HandInDetail> {
      return db.transaction(async (tx) => {
        const { row, student, handIn: read } = await requireGradable(tx, teacherId, id, studentId, true);
        if (row.points === null && input.points !== null)
          throw badRequest(
            'points: This assignment is ungraded: give feedback only',
            fieldProblem('points', 'NOT_ALLOWED', 'This assignment is ungraded: give feedback only'),
          );
        if (row.points !== null && input.points === null)
          throw badRequest('points: Give the points', fieldProblem('points', 'REQUIRED', 'Give the points'));
        if (row.points !== null && input.points !== null && input.points > row.points)
          throw badRequest(
            `points: At most ${row.points} points`,
            fieldProblem('points', 'TOO_BIG', `At most ${row.points} points`, { maximum: row.points, inclusive: true }),
          );
        const feedback = input.feedback === '' ? null : input.feedback;
        const points = input.points === null ? null : String(input.points);
        const updated = await compareAndSet(
          tx,
          { assignmentId: id, studentId, version: input.version },
          HANDED_IN_STATES,
          {
            points: input.points,
            feedback,
            gradedBy: teacherId,
            gradedAt: now(),
            state: sql`case when ${handIns.state} = 'returned' then 'returned' else 'graded' end`,
            gradeChangedAfterReturn: sql`${handIns.gradeChangedAfterReturn} or (${handIns.state} = 'returned'
            and (${handIns.points} is distinct from ${points}::numeric or ${handIns.feedback} is distinct from ${feedback}::varchar))`,
          },
        );
        // A returned grade changed: the student sees it at once (decision 058), and hears of it.
        const changed = read?.points !== updated.points || read?.feedback !== updated.feedback;
        if (updated.state === 'returned' && changed) await tellReturned(tx, row, [updated]);
        return presentHandInDetail(row, student, updated, now());
      });
    },

    /** POST …/return: a graded hand-in to its student; returning a returned one changes nothing. */
    async returnOne(teacherId: string, id: string, studentId: string): Promise<HandInDetail> {
      return db.transaction(async (tx) => {
        const { row, student } = await requireGradable(tx, teacherId, id, studentId, true);
        const [updated] = await tx
          .update(handIns)
          .set({ state: 'returned', returnedAt: now(), version: sql`${handIns.version} + 1`, updatedAt: now() })
          .where(and(eq(handIns.assignmentId, id), eq(handIns.studentId, studentId), eq(handIns.state, 'graded')))
          .returning();
        if (updated) {
          await tellReturned(tx, row, [updated]);
          return presentHandInDetail(row, student, updated, now());
        }
        const current = await findHandIn(tx, id, studentId);
        if (current?.state === 'returned') return presentHandInDetail(row, student, current, now());
        throw conflict('HAND_IN_LOCKED', 'Only graded work can be returned');
      });
    },

    /** POST …/return-all: every graded hand-in of one class, or of every class of it the caller teaches. */
    async returnAll(teacherId: string, id: string, classId: string | undefined): Promise<{ returned: number }> {
      return db.transaction(async (tx) => {
        const row = await findAssignment(tx, id, 'share');
        const taught = await taughtClassIdsOf(tx, teacherId, id);
        if (taught.length === 0) throw forbidden('You do not teach a class of this assignment');
        if (classId !== undefined && !taught.includes(classId)) {
          await requireTaughtClass(tx, teacherId, classId);
          throw notFound('This class has no such assignment');
        }
        const returned = await tx
          .update(handIns)
          .set({ state: 'returned', returnedAt: now(), version: sql`${handIns.version} + 1`, updatedAt: now() })
          .where(
            and(
              eq(handIns.assignmentId, id),
              inArray(handIns.classId, classId === undefined ? taught : [classId]),
              eq(handIns.state, 'graded'),
            ),
          )
          .returning();
        await tellReturned(tx, row, returned);
        return { returned: returned.length };
      });
    },
  };
}

export type HandIns = ReturnType<typeof createHandIns>;
