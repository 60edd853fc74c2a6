import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QUIZ_BACKGROUNDS,
  QUIZ_LIMITS,
  type NewQuizPayload,
  type QuizQuestion,
  type ReviewAnswers,
  type ReviewScore,
} from '#shared/quizzes';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { foreignAnswerKeys } from '../../testing/answer-keys.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createQuizJobsService } from './service.ts';
import { refreshClosesAt } from './accommodations.ts';

/** The sweep and the release present no quiz: image addresses are never signed here. */

/**
 * Per-quiz review options (issue 19 point 9, decision 032): for each option, at each moment
 * (during the attempt, right after submitting, after the quiz's close), no student response
 * carries the answer key or the score before its moment, and both arrive at it. The quiz's
 * teacher sees everything at once. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let t: TestApp;
let classCounter = 0;

beforeAll(async () => {
  // No read cache: each step reads what the clock and the rows say now.
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(async () => {
  await t.close();
});

type Actor = { token: string; profile: { _id: string } };

/** A teacher's quiz in a class of its own, and a student of that class who has started it. */
async function startedQuiz(
  review: { reviewAnswers?: ReviewAnswers; reviewScore?: ReviewScore },
  questions?: NewQuizPayload['quiz']['questions'],
) {
  classCounter += 1;
  const className = `Review ${Date.now().toString(36)}${classCounter}`;
  const teacher = await signUpTeacher(t);
  const student = await signUpStudent(t, { class: className });
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload: buildNewQuiz({
      classId: await classIdTaughtBy(t, teacher, className),
      ...review,
      ...(questions ? { quiz: { background: QUIZ_BACKGROUNDS[1]!, questions } } : {}),
    }),
  });
  expect(created.status, created.raw).toBe(201);
  const quizId = created.body.data._id as string;
  const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) });
  expect(started.status).toBe(200);
  return { teacher, student, quizId, className, started, created };
}

/** Submits the student's attempt with these answers (update-student, SPEC §7). */
const submit = (student: Actor, quizId: string, questions: object[]) =>
  t.call({
    method: 'POST',
    url: '/api/student/update-student',
    headers: bearer(student.token),
    payload: { quiz: { _id: quizId, questions } },
  });

/** Two right answers of three, so a leaked score (2) or accuracy (66.67) is recognisable. */
async function submitTwoRight(student: Actor, quizId: string, questions: QuizQuestion[]) {
  const right: Record<string, string> = { 'What is 2 + 2?': '4', 'What is the capital of France?': 'Paris' };
  return submit(
    student,
    quizId,
    questions.map((question) => ({
      _id: question._id,
      selectedOption:
        right[question.question_text] ?? question.options?.find((option) => option.text !== '7')?.text ?? null,
    })),
  );
}

/** The quiz's close (decision 032) is now in the past: deadline + time limit + grace, a minute ago. */
async function passClose(quizId: string) {
  await t.database.db.execute(sql`update quizzes
    set deadline = now() - make_interval(mins => max_time_minutes + 1, secs => ${QUIZ_LIMITS.graceSeconds})
    where id = ${quizId}::uuid`);
  await refreshClosesAt(t.database.db, quizId);
}

/** Every response a student can ask for that could carry this quiz's key or score. */
async function studentResponses(student: Actor, quizId: string, className: string) {
  const get = (url: string) => t.call({ method: 'GET', url, headers: bearer(student.token) });
  return {
    quiz: await get(`/api/quiz/${quizId}`),
    start: await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) }),
    list: await get('/api/get-all-quiz'),
    attempted: await get('/api/get-all-quiz?view=attempted'),
    statistics: await get('/api/student/statistics'),
    leaderboard: await get(`/api/get-students?class=${encodeURIComponent(className)}`),
    profile: await t.call({ method: 'POST', url: '/api/student/get-student-by-id', headers: bearer(student.token) }),
  };
}

type Responses = Awaited<ReturnType<typeof studentResponses>>;

async function expectNoKey(student: Actor, responses: Responses) {
  for (const [name, response] of Object.entries(responses)) {
    expect(response.status, `${name}: ${response.raw}`).toBe(200);
    expect(response.raw, name).not.toContain('"correct"');
    expect(await foreignAnswerKeys(t.database, { id: student.profile._id, role: 'student' }, response.body)).toEqual(
      [],
    );
  }
}

function expectKey(responses: Responses) {
  for (const name of ['quiz', 'start'] as const) {
    const questions = responses[name].body.data.quiz.questions as QuizQuestion[];
    expect(questions.map((question) => question.options?.find((option) => option.correct)?.text).sort(), name).toEqual(
      ['4', '7', 'Paris'].sort(),
    );
  }
}

