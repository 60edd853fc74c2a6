import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUIZ_LIMITS, type ReviewAnswers, type ReviewScore } from '#shared/quizzes';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, startSecondInstance, type TestApp } from '../../testing/test-app.ts';
import { refreshClosesAt } from './accommodations.ts';
import { createQuizJobsService } from './service.ts';
import { answerKeysIn } from '../../testing/answer-keys.ts';

/** The sweep and the release present no quiz: image addresses are never signed here. */

/**
 * Accommodations (decision 036): who may give them, what is refused, the timer they give a
 * student, and the close they hold back the answer key and after-deadline scores for.
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(() => t.close());

type Actor = Awaited<ReturnType<typeof signUpStudent>> | Awaited<ReturnType<typeof signUpTeacher>>;

const HOUR = 3_600_000;

/** A class of a teacher (with a co-teacher) and two students, and a 10-minute quiz for it due tomorrow. */
async function classWithQuiz(review: { reviewAnswers?: ReviewAnswers; reviewScore?: ReviewScore } = {}) {
  const teacher = await signUpTeacher(t);
  const coTeacher = await signUpTeacher(t);
  const taught = await classTaughtBy(t, teacher, [coTeacher]);
  const accommodated = await signUpStudent(t, { classCode: taught.joinCode });
  const classmate = await signUpStudent(t, { classCode: taught.joinCode });
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload: buildNewQuiz({ classId: taught.id, maxTime: 10, ...review }),
  });
  expect(created.status, created.raw).toBe(201);
  const quizId = created.body.data._id as string;
  const deadline = new Date(created.body.data.deadline as string);
  return { teacher, coTeacher, accommodated, classmate, quizId, deadline };
}

const accommodationUrl = (quizId: string, studentId: string) => `/api/quiz/${quizId}/accommodations/${studentId}`;

const put = (caller: Actor, quizId: string, studentId: string, payload: object) =>
  t.call({ method: 'PUT', url: accommodationUrl(quizId, studentId), headers: bearer(caller.token), payload });

const start = (student: Actor, quizId: string) =>
  t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) });

const detail = (caller: Actor, quizId: string) =>
  t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: bearer(caller.token) });

/** The attempt's own timer, in minutes from its start. */
async function attemptMinutes(quizId: string, studentId: string) {
  const [row] = rowsOf<{ minutes: number }>(
    await t.database.db.execute(sql`select extract(epoch from ends_at - started_at)::float8 / 60 as minutes
      from quiz_attempts where quiz_id = ${quizId}::uuid and student_id = ${studentId}::uuid`),
  );
  return row?.minutes;
}

/** The quiz's own deadline is `ago` ms in the past (its close follows, accommodations included). */
async function moveQuizDeadline(quizId: string, ago: number) {
  await t.database.db.execute(
    sql`update quizzes set deadline = ${new Date(Date.now() - ago).toISOString()}::timestamptz where id = ${quizId}::uuid`,
  );
  await refreshClosesAt(t.database.db, quizId);
}

async function submitFirstOptions(
  student: Actor,
  quizId: string,
  questions: { _id: string; options?: { _id: string }[] }[],
) {
  const submitted = await t.call({
    method: 'POST',
    url: '/api/student/update-student',
    headers: bearer(student.token),
    payload: {
      quiz: {
        _id: quizId,
        questions: questions.map((question) => ({ _id: question._id, response: question.options?.[0]?._id ?? null })),
      },
    },
  });
  expect(submitted.status, submitted.raw).toBe(200);
  return submitted;
}

const hasKey = (body: { data: { quiz: { questions: object[] } } }) => answerKeysIn(body.data.quiz.questions).length > 0;

