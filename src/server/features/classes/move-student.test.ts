import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classStudents } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Issue 19 point 7 (decision 031): a teacher moves a student between two of their classes in one
 * transaction. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL, where the two moves at
 * once really interleave.
 */

let t: TestApp;
let teacher: Awaited<ReturnType<typeof signUpTeacher>>;
beforeAll(async () => {
  t = await createTestApp();
  teacher = await signUpTeacher(t);
}, patience(60_000));
afterAll(() => t.close());

const move = (fromClassId: string, studentId: string, toClassId: string, token = teacher.token) =>
  t.call({
    method: 'POST',
    url: `/api/classes/${fromClassId}/students/${studentId}/move`,
    headers: bearer(token),
    payload: { toClassId },
  });

/** The ids of the classes among `classIds` the student is in. */
async function membershipsOf(studentId: string, classIds: string[]) {
  const rows = await t.database.db
    .select({ classId: classStudents.classId })
    .from(classStudents)
    .where(and(eq(classStudents.studentId, studentId), inArray(classStudents.classId, classIds)));
  return rows.map((row) => row.classId).sort();
}

/** The student joins a second class with its code. */
async function joinWithCode(student: { token: string }, classCode: string) {
  const joined = await t.call({
    method: 'POST',
    url: '/api/student/join-class',
    headers: bearer(student.token),
    payload: { classCode },
  });
  expect(joined.status, joined.raw).toBe(200);
}

const rosterIds = async (classId: string) =>
  (
    await t.call({ method: 'GET', url: `/api/classes/${classId}/students`, headers: bearer(teacher.token) })
  ).body.data.map((entry: { _id: string }) => entry._id);

describe('moving a student between the teacher’s classes', () => {
  it('takes the student out of one roster and into the other, and the student’s lists follow', async () => {
    const from = await classTaughtBy(t, teacher);
    const to = await classTaughtBy(t, teacher);
    const student = await signUpStudent(t, { class: from.name });
    const quiz = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: bearer(teacher.token),
      payload: buildNewQuiz({ classId: to.id }),
    });
    expect(quiz.status, quiz.raw).toBe(201);
    const quizzesOfStudent = async () =>
      (await t.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(student.token) })).body.data.map(
        (entry: { _id: string }) => entry._id,
      );
    // Read once, so a cached list would be the stale one.
    expect(await quizzesOfStudent()).not.toContain(quiz.body.data._id);

    const moved = await move(from.id, student.profile._id, to.id);
    expect(moved.status, moved.raw).toBe(200);
    expect(moved.body.data).toMatchObject({ _id: student.profile._id, email: student.registration.email });
    expect(await rosterIds(from.id)).toEqual([]);
    expect(await rosterIds(to.id)).toEqual([student.profile._id]);
    // The membership caches were announced: the student now sees the class's quiz.
    expect(await quizzesOfStudent()).toContain(quiz.body.data._id);
    const listed = await t.call({
      method: 'GET',
      url: `/api/teacher/students?search=${encodeURIComponent(student.registration.rollNumber)}`,
      headers: bearer(teacher.token),
    });
    expect(listed.body.data.map((entry: { class: string }) => entry.class)).toEqual([to.name]);
  });

  it('keeps one membership when the student is already in the target class', async () => {
    const from = await classTaughtBy(t, teacher);
    const to = await classTaughtBy(t, teacher);
    const student = await signUpStudent(t, { class: from.name });
    await joinWithCode(student, to.joinCode);
    expect((await move(from.id, student.profile._id, to.id)).status).toBe(200);
    expect(await membershipsOf(student.profile._id, [from.id, to.id])).toEqual([to.id]);
  });

  it('refuses, changing nothing: another teacher’s class either side (403), an archived target (409), a student not in the class (404), the same class or no class (400)', async () => {
    const from = await classTaughtBy(t, teacher);
    const to = await classTaughtBy(t, teacher);
    const archived = await classTaughtBy(t, teacher);
    const other = await signUpTeacher(t);
    const foreign = await classTaughtBy(t, other);
    const student = await signUpStudent(t, { class: from.name });
    const outsider = await signUpStudent(t, { class: foreign.name });
    const archiving = await t.call({
      method: 'POST',
      url: `/api/classes/${archived.id}/archive`,
      headers: bearer(teacher.token),
    });
    expect(archiving.status, archiving.raw).toBe(200);
    const id = student.profile._id;
    const everyClass = [from.id, to.id, archived.id, foreign.id];

    const refusals = [
      await move(from.id, id, foreign.id),
      await move(foreign.id, outsider.profile._id, to.id),
      await move(from.id, id, to.id, other.token),
      await move(from.id, id, archived.id),
      await move(to.id, id, from.id),
      await move(from.id, id, from.id),
      await move(from.id, id, '00000000-0000-4000-8000-000000000000'),
    ];
    expect(refusals.map((response) => [response.status, response.body.code])).toEqual([
      [403, 'FORBIDDEN'],
      [403, 'FORBIDDEN'],
      [403, 'FORBIDDEN'],
      [409, 'CLASS_ARCHIVED'],
      [404, 'NOT_FOUND'],
      [400, 'VALIDATION_FAILED'],
      [404, 'NOT_FOUND'],
    ]);
    const noTarget = await t.call({
      method: 'POST',
      url: `/api/classes/${from.id}/students/${id}/move`,
      headers: bearer(teacher.token),
      payload: { toClassId: 'not-a-class' },
    });
    expect(noTarget.body.errors).toEqual([
      { field: 'toClassId', code: 'INVALID_FORMAT', params: { format: 'uuid' }, message: expect.any(String) },
    ]);
    expect(await membershipsOf(id, everyClass)).toEqual([from.id]);
    expect(await membershipsOf(outsider.profile._id, everyClass)).toEqual([foreign.id]);
  });

  it('two moves of one student at once: one wins, the other is a 404, the student is in exactly one class', async () => {
    for (let round = 0; round < 3; round += 1) {
      const from = await classTaughtBy(t, teacher);
      const left = await classTaughtBy(t, teacher);
      const right = await classTaughtBy(t, teacher);
      const student = await signUpStudent(t, { class: from.name });
      const answers = await Promise.all([
        move(from.id, student.profile._id, left.id),
        move(from.id, student.profile._id, right.id),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
      expect(await membershipsOf(student.profile._id, [from.id, left.id, right.id])).toHaveLength(1);
      expect(await membershipsOf(student.profile._id, [from.id])).toEqual([]);
    }
  });

  it('two opposite moves of a student in both classes at once: no deadlock, no 500, still in a class', async () => {
    for (let round = 0; round < 20; round += 1) {
      const first = await classTaughtBy(t, teacher);
      const second = await classTaughtBy(t, teacher);
      const student = await signUpStudent(t, { class: first.name });
      await joinWithCode(student, second.joinCode);
      const answers = await Promise.all([
        move(first.id, student.profile._id, second.id),
        move(second.id, student.profile._id, first.id),
      ]);
      // One after the other, both succeed: the second moves them back. The first's answer is
      // read inside its transaction, so the move back cannot make it a 404 (seen on PostgreSQL).
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect(await membershipsOf(student.profile._id, [first.id, second.id])).toHaveLength(1);
    }
  });
});
