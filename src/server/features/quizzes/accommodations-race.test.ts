import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * An accommodation given while its student starts the quiz (decision 036): whichever commits
 * first, the attempt ends at its start plus the accommodated time, never the quiz's own (a lost
 * update). Meant for TEST_DATABASE_URL, where the two run at once.
 */

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(() => t.close());

describe('an accommodation racing the start', () => {
  it('always gives the attempt the accommodated time', async () => {
    const teacher = await signUpTeacher(t);
    const taught = await classTaughtBy(t, teacher);
    const students = await Promise.all(
      Array.from({ length: 8 }, () => signUpStudent(t, { classCode: taught.joinCode })),
    );
    const created = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: bearer(teacher.token),
      payload: buildNewQuiz({ classId: taught.id, maxTime: 10 }),
    });
    expect(created.status, created.raw).toBe(201);
    const quizId = created.body.data._id as string;

    // Each student's start and their accommodation at the same moment, every pair at once.
    const responses = await Promise.all(
      students.flatMap((student) => [
        t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) }),
        t.call({
          method: 'PUT',
          url: `/api/quiz/${quizId}/accommodations/${student.profile._id}`,
          headers: bearer(teacher.token),
          payload: { extraMinutes: 20 },
        }),
      ]),
    );
    for (const response of responses) expect(response.status, response.raw).toBe(200);

    const minutes = rowsOf<{ minutes: number }>(
      await t.database.db.execute(sql`select extract(epoch from ends_at - started_at)::float8 / 60 as minutes
        from quiz_attempts where quiz_id = ${quizId}::uuid`),
    );
    expect(minutes.map((row) => Math.round(row.minutes))).toEqual(students.map(() => 30));
  });
});