describe('giving an accommodation', () => {
  it('refuses what is out of bounds, empty, or not later than the quiz’s deadline (400)', async () => {
    const { teacher, accommodated, quizId, deadline } = await classWithQuiz();
    const id = accommodated.profile._id;
    for (const payload of [
      { extraMinutes: 601 },
      { extraMinutes: -1 },
      { extraMinutes: 2.5 },
      { extraPercent: 301 },
      { extraPercent: '50' },
      {},
      { extraMinutes: 0, extraPercent: 0 },
      { deadline: 'tomorrow' },
      { deadline: deadline.toISOString() },
      { deadline: new Date(deadline.getTime() - HOUR).toISOString() },
      { extraMinutes: 5, createdBy: 'someone' },
    ]) {
      const refused = await put(teacher, quizId, id, payload);
      expect(refused.status, JSON.stringify(payload)).toBe(400);
    }
    const list = await t.call({
      method: 'GET',
      url: `/api/quiz/${quizId}/accommodations`,
      headers: bearer(teacher.token),
    });
    expect(list.body.data).toEqual([]);
  });

  it('is for the teachers of the quiz’s class only, and for its students only', async () => {
    const { teacher, coTeacher, accommodated, classmate, quizId } = await classWithQuiz();
    const stranger = await signUpTeacher(t);
    const outsider = await signUpStudent(t, { class: `Elsewhere ${Date.now().toString(36)}` });
    const id = accommodated.profile._id;
    expect((await put(stranger, quizId, id, { extraMinutes: 5 })).status).toBe(403);
    expect((await put(classmate, quizId, id, { extraMinutes: 5 })).status).toBe(403);
    const listed = await t.call({
      method: 'GET',
      url: `/api/quiz/${quizId}/accommodations`,
      headers: bearer(stranger.token),
    });
    expect(listed.status).toBe(403);
    expect((await put(teacher, '00000000-0000-4000-8000-000000000000', id, { extraMinutes: 5 })).status).toBe(404);
    const notInClass = await put(teacher, quizId, outsider.profile._id, { extraMinutes: 5 });
    expect(notInClass.status).toBe(404);
    const removedNothing = await t.call({
      method: 'DELETE',
      url: accommodationUrl(quizId, id),
      headers: bearer(teacher.token),
    });
    expect(removedNothing.status).toBe(404);
    // A co-teacher of the class may give one.
    const given = await put(coTeacher, quizId, id, { extraMinutes: 5 });
    expect(given.status, given.raw).toBe(200);
    expect(given.body.data).toMatchObject({
      extraMinutes: 5,
      extraPercent: null,
      deadline: null,
      effectiveMaxTime: 15,
    });
    const strangerRemoves = await t.call({
      method: 'DELETE',
      url: accommodationUrl(quizId, id),
      headers: bearer(stranger.token),
    });
    expect(strangerRemoves.status).toBe(403);
  });
});

