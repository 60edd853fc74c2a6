import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, isNotNull, isNull, or, sql, type Placeholder } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readsUncached } from '../../cache/read-cache.ts';
import { classes, classStudents, quizAccommodations, quizAttempts, quizzes, teachers } from '../../db/schema.ts';
import { inStudentClasses } from '../classes/records.ts';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { accommodationTermsColumns, effectiveDeadlineSql } from './accommodations.ts';
import { GRACE, quizSummaryColumns } from './quiz-records.ts';
import { createStudentQuizList, type StudentListView } from './student-quiz-list.ts';

/**
 * A student's quiz list from the class's shared part and the student's own (issue 36): the
 * same rows, in the same order, as the one statement that built it before (kept here as the
 * reference), and never another student's attempt or terms in a page.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 60_000 } });
});
afterAll(() => t?.close());

/** The statement of before (reading.ts at 2c8b446), the reference the new list must equal. */
function referenceList(view: StudentListView) {
  const db = t.database.db;
  const moment = sql.placeholder('now');
  const studentQuizIds = (studentId: Placeholder) =>
    sql`(select ${quizzes.id} from ${quizzes} where ${inStudentClasses(quizzes.classId, studentId)}
      union all
      select ${quizAttempts.quizId} from ${quizAttempts} where ${quizAttempts.studentId} = ${studentId})`;
  const isOnline = and(
    isNull(quizAttempts.submittedAt),
    or(
      and(isNull(quizAttempts.id), gt(effectiveDeadlineSql, moment)),
      gt(sql`${quizAttempts.endsAt} + ${GRACE}`, moment),
    ),
  );
  const filter = view === 'online' ? isOnline : view === 'attempted' ? isNotNull(quizAttempts.submittedAt) : undefined;
  const visible = or(isNull(quizzes.archivedAt), isNotNull(quizAttempts.id));
  const order =
    view === 'online'
      ? [asc(effectiveDeadlineSql), asc(quizzes.id)]
      : view === 'attempted'
        ? [desc(quizAttempts.submittedAt), asc(quizzes.id)]
        : [desc(quizzes.createdAt), desc(quizzes.id)];
  return db
    .select({
      quiz: quizSummaryColumns,
      authorName: teachers.name,
      className: classes.name,
      attempt: {
        id: quizAttempts.id,
        startedAt: quizAttempts.startedAt,
        endsAt: quizAttempts.endsAt,
        submittedAt: quizAttempts.submittedAt,
        endedBy: quizAttempts.endedBy,
        score: quizAttempts.score,
        accuracy: quizAttempts.accuracy,
        timeTakenSeconds: quizAttempts.timeTakenSeconds,
        essaysAwaiting: quizAttempts.essaysAwaiting,
      },
      accommodation: accommodationTermsColumns,
    })
    .from(quizzes)
    .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
    .innerJoin(classes, eq(classes.id, quizzes.classId))
    .leftJoin(
      quizAttempts,
      and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.studentId, sql.placeholder('studentId'))),
    )
    .leftJoin(
      quizAccommodations,
      and(eq(quizAccommodations.quizId, quizzes.id), eq(quizAccommodations.studentId, sql.placeholder('studentId'))),
    )
    .where(and(sql`${quizzes.id} = any(array${studentQuizIds(sql.placeholder('studentId'))})`, visible, filter))
    .orderBy(...order)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

type Person = { token: string; profile: { _id: string } };

async function send(person: Person, method: 'POST' | 'PUT', url: string, payload: object = {}) {
  const response = await t.call({ method, url, headers: bearer(person.token), payload });
  expect(response.status, response.raw).toBeLessThan(300);
  return response.body.data;
}

async function submit(student: Person, quizId: string) {
  const started = await send(student, 'POST', `/api/quiz/${quizId}/start`);
  await send(student, 'POST', '/api/student/update-student', {
    quiz: {
      _id: quizId,
      questions: (started.quiz.questions as { _id: string }[]).map((question) => ({ _id: question._id })),
    },
  });
}

/**
 * A class of two students with quizzes in every state a list tells apart: ties on the creation
 * time within a millisecond, equal deadlines, a later own deadline, archived with and without
 * an attempt, open, timed out, submitted at the same moment, and one attempted in a class the
 * student has since left.
 */