function attemptsOf(responses: Responses, quizId: string) {
  const inList = (response: Responses['list']) =>
    (response.body.data as { _id: string; attempt: unknown }[]).find((quiz) => quiz._id === quizId)?.attempt;
  return [
    responses.quiz.body.data.attempt,
    responses.start.body.data.attempt,
    inList(responses.list),
    inList(responses.attempted),
  ];
}

function expectNoScore(responses: Responses, quizId: string) {
  for (const attempt of attemptsOf(responses, quizId)) {
    expect(attempt).toMatchObject({ status: 'submitted' });
    expect(attempt).not.toHaveProperty('score');
    expect(attempt).not.toHaveProperty('accuracy');
  }
  expect(responses.statistics.body.data).toMatchObject({ quizzesAttempted: 0, averageScore: 0, subjects: [] });
  // Not ranked on a score they may not see: an average would give it away.
  expect(responses.leaderboard.body.data).toEqual([]);
  expect(responses.profile.body.data).toMatchObject({ averageScore: 0, totalScore: 0 });
}

function expectScore(responses: Responses, quizId: string) {
  for (const attempt of attemptsOf(responses, quizId)) {
    expect(attempt).toMatchObject({ status: 'submitted', score: 2, accuracy: '66.67' });
  }
  expect(responses.statistics.body.data).toMatchObject({
    quizzesAttempted: 1,
    averageScore: 2,
    averageAccuracy: 66.67,
  });
  expect(responses.leaderboard.body.data).toMatchObject([{ averageScore: 2, quizzesAttempted: 1 }]);
  expect(responses.profile.body.data).toMatchObject({ averageScore: 2, totalScore: 2 });
}

/** The sweep's release (it runs every minute in the app). */
const releaseScores = () => createQuizJobsService(t.database.db).releaseScores();