describe('the accommodated student’s timer', () => {
  it('adds the minutes and the percent to the attempt’s time, and shows them only to that student', async () => {
    const { teacher, accommodated, classmate, quizId } = await classWithQuiz();
    const given = await put(teacher, quizId, accommodated.profile._id, { extraMinutes: 5, extraPercent: 25 });
    expect(given.status, given.raw).toBe(200);
    // 10 × 1.25 = 12.5, rounded up to 13, plus 5.
    expect(given.body.data.effectiveMaxTime).toBe(18);
    expect((await detail(accommodated, quizId)).body.data.maxTime).toBe(18);
    expect((await detail(classmate, quizId)).body.data.maxTime).toBe(10);
    const list = await t.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(accommodated.token) });
    expect(list.body.data.find((quiz: { _id: string }) => quiz._id === quizId).maxTime).toBe(18);

    const started = await start(accommodated, quizId);
    expect(started.body.data.maxTime).toBe(18);
    expect((await start(classmate, quizId)).status).toBe(200);
    expect(await attemptMinutes(quizId, accommodated.profile._id)).toBeCloseTo(18, 5);
    const submitted = await submitFirstOptions(accommodated, quizId, started.body.data.quiz.questions);
    expect(submitted.body.data.maxTime).toBe(18);
    expect(await attemptMinutes(quizId, classmate.profile._id)).toBeCloseTo(10, 5);
  });

  it('moves an attempt under way when changed, and gives it the quiz’s time back when removed', async () => {
    const { teacher, accommodated, quizId } = await classWithQuiz();
    expect((await start(accommodated, quizId)).status).toBe(200);
    expect((await put(teacher, quizId, accommodated.profile._id, { extraPercent: 50 })).status).toBe(200);
    expect(await attemptMinutes(quizId, accommodated.profile._id)).toBeCloseTo(15, 5);
    const running = await detail(accommodated, quizId);
    expect(running.body.data.attempt.remainingSeconds).toBeGreaterThan(14 * 60);
    const removed = await t.call({
      method: 'DELETE',
      url: accommodationUrl(quizId, accommodated.profile._id),
      headers: bearer(teacher.token),
    });
    expect(removed.status, removed.raw).toBe(200);
    expect(await attemptMinutes(quizId, accommodated.profile._id)).toBeCloseTo(10, 5);
  });

  it('lets the student start after the quiz’s deadline until their own, with their full time', async () => {
    const { teacher, accommodated, classmate, quizId, deadline } = await classWithQuiz();
    const own = new Date(deadline.getTime() + 24 * HOUR);
    const given = await put(teacher, quizId, accommodated.profile._id, { deadline: own.toISOString() });
    expect(given.status, given.raw).toBe(200);
    expect(given.body.data.effectiveDeadline).toBe(own.toISOString());
    await moveQuizDeadline(quizId, HOUR);

    const online = (student: Actor) =>
      t.call({ method: 'GET', url: '/api/get-all-quiz?view=online', headers: bearer(student.token) });
    const ids = (response: { body: { data: { _id: string }[] } }) => response.body.data.map((quiz) => quiz._id);
    expect(ids(await online(accommodated))).toContain(quizId);
    expect(ids(await online(classmate))).not.toContain(quizId);
    expect((await detail(accommodated, quizId)).body.data.deadline).toBe(own.toISOString());

    const refused = await start(classmate, quizId);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('QUIZ_CLOSED');
    expect((await start(accommodated, quizId)).status).toBe(200);
    expect(await attemptMinutes(quizId, accommodated.profile._id)).toBeCloseTo(10, 5);
  });

  it('refuses a change once the quiz has closed (409), but not taking one back', async () => {
    const { teacher, accommodated, quizId, deadline } = await classWithQuiz();
    const own = new Date(deadline.getTime() + HOUR).toISOString();
    expect((await put(teacher, quizId, accommodated.profile._id, { deadline: own })).status).toBe(200);
    await t.database.db.execute(sql`update quiz_accommodations set deadline = now() - interval '1 hour'
      where quiz_id = ${quizId}::uuid`);
    await moveQuizDeadline(quizId, 2 * HOUR);
    const late = await put(teacher, quizId, accommodated.profile._id, { extraMinutes: 5 });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('ACCOMMODATION_TOO_LATE');
    const removed = await t.call({
      method: 'DELETE',
      url: accommodationUrl(quizId, accommodated.profile._id),
      headers: bearer(teacher.token),
    });
    expect(removed.status).toBe(200);
  });
});

describe('the student’s quiz list (issue 30 point 3)', () => {
  type Timing = { deadline: string; maxTime: number };
  const timingIn = (body: { data: (Timing & { _id: string })[] }, quizId: string): Timing => {
    const listed = body.data.find((quiz) => quiz._id === quizId);
    if (!listed) throw new Error(`quiz ${quizId} is not in the list`);
    return { deadline: listed.deadline, maxTime: listed.maxTime };
  };
  const ownDeadline = (deadline: Date) => new Date(deadline.getTime() + 24 * HOUR).toISOString();

  // Each kind alone and together: the list, the quiz page and the start agree.
  for (const [kind, terms, expected] of [
    ['only a later deadline', { deadline: ownDeadline }, { own: true, maxTime: 10 }],
    ['only extra percent', { extraPercent: 50 }, { own: false, maxTime: 15 }],
    ['only extra minutes', { extraMinutes: 7 }, { own: false, maxTime: 17 }],
    ['all three', { deadline: ownDeadline, extraPercent: 25, extraMinutes: 5 }, { own: true, maxTime: 18 }],
  ] as const) {
    it(`shows ${kind} as the quiz page and the start do`, async () => {
      const { teacher, accommodated, quizId, deadline } = await classWithQuiz();
      const payload = Object.fromEntries(
        Object.entries(terms).map(([name, value]) => [name, typeof value === 'function' ? value(deadline) : value]),
      );
      expect((await put(teacher, quizId, accommodated.profile._id, payload)).status).toBe(200);
      const want = {
        deadline: expected.own ? ownDeadline(deadline) : deadline.toISOString(),
        maxTime: expected.maxTime,
      };

      for (const view of ['', '?view=online']) {
        const list = await t.call({
          method: 'GET',
          url: `/api/get-all-quiz${view}`,
          headers: bearer(accommodated.token),
        });
        expect(timingIn(list.body, quizId), `list${view}`).toEqual(want);
      }
      expect(timingIn({ data: [(await detail(accommodated, quizId)).body.data] }, quizId)).toEqual(want);
      const started = await start(accommodated, quizId);
      expect(timingIn({ data: [started.body.data] }, quizId)).toEqual(want);
      expect(await attemptMinutes(quizId, accommodated.profile._id)).toBeCloseTo(expected.maxTime, 5);
      const attempted = await t.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(accommodated.token) });
      expect(timingIn(attempted.body, quizId), 'list with the attempt').toEqual(want);
    });
  }

  it('keeps each student’s own values through the read cache: a classmate sees the quiz’s', async () => {
    const { teacher, accommodated, classmate, quizId, deadline } = await classWithQuiz();
    // An instance with the read cache on (this file's app reads uncached).
    const cached = await startSecondInstance(t, { readCache: { ttlMs: 60_000 } });
    try {
      const list = (student: Actor) =>
        cached.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(student.token) });
      const quizOwn = { deadline: deadline.toISOString(), maxTime: 10 };
      expect(timingIn((await list(classmate)).body, quizId)).toEqual(quizOwn);
      const given = await cached.call({
        method: 'PUT',
        url: accommodationUrl(quizId, accommodated.profile._id),
        headers: bearer(teacher.token),
        payload: { deadline: ownDeadline(deadline), extraPercent: 50 },
      });
      expect(given.status, given.raw).toBe(200);
      const own = { deadline: ownDeadline(deadline), maxTime: 15 };
      for (let round = 0; round < 2; round += 1) {
        expect(timingIn((await list(accommodated)).body, quizId), `accommodated, round ${round}`).toEqual(own);
        expect(timingIn((await list(classmate)).body, quizId), `classmate, round ${round}`).toEqual(quizOwn);
      }
    } finally {
      await cached.close();
    }
  });
});