async function classInEveryState() {
  const db = t.database.db;
  const className = `List-${randomUUID().slice(0, 8)}`;
  const teacher = await signUpTeacher(t);
  const student = await signUpStudent(t, { class: className, name: 'Ana List' });
  const classmate = await signUpStudent(t, { class: className, name: 'Ben List' });
  const classId = await classIdTaughtBy(t, teacher, className);
  const day = 24 * 60 * 60 * 1000;
  const deadlines = [3, 1, 2, 2, 5, 4, 6, 2].map((days) => new Date(Date.now() + days * day).toISOString());
  const ids: string[] = [];
  for (const deadline of deadlines)
    ids.push((await send(teacher, 'POST', '/api/teacher/add-quiz', buildNewQuiz({ classId, deadline })))._id);
  // Created within one millisecond, apart by microseconds (and two at the very same time).
  await db.execute(sql`update quizzes set created_at = timestamptz '2026-12-01 10:00:00.123401+00'
    + (interval '1 microsecond' * (array_position(${sql.raw(`array['${ids.join("','")}']::uuid[]`)}, id) % 3))
    where class_id = ${classId}::uuid`);
  for (const index of [0, 1, 2, 3]) await submit(student, ids[index]!);
  await submit(classmate, ids[4]!);
  await send(student, 'POST', `/api/quiz/${ids[5]}/start`); // open
  await send(student, 'POST', `/api/quiz/${ids[6]}/start`); // will be timed out, unannounced
  // Two submissions at the same moment; one attempt's time and grace ran out.
  await db.execute(sql`update quiz_attempts set submitted_at = timestamptz '2026-12-02 09:00:00.5+00'
    where student_id = ${student.profile._id}::uuid and quiz_id in (${ids[0]}::uuid, ${ids[1]}::uuid)`);
  await db.execute(sql`update quiz_attempts set started_at = started_at - interval '1 hour',
    ends_at = ends_at - interval '1 hour' where quiz_id = ${ids[6]}::uuid`);
  // Own deadlines: later than the quiz's for the student, for the classmate on another quiz.
  await db.insert(quizAccommodations).values([
    { quizId: ids[7]!, studentId: student.profile._id, deadline: new Date(Date.now() + 9 * day), extraPercent: 50 },
    { quizId: ids[1]!, studentId: classmate.profile._id, deadline: new Date(Date.now() + 8 * day) },
  ]);
  // Archived: one the student attempted (stays), one nobody did (goes).
  await db
    .update(quizzes)
    .set({ archivedAt: new Date() })
    .where(sql`${quizzes.id} in (${ids[2]}::uuid, ${ids[7]}::uuid)`);
  // A quiz of another class the student attempted, then left: it stays on their list.
  const otherName = `List-${randomUUID().slice(0, 8)}`;
  const otherStudent = await signUpStudent(t, { class: otherName });
  const otherClassId = await classIdTaughtBy(t, teacher, otherName);
  const elsewhere = (await send(teacher, 'POST', '/api/teacher/add-quiz', buildNewQuiz({ classId: otherClassId })))._id;
  await db.insert(classStudents).values({ classId: otherClassId, studentId: student.profile._id });
  await submit(student, elsewhere);
  await db
    .delete(classStudents)
    .where(and(eq(classStudents.classId, otherClassId), eq(classStudents.studentId, student.profile._id)));
  void otherStudent;
  return { classId, teacher, student, classmate, ids, elsewhere };
}

describe("a student's quiz list from the class's part and their own", () => {
  it('equals the one statement of before, row for row, in every view and window', async () => {
    const { classId, student, classmate } = await classInEveryState();
    const list = createStudentQuizList(t.database.db, readsUncached());
    const now = new Date();
    for (const person of [student, classmate]) {
      const classIds = person === student ? [classId] : [classId];
      for (const view of ['online', 'attempted', undefined] as const) {
        for (const window of [
          { offset: 0, limit: 51 },
          { offset: 0, limit: 2 },
          { offset: 1, limit: 3 },
          { offset: 5, limit: 4 },
        ]) {
          const expected = await referenceList(view).execute({ studentId: person.profile._id, now, ...window });
          const actual = await list.rows(
            { studentId: person.profile._id, classIds, view, now },
            window,
            () => {},
            undefined,
          );
          expect(actual, `${person.profile._id} ${view} ${JSON.stringify(window)}`).toEqual(expected);
        }
      }
    }
    // The fixture reaches every branch: something in each view for the student.
    for (const view of ['online', 'attempted', undefined] as const)
      expect(
        (
          await list.rows(
            { studentId: student.profile._id, classIds: [classId], view, now },
            { offset: 0, limit: 50 },
            () => {},
            undefined,
          )
        ).length,
      ).toBeGreaterThan(1);
  });

  it("never shows one student another's attempt or own deadline, through the shared class entry", async () => {
    const className = `List-${randomUUID().slice(0, 8)}`;
    const teacher = await signUpTeacher(t);
    const first = await signUpStudent(t, { class: className });
    const second = await signUpStudent(t, { class: className });
    const classId = await classIdTaughtBy(t, teacher, className);
    const quiz = await send(teacher, 'POST', '/api/teacher/add-quiz', buildNewQuiz({ classId }));
    const later = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString();
    await send(teacher, 'PUT', `/api/quiz/${quiz._id}/accommodations/${first.profile._id}`, { deadline: later });
    const online = async (person: Person) =>
      (await t.call({ method: 'GET', url: '/api/get-all-quiz?view=online', headers: bearer(person.token) })).body
        .data as { _id: string; deadline: string; attempt: unknown }[];
    const attempted = async (person: Person) =>
      (
        (await t.call({ method: 'GET', url: '/api/get-all-quiz?view=attempted', headers: bearer(person.token) })).body
          .data as { _id: string }[]
      ).map((row) => row._id);

    // Both pages built from the one class entry: each with its own deadline.
    const [firstRow] = await online(first);
    const [secondRow] = await online(second);
    expect(new Date(firstRow!.deadline).toISOString()).toBe(later);
    expect(secondRow!.deadline).not.toBe(firstRow!.deadline);

    await submit(first, quiz._id);
    expect(await attempted(first)).toEqual([quiz._id]);
    expect(await online(first)).toEqual([]);
    // The class entry is unchanged by a student's attempt; the classmate's page has none of it.
    expect(await attempted(second)).toEqual([]);
    expect(await online(second)).toMatchObject([{ _id: quiz._id, attempt: null }]);
  });
});