describe('review options', () => {
  it('defaults to the key after the deadline and the score after submitting, and tells the teacher', async () => {
    const { created, started, quizId, teacher } = await startedQuiz({});
    expect(created.body.data).toMatchObject({ reviewAnswers: 'after-deadline', reviewScore: 'after-submit' });
    expect(started.body.data).toMatchObject({ reviewAnswers: 'after-deadline', reviewScore: 'after-submit' });
    const teacherView = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: bearer(teacher.token) });
    expect(teacherView.body.data).toMatchObject({ reviewAnswers: 'after-deadline', reviewScore: 'after-submit' });
  });

  it('refuses an unknown option with 400 naming the field, and stores nothing', async () => {
    const teacher = await signUpTeacher(t);
    const countQuizzes = async () =>
      rowsOf<{ count: number }>(await t.database.db.execute(sql`select count(*)::int as count from quizzes`))[0]!.count;
    const before = await countQuizzes();
    for (const [field, value] of [
      ['reviewAnswers', 'tomorrow'],
      ['reviewScore', 'never'],
      ['reviewAnswers', 1],
    ] as const) {
      const refused = await t.call({
        method: 'POST',
        url: '/api/teacher/add-quiz',
        headers: bearer(teacher.token),
        payload: buildNewQuiz({ [field]: value }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ field })]);
    }
    expect(await countQuizzes()).toBe(before);
  });

  it('after-deadline key: none during the attempt, none after submitting, all after the close', async () => {
    const { student, quizId, className, started, teacher } = await startedQuiz({ reviewAnswers: 'after-deadline' });
    expect(started.raw).not.toContain('"correct"');
    const submitted = await submitTwoRight(student, quizId, started.body.data.quiz.questions);
    expect(submitted.status).toBe(200);
    expect(submitted.raw).not.toContain('"correct"');
    const quizRow = rowsOf<{ deadline: Date; max_time_minutes: number }>(
      await t.database.db.execute(sql`select deadline, max_time_minutes from quizzes where id = ${quizId}::uuid`),
    )[0]!;
    const closesAt = new Date(
      new Date(quizRow.deadline).getTime() + quizRow.max_time_minutes * 60_000 + QUIZ_LIMITS.graceSeconds * 1000,
    );
    // The score (after submitting) is there; the key waits, and the review says until when.
    expect(submitted.body.data.attempt).toMatchObject({
      score: 2,
      answersVisibleAt: closesAt.toISOString(),
    });
    const waiting = await studentResponses(student, quizId, className);
    await expectNoKey(student, waiting);
    expectScore(waiting, quizId);
    // The teacher sees the key at once.
    const teacherView = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: bearer(teacher.token) });
    expect(teacherView.raw).toContain('"correct"');

    await passClose(quizId);
    const after = await studentResponses(student, quizId, className);
    expectKey(after);
    expectScore(after, quizId);
  });

  it('after-submit key: none during the attempt, all in the submission and after', async () => {
    const { student, quizId, className, started } = await startedQuiz({ reviewAnswers: 'after-submit' });
    const during = await studentResponses(student, quizId, className);
    await expectNoKey(student, during);
    expect(started.raw).not.toContain('"correct"');
    const submitted = await submitTwoRight(student, quizId, started.body.data.quiz.questions);
    expect(
      (submitted.body.data.quiz.questions as QuizQuestion[])
        .map((question) => question.options?.find((option) => option.correct)?.text)
        .sort(),
    ).toEqual(['4', '7', 'Paris'].sort());
    expect(submitted.body.data.attempt.answersVisibleAt).toBe(submitted.body.data.attempt.attemptedAt);
    expectKey(await studentResponses(student, quizId, className));
  });

  it('never: no key before or after the close, and the review says so (null)', async () => {
    const { student, quizId, className, started } = await startedQuiz({ reviewAnswers: 'never' });
    const submitted = await submitTwoRight(student, quizId, started.body.data.quiz.questions);
    expect(submitted.raw).not.toContain('"correct"');
    expect(submitted.body.data.attempt).toMatchObject({ answersVisibleAt: null, score: 2 });
    await expectNoKey(student, await studentResponses(student, quizId, className));
    await passClose(quizId);
    await releaseScores();
    const after = await studentResponses(student, quizId, className);
    await expectNoKey(student, after);
    expectScore(after, quizId);
  });

  it('after-deadline score: no score anywhere (nor in averages) until the close, then everywhere', async () => {
    const { student, quizId, className, started, teacher } = await startedQuiz({
      reviewAnswers: 'after-deadline',
      reviewScore: 'after-deadline',
    });
    const submitted = await submitTwoRight(student, quizId, started.body.data.quiz.questions);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.attempt).not.toHaveProperty('score');
    expect(submitted.body.data.attempt).not.toHaveProperty('accuracy');
    expect(submitted.body.data.attempt.scoreVisibleAt).toBe(submitted.body.data.attempt.answersVisibleAt);
    const waiting = await studentResponses(student, quizId, className);
    await expectNoKey(student, waiting);
    expectNoScore(waiting, quizId);
    // The teacher's analytics show the score at once.
    const teacherView = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: bearer(teacher.token) });
    expect(teacherView.body.data.attempts).toMatchObject([{ score: 2, accuracy: '66.67' }]);

    // Past the close, the student's own attempt and statistics show it at once; the stored
    // averages (leaderboard, profile) once the sweep has released the quiz.
    await passClose(quizId);
    const beforeRelease = await studentResponses(student, quizId, className);
    for (const attempt of attemptsOf(beforeRelease, quizId)) expect(attempt).toMatchObject({ score: 2 });
    expect(beforeRelease.leaderboard.body.data).toEqual([]);
    expect(await releaseScores()).toBeGreaterThanOrEqual(1);
    expect(await releaseScores()).toBe(0);
    const after = await studentResponses(student, quizId, className);
    expectKey(after);
    expectScore(after, quizId);
  });

  it('releases nothing before the close, even past the deadline while attempts may still run', async () => {
    const { student, quizId, className, started } = await startedQuiz({ reviewScore: 'after-deadline' });
    await submitTwoRight(student, quizId, started.body.data.quiz.questions);
    // The deadline has passed, but an attempt started just before it still has its time.
    await t.database.db.execute(
      sql`update quizzes set deadline = now() - interval '1 minute' where id = ${quizId}::uuid`,
    );
    await refreshClosesAt(t.database.db, quizId);
    await releaseScores();
    const responses = await studentResponses(student, quizId, className);
    await expectNoKey(student, responses);
    expectNoScore(responses, quizId);
  });

  it('refuses answers right after submitting with the score after the deadline: the key reveals it', async () => {
    const teacher = await signUpTeacher(t);
    const before = await t.database.db.execute(sql`select count(*)::int as n from quizzes`);
    const refused = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: bearer(teacher.token),
      payload: buildNewQuiz({
        classId: await classIdTaughtBy(t, teacher, 'Review refused'),
        reviewAnswers: 'after-submit',
        reviewScore: 'after-deadline',
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'reviewScore' }] });
    const after = await t.database.db.execute(sql`select count(*)::int as n from quizzes`);
    expect((after as { rows: unknown[] }).rows).toEqual((before as { rows: unknown[] }).rows);
  });
});