describe('the answer key and the scores wait for the latest accommodated close', () => {
  it('shows a classmate who submitted no key while the accommodated student can still answer', async () => {
    const { teacher, accommodated, classmate, quizId, deadline } = await classWithQuiz({
      reviewAnswers: 'after-deadline',
      reviewScore: 'after-deadline',
    });
    const own = new Date(deadline.getTime() + 24 * HOUR);
    expect((await put(teacher, quizId, accommodated.profile._id, { deadline: own.toISOString() })).status).toBe(200);
    const started = await start(classmate, quizId);
    await submitFirstOptions(classmate, quizId, started.body.data.quiz.questions);
    // The quiz's own close (deadline, time, grace) is long past; the accommodated student's is not.
    await moveQuizDeadline(quizId, 2 * HOUR);

    const review = await detail(classmate, quizId);
    expect(hasKey(review.body)).toBe(false);
    expect(review.body.data.attempt.score).toBeUndefined();
    // Their own deadline plus their 10 minutes and the grace.
    const closesAt = new Date(own.getTime() + 10 * 60_000 + QUIZ_LIMITS.graceSeconds * 1000).toISOString();
    expect(review.body.data.attempt.answersVisibleAt).toBe(closesAt);
    const releaseScores = () => createQuizJobsService(t.database.db).releaseScores();
    await releaseScores();
    const [flag] = rowsOf<{ scores_released: boolean }>(
      await t.database.db.execute(sql`select scores_released from quizzes where id = ${quizId}::uuid`),
    );
    expect(flag!.scores_released).toBe(false);
    expect((await start(accommodated, quizId)).status).toBe(200);

    // Their deadline and time pass, and the sweep closes their attempt: now the key and scores are out.
    await t.database.db.execute(sql`update quiz_accommodations set deadline = now() - interval '1 hour'
      where quiz_id = ${quizId}::uuid`);
    await t.database.db.execute(sql`update quiz_attempts set ends_at = now() - interval '1 hour',
      started_at = now() - interval '70 minutes' where quiz_id = ${quizId}::uuid and submitted_at is null`);
    await refreshClosesAt(t.database.db, quizId);
    await createQuizJobsService(t.database.db).closeExpiredAttempts();
    expect(await releaseScores()).toBeGreaterThanOrEqual(1);
    const after = await detail(classmate, quizId);
    expect(hasKey(after.body)).toBe(true);
    expect(after.body.data.attempt.score).toEqual(expect.any(Number));
  });
});
