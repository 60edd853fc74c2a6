import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUIZ_LIMITS } from '#shared/quizzes';
import { students } from '../../db/schema.ts';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createQuizJobsService } from './service.ts';
import { refreshClosesAt } from './accommodations.ts';

/** The sweep and the release present no quiz: image addresses are never signed here. */

/**
 * Decision 032's release at the quiz's close, racing a late submission (closed by the timer with
 * its saved answers) and the attempt sweep. Whatever order PostgreSQL runs them in, every
 * student's stored average counts the quiz once it is released. Meant for TEST_DATABASE_URL.
 */

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(() => t.close());

const service = () => createQuizJobsService(t.database.db);

describe('the release at the close races a late submission', () => {
  it('leaves every stored average counting the released quiz', async () => {
    for (let round = 0; round < 6; round++) {
      const className = `Race ${Date.now().toString(36)}${round}`;
      const teacher = await signUpTeacher(t);
      const early = await signUpStudent(t, { class: className });
      const late = await signUpStudent(t, { class: className });
      const created = await t.call({
        method: 'POST',
        url: '/api/teacher/add-quiz',
        headers: bearer(teacher.token),
        payload: buildNewQuiz({ classId: await classIdTaughtBy(t, teacher, className), reviewScore: 'after-deadline' }),
      });
      expect(created.status, created.raw).toBe(201);
      const quizId = created.body.data._id as string;
      for (const student of [early, late]) {
        const started = await t.call({
          method: 'POST',
          url: `/api/quiz/${quizId}/start`,
          headers: bearer(student.token),
        });
        expect(started.status).toBe(200);
        const questions = started.body.data.quiz.questions as { _id: string; options: { _id: string }[] }[];
        // Every first option: '4' and 'Paris' are right when shuffled there, so only compare stored with attempts.
        const answers = Object.fromEntries(questions.map((question) => [question._id, question.options[0]!._id]));
        const saved = await t.call({
          method: 'PUT',
          url: `/api/quiz/${quizId}/answers`,
          headers: bearer(student.token),
          payload: { answers },
        });
        expect(saved.status, saved.raw).toBe(200);
      }
      const submitted = await t.call({
        method: 'POST',
        url: '/api/student/update-student',
        headers: bearer(early.token),
        payload: { quiz: { _id: quizId, questions: [] } },
      });
      expect(submitted.status, submitted.raw).toBe(200);
      // The close has just passed; the late attempt ran out without being submitted.
      await t.database.db.execute(sql`update quizzes
        set deadline = now() - make_interval(mins => max_time_minutes, secs => ${QUIZ_LIMITS.graceSeconds + 1})
        where id = ${quizId}::uuid`);
      await t.database.db.execute(sql`update quiz_attempts
        set ends_at = now() - make_interval(secs => ${QUIZ_LIMITS.graceSeconds + 1}) where quiz_id = ${quizId}::uuid`);
      await refreshClosesAt(t.database.db, quizId);

      const [lateSubmit] = await Promise.all([
        t.call({
          method: 'POST',
          url: '/api/student/update-student',
          headers: bearer(late.token),
          payload: { quiz: { _id: quizId, questions: [] } },
        }),
        service().releaseScores(),
        service().closeExpiredAttempts(),
      ]);
      expect([200, 409], lateSubmit.raw).toContain(lateSubmit.status);
      await service().releaseScores();

      const result = await t.database.db.execute(
        sql`select student_id as "studentId", score from quiz_attempts where quiz_id = ${quizId}::uuid and submitted_at is not null`,
      );
      // numeric(8,2) arrives from a raw statement as text ("1.00").
      const attempts = rowsOf<{ studentId: string; score: string }>(result);
      expect(attempts).toHaveLength(2);
      for (const { studentId, score } of attempts) {
        const [row] = await t.database.db.select().from(students).where(eq(students.id, studentId));
        expect({ average: row!.averageScore, attempted: row!.quizzesAttempted }).toEqual({
          average: Number(score),
          attempted: 1,
        });
      }
    }
  });
});