/**
 * Issue 30 point 1: what each question earned is a piece of the key (a true-false question's
 * points are its answer), so it waits for the answers, whatever the score's option says.
 */
describe('per-question points and correctness wait for the answers', () => {
  /** What a student's question may carry before the key: no points earned, no right or wrong. */
  const WITHOUT_KEY = ['_id', 'image', 'options', 'points', 'question_text', 'response', 'scoring', 'type'];
  const PER_QUESTION = /"(earnedPoints|isCorrect|correct)"/;

  const questionsOf = (response: { body: { data: { quiz: { questions: QuizQuestion[] } } } }) =>
    response.body.data.quiz.questions;

  function expectNoPerQuestionResult(name: string, response: Awaited<ReturnType<TestApp['call']>>) {
    expect(response.status, `${name}: ${response.raw}`).toBe(200);
    expect(response.raw, name).not.toMatch(PER_QUESTION);
    for (const question of questionsOf(response)) {
      expect(
        Object.keys(question).filter((field) => !WITHOUT_KEY.includes(field)),
        name,
      ).toEqual([]);
    }
  }

  for (const reviewAnswers of ['after-deadline', 'never'] as const) {
    it(`answers ${reviewAnswers}, score after submitting: the total now, no question's points`, async () => {
      const { student, quizId, className, started } = await startedQuiz({ reviewAnswers, reviewScore: 'after-submit' });
      const submitted = await submitTwoRight(student, quizId, started.body.data.quiz.questions);
      expect(submitted.body.data.attempt).toMatchObject({ score: 2, accuracy: '66.67' });
      expectNoPerQuestionResult('submit', submitted);
      const waiting = await studentResponses(student, quizId, className);
      expectNoPerQuestionResult('quiz', waiting.quiz);
      expectNoPerQuestionResult('start', waiting.start);
      await expectNoKey(student, { ...waiting, submitted } as Responses);
      expectScore(waiting, quizId);

      await passClose(quizId);
      const after = await studentResponses(student, quizId, className);
      if (reviewAnswers === 'never') {
        expectNoPerQuestionResult('quiz after the close', after.quiz);
        expectNoPerQuestionResult('start after the close', after.start);
        await expectNoKey(student, after);
      } else {
        for (const name of ['quiz', 'start'] as const) {
          expect(
            questionsOf(after[name])
              .map((question) => question.earnedPoints)
              .sort(),
            name,
          ).toEqual([0, 1, 1]);
        }
      }
    });
  }

  it('answers after submitting: each question’s points in the submission', async () => {
    const { student, quizId, started } = await startedQuiz({ reviewAnswers: 'after-submit' });
    const submitted = await submitTwoRight(student, quizId, started.body.data.quiz.questions);
    expect(
      questionsOf(submitted)
        .map((question) => question.earnedPoints)
        .sort(),
    ).toEqual([0, 1, 1]);
  });

  it('gives a true-false quiz’s key away nowhere before the close: the total of two says nothing of which', async () => {
    const { student, quizId, className, started } = await startedQuiz({}, [
      { type: 'true-false', question_text: 'The sun is a star.', points: 1, correct: true },
      { type: 'true-false', question_text: 'The moon is a planet.', points: 1, correct: false },
    ]);
    // Both answered true: one right, one wrong; only which one would be the key.
    const submitted = await submit(
      student,
      quizId,
      questionsOf(started).map((question) => ({ _id: question._id, response: true })),
    );
    expect(submitted.body.data.attempt).toMatchObject({ score: 1 });
    const waiting = await studentResponses(student, quizId, className);
    for (const [name, response] of [
      ['submit', submitted],
      ['quiz', waiting.quiz],
      ['start', waiting.start],
    ] as const) {
      expectNoPerQuestionResult(name, response);
      // The two questions differ in their ids and texts only.
      const [sun, moon] = questionsOf(response).map(({ _id, question_text: _text, ...rest }) => rest);
      expect(sun, name).toEqual(moon);
    }
    await expectNoKey(student, waiting);

    await passClose(quizId);
    const review = questionsOf((await studentResponses(student, quizId, className)).quiz);
    expect(review.map((question) => [question.question_text, question.correct, question.earnedPoints])).toEqual(
      expect.arrayContaining([
        ['The sun is a star.', true, 1],
        ['The moon is a planet.', false, 0],
      ]),
    );
  });
});
