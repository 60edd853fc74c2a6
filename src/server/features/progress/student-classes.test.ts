import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardEntry } from '#shared/progress';
import type { QuizQuestion } from '#shared/quizzes';
import type { StudentListEntry } from '#shared/students';
import { classCodeNamed, classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * A student's classes are their memberships (decision 031, issue 19 points 3, 5, 8): the
 * `class` of their profile, of the students screen and of leaderboard rows is the names of
 * their classes, and the leaderboard's class is asked for by id, one of the student's own.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const profileOf = async (token: string) =>
  (await call('POST', '/api/student/get-student-by-id', token, {})).body.data as { class: string };

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.call({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });

describe("a student's classes", () => {
  it('shows every class of the student, keeps their leaderboards to them, and forgets a class they left', async () => {
    const tag = randomBytes(3).toString('hex');
    // Named so that sorting by name differs from the order joined.
    const [zeta, alpha, other] = [`Zeta-${tag}`, `Alpha-${tag}`, `Other-${tag}`];
    const teacher = await signUpTeacher(t);
    const zetaOnly = await signUpTeacher(t);
    const zetaId = await classIdTaughtBy(t, teacher, zeta);
    const alphaId = await classIdTaughtBy(t, teacher, alpha);
    const otherId = await classIdTaughtBy(t, teacher, other);
    await classIdTaughtBy(t, zetaOnly, zeta);

    const student = await signUpStudent(t, { class: zeta, name: `Two Classes ${tag}` });
    expect(student.profile.class).toBe(zeta);
    const joined = await call('POST', '/api/student/join-class', student.token, {
      classCode: await classCodeNamed(t, alpha),
    });
    expect(joined.status, joined.raw).toBe(200);

    // The profile: both names, sorted, joined.
    expect((await profileOf(student.token)).class).toBe(`${alpha}, ${zeta}`);

    // The students screen: the classes the caller teaches of the student's.
    const rowFor = async (token: string) =>
      ((await call('GET', `/api/teacher/students?search=${tag}`, token)).body.data as StudentListEntry[]).find(
        (row) => row._id === student.profile._id,
      );
    expect((await rowFor(teacher.token))?.class).toBe(`${alpha}, ${zeta}`);
    expect((await rowFor(zetaOnly.token))?.class).toBe(zeta);

    // An attempt in Zeta puts them on the leaderboards.
    const quiz = await call('POST', '/api/teacher/add-quiz', teacher.token, buildNewQuiz({ classId: zetaId }));
    expect(quiz.status, quiz.raw).toBe(201);
    const quizId = quiz.body.data._id as string;
    const started = await call('POST', `/api/quiz/${quizId}/start`, student.token);
    const questions = started.body.data.quiz.questions as QuizQuestion[];
    const submitted = await call('POST', '/api/student/update-student', student.token, {
      quiz: { _id: quizId, questions: questions.map((q) => ({ _id: q._id, selectedOption: q.options![0]!._id })) },
    });
    expect(submitted.status, submitted.raw).toBe(200);

    const board = async (token: string, classId?: string) => {
      const response = await call('GET', `/api/get-students${classId ? `?classId=${classId}` : ''}`, token);
      return { status: response.status, rows: (response.body.data ?? []) as LeaderboardEntry[] };
    };
    const mine = (rows: LeaderboardEntry[]) => rows.find((row) => row._id === student.profile._id);
    // Default: their first class by name (Alpha), where the row shows both names.
    const byDefault = await board(student.token);
    expect(byDefault.status).toBe(200);
    expect(mine(byDefault.rows)?.class).toBe(`${alpha}, ${zeta}`);
    expect((await board(student.token, zetaId)).rows.map((row) => row._id)).toEqual([student.profile._id]);
    // Another class's board is refused, and names no one.
    const refused = await call('GET', `/api/get-students?classId=${otherId}`, student.token);
    expect(refused.status).toBe(403);
    expect(refused.raw).not.toContain(tag);
    // A teacher may read any class's board.
    expect((await board(teacher.token, otherId)).status).toBe(200);

    // Leaving Zeta: the attempt stays, the class goes from their `class` and from their boards.
    const removed = await call('DELETE', `/api/classes/${zetaId}/students/${student.profile._id}`, teacher.token);
    expect(removed.status, removed.raw).toBe(200);
    expect((await profileOf(student.token)).class).toBe(alpha);
    const statistics = await call('GET', '/api/student/statistics', student.token);
    expect(statistics.body.data.quizzesAttempted).toBe(1);
    expect(mine((await board(student.token, alphaId)).rows)?.class).toBe(alpha);
    expect((await board(student.token, zetaId)).status).toBe(403);
    expect((await rowFor(zetaOnly.token))?.class).toBeUndefined();
  });

  it('answers "" for a student in no class', async () => {
    const teacher = await signUpTeacher(t);
    const name = `Leaver-${randomBytes(3).toString('hex')}`;
    const classId = await classIdTaughtBy(t, teacher, name);
    const student = await signUpStudent(t, { class: name });
    const removed = await call('DELETE', `/api/classes/${classId}/students/${student.profile._id}`, teacher.token);
    expect(removed.status, removed.raw).toBe(200);
    expect((await profileOf(student.token)).class).toBe('');
    // No class: an empty board, not an error.
    const board = await call('GET', '/api/get-students', student.token);
    expect(board.status).toBe(200);
    expect(board.body.data).toEqual([]);
  });
});
