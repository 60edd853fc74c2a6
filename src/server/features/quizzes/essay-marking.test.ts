import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TypedQuestionInput } from '#shared/question-types';
import type { EssayToMark } from '#shared/quiz-marking';
import type { QuizQuestion, ReviewAnswers, ReviewScore, TeacherQuizDetail } from '#shared/quizzes';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz, editBodyOf } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Essays marked by hand (issue 30 point 4, decision 046): a submission with an essay awaits
 * marking, the teachers of the quiz's class mark it (nobody else can), a mark moves the total,
 * averages and statistics wait for the last mark, bad marks change nothing, two teachers
 * marking at once lose nothing, and a regrade keeps the marks. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL (where the concurrent marks really run at once).
 */

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(() => t.close());

type Actor = { token: string; profile: { _id: string } };

/** A true-false of 1 point and two essays (4 and 2 points), the first with guidance. */
const QUESTIONS: TypedQuestionInput[] = [
  { type: 'true-false', question_text: 'Ice floats on water.', points: 1, correct: true },
  {
    type: 'essay',
    question_text: 'Why does ice float?',
    points: 4,
    guidance: 'Density; hydrogen bonds for full marks.',
  },
  { type: 'essay', question_text: 'Describe the water cycle.', points: 2 },
];

async function classWithEssayQuiz(review: { reviewAnswers?: ReviewAnswers; reviewScore?: ReviewScore } = {}) {
  const teacher = await signUpTeacher(t);
  const coTeacher = await signUpTeacher(t);
  const otherTeacher = await signUpTeacher(t);
  const taught = await classTaughtBy(t, teacher, [coTeacher]);
  const students = await Promise.all([0, 1, 2].map(() => signUpStudent(t, { classCode: taught.joinCode })));
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload: buildNewQuiz({
      classId: taught.id,
      reviewAnswers: 'after-submit',
      ...review,
      quiz: { background: buildNewQuiz().quiz.background, questions: QUESTIONS },
    }),
  });
  expect(created.status, created.raw).toBe(201);
  return { teacher, coTeacher, otherTeacher, students, quizId: created.body.data._id as string };
}

const get = (caller: Actor, url: string) => t.call({ method: 'GET', url, headers: bearer(caller.token) });

/** Starts and submits: the true-false answered `rightTrueFalse`, the essays with the texts given (null: left empty). */
async function submit(student: Actor, quizId: string, essays: [string | null, string | null], rightTrueFalse = true) {
  const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) });
  expect(started.status, started.raw).toBe(200);
  const questions = started.body.data.quiz.questions as QuizQuestion[];
  const byText = (text: string) => questions.find((question) => question.question_text === text)!._id;
  const submitted = await t.call({
    method: 'POST',
    url: '/api/student/update-student',
    headers: bearer(student.token),
    payload: {
      quiz: {
        _id: quizId,
        questions: [
          { _id: byText('Ice floats on water.'), response: rightTrueFalse },
          { _id: byText('Why does ice float?'), response: essays[0] },
          { _id: byText('Describe the water cycle.'), response: essays[1] },
        ],
      },
    },
  });
  expect(submitted.status, submitted.raw).toBe(200);
  return submitted.body.data;
}

const listEssays = (caller: Actor, quizId: string, query = '') => get(caller, `/api/quiz/${quizId}/essays${query}`);

const mark = (caller: Actor, quizId: string, essay: EssayToMark, payload: object) =>
  t.call({
    method: 'PUT',
    url: `/api/quiz/${quizId}/essays/${essay.attemptId}/${essay.question._id}`,
    headers: bearer(caller.token),
    payload: { version: essay.version, ...payload },
  });

async function storedAttempt(quizId: string, studentId: string) {
  const [row] = rowsOf<{ score: number; essays_awaiting: number; quizzes_attempted: number; total_score: number }>(
    await t.database.db.execute(sql`select a.score::float8 as score, a.essays_awaiting, s.quizzes_attempted,
      s.total_score from quiz_attempts a join students s on s.id = a.student_id
      where a.quiz_id = ${quizId}::uuid and a.student_id = ${studentId}::uuid`),
  );
  return row!;
}

async function storedMarks(quizId: string) {
  return rowsOf<{ points: number | null; version: number; comment: string | null }>(
    await t.database.db.execute(sql`select points::float8 as points, version, comment from quiz_essay_marks
      where quiz_id = ${quizId}::uuid order by position, submitted_at`),
  );
}

describe('a submission with an essay', () => {
  it('awaits marking: no final score, the points so far, counted in no average or statistics', async () => {
    const { teacher, students, quizId } = await classWithEssayQuiz();
    const [student] = students;
    const submitted = await submit(student!, quizId, ['Because it is less dense than water.', null]);
    expect(submitted.attempt).toMatchObject({ status: 'submitted', awaitingMarking: true, scoreSoFar: 1 });
    expect(submitted.attempt).not.toHaveProperty('score');
    expect(submitted.attempt).not.toHaveProperty('accuracy');
    const questions = submitted.quiz.questions as QuizQuestion[];
    const [answered, empty] = ['Why does ice float?', 'Describe the water cycle.'].map((text) =>
      questions.find((question) => question.question_text === text)!,
    );
    // The answered essay awaits a mark and shows no points; the empty one earned 0 and awaits nothing.
    expect(answered).toMatchObject({
      type: 'essay',
      awaitingMarking: true,
      response: 'Because it is less dense than water.',
    });
    expect(answered).not.toHaveProperty('earnedPoints');
    expect(empty).toMatchObject({ earnedPoints: 0 });
    expect(empty).not.toHaveProperty('awaitingMarking');
    // Marking guidance never reaches a student.
    expect(JSON.stringify(submitted)).not.toContain('hydrogen bonds');
    expect(JSON.stringify((await get(student!, `/api/quiz/${quizId}`)).body)).not.toContain('hydrogen bonds');

    const listed = await get(student!, '/api/get-all-quiz?view=attempted');
    expect(listed.body.data[0].attempt).toMatchObject({ awaitingMarking: true, scoreSoFar: 1 });
    const statistics = await get(student!, '/api/student/statistics');
    expect(statistics.body.data).toMatchObject({ quizzesAttempted: 0, subjects: [] });
    expect(await storedAttempt(quizId, student!.profile._id)).toMatchObject({
      score: 1,
      essays_awaiting: 1,
      quizzes_attempted: 0,
    });

    // The teacher sees the attempt awaiting marking, with the guidance.
    const detail = (await get(teacher, `/api/quiz/${quizId}`)).body.data as TeacherQuizDetail;
    expect(detail.attempts[0]).toMatchObject({ awaitingMarking: true, score: 1 });
    expect(detail.quiz.questions.find((question) => question.type === 'essay')).toMatchObject({
      guidance: 'Density; hydrogen bonds for full marks.',
    });
  });

  it('with every essay left empty, is final at once', async () => {
    const { students, quizId } = await classWithEssayQuiz();
    const submitted = await submit(students[0]!, quizId, [null, '   ']);
    expect(submitted.attempt).toMatchObject({ score: 1, accuracy: String(Math.round(10_000 / 7) / 100) });
    expect(submitted.attempt).not.toHaveProperty('awaitingMarking');
    expect(await storedMarks(quizId)).toEqual([]);
  });
});

describe('marking an essay', () => {
  it('lists the essays awaiting marking to the class’s teachers, question by question, paged', async () => {
    const { teacher, coTeacher, students, quizId } = await classWithEssayQuiz();
    for (const [index, student] of students.entries())
      await submit(student, quizId, [`Ice ${index}`, `Cycle ${index}`]);
    const first = await listEssays(teacher, quizId, '?limit=4');
    expect(first.status, first.raw).toBe(200);
    const essays = first.body.data as EssayToMark[];
    expect(essays.map((essay) => `${essay.question.number} ${essay.text}`)).toEqual([
      '2 Ice 0',
      '2 Ice 1',
      '2 Ice 2',
      '3 Cycle 0',
    ]);
    expect(first.body.page).toMatchObject({ hasMore: true });
    expect(essays[0]).toMatchObject({
      question: { points: 4, guidance: 'Density; hydrogen bonds for full marks.' },
      student: { _id: students[0]!.profile._id },
      mark: null,
      version: 0,
    });
    const rest = await listEssays(coTeacher, quizId, '?limit=4&offset=4');
    expect((rest.body.data as EssayToMark[]).map((essay) => essay.text)).toEqual(['Cycle 1', 'Cycle 2']);
    expect(rest.body.page).toMatchObject({ hasMore: false });
    expect((await listEssays(teacher, quizId, '?view=marked')).body.data).toEqual([]);
  });

  it('moves the total; the last mark makes the score final and counted, with the points and comment', async () => {
    const { teacher, coTeacher, students, quizId } = await classWithEssayQuiz();
    const [student] = students;
    await submit(student!, quizId, ['Less dense.', 'Rain, rivers, sea, clouds.']);
    const [ice, cycle] = (await listEssays(teacher, quizId)).body.data as EssayToMark[];

    const first = await mark(teacher, quizId, ice!, { points: 3.5, comment: 'Say why it is less dense.' });
    expect(first.status, first.raw).toBe(200);
    expect(first.body.data).toMatchObject({ mark: { points: 3.5, comment: 'Say why it is less dense.' }, version: 1 });
    expect(await storedAttempt(quizId, student!.profile._id)).toMatchObject({
      score: 4.5,
      essays_awaiting: 1,
      quizzes_attempted: 0,
    });
    let seen = (await get(student!, `/api/quiz/${quizId}`)).body.data;
    expect(seen.attempt).toMatchObject({ awaitingMarking: true, scoreSoFar: 4.5 });

    // The co-teacher marks the other one: the attempt is final, its score counted.
    const second = await mark(coTeacher, quizId, cycle!, { points: 2 });
    expect(second.status, second.raw).toBe(200);
    expect(await storedAttempt(quizId, student!.profile._id)).toMatchObject({
      score: 6.5,
      essays_awaiting: 0,
      quizzes_attempted: 1,
      total_score: 6.5,
    });
    seen = (await get(student!, `/api/quiz/${quizId}`)).body.data;
    expect(seen.attempt).toMatchObject({ score: 6.5, accuracy: String(Math.round(65_000 / 7) / 100) });
    expect(seen.attempt).not.toHaveProperty('awaitingMarking');
    const iceQuestion = (seen.quiz.questions as QuizQuestion[]).find(
      (question) => question.question_text === 'Why does ice float?',
    );
    expect(iceQuestion).toMatchObject({ earnedPoints: 3.5, comment: 'Say why it is less dense.' });
    expect(iceQuestion).not.toHaveProperty('awaitingMarking');
    const statistics = await get(student!, '/api/student/statistics');
    expect(statistics.body.data).toMatchObject({ quizzesAttempted: 1, averageScore: 6.5 });
    expect((await listEssays(teacher, quizId)).body.data).toEqual([]);
    expect(
      ((await listEssays(teacher, quizId, '?view=marked')).body.data as EssayToMark[]).map((e) => e.mark?.points),
    ).toEqual([3.5, 2]);
  });

  it('keeps the points and comment from the student until the review options show each question’s points', async () => {
    // The defaults: the key after the close, the score after submitting.
    const { teacher, students, quizId } = await classWithEssayQuiz({ reviewAnswers: 'after-deadline' });
    const [student] = students;
    await submit(student!, quizId, ['Less dense.', null]);
    const [essay] = (await listEssays(teacher, quizId)).body.data as EssayToMark[];
    expect((await mark(teacher, quizId, essay!, { points: 4, comment: 'Perfect.' })).status).toBe(200);
    const seen = (await get(student!, `/api/quiz/${quizId}`)).body.data;
    expect(seen.attempt).toMatchObject({ score: 5 });
    expect(JSON.stringify(seen.quiz)).not.toContain('Perfect.');
    expect(JSON.stringify(seen.quiz)).not.toContain('earnedPoints');
  });

  it('is refused to a teacher of another class (403), a student (403), for no quiz or essay (404)', async () => {
    const { teacher, otherTeacher, students, quizId } = await classWithEssayQuiz();
    await submit(students[0]!, quizId, ['Less dense.', null]);
    const [essay] = (await listEssays(teacher, quizId)).body.data as EssayToMark[];
    expect((await listEssays(otherTeacher, quizId)).status).toBe(403);
    expect((await mark(otherTeacher, quizId, essay!, { points: 1 })).status).toBe(403);
    expect((await listEssays(students[0]!, quizId)).status).toBe(403);
    expect((await mark(students[0]!, quizId, essay!, { points: 4 })).status).toBe(403);
    const missingQuiz = await mark(teacher, '00000000-0000-4000-8000-000000000000', essay!, { points: 1 });
    expect(missingQuiz.status).toBe(404);
    expect(
      (await mark(teacher, quizId, { ...essay!, question: { ...essay!.question, _id: 'nope' } }, { points: 1 })).status,
    ).toBe(404);
    expect(await storedMarks(quizId)).toEqual([{ points: null, version: 0, comment: null }]);
  });

  it('refuses bad points and a stale version, and changes nothing', async () => {
    const { teacher, students, quizId } = await classWithEssayQuiz();
    await submit(students[0]!, quizId, ['Less dense.', null]);
    const [essay] = (await listEssays(teacher, quizId)).body.data as EssayToMark[];
    for (const points of [4.5, 0.3, -1, 'three']) {
      const refused = await mark(teacher, quizId, essay!, { points });
      expect(refused.status, `${points}: ${refused.raw}`).toBe(400);
      expect(refused.body.errors?.[0]?.field).toBe('points');
    }
    const stale = await mark(teacher, quizId, { ...essay!, version: 3 }, { points: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('MARK_CHANGED');
    expect(await storedMarks(quizId)).toEqual([{ points: null, version: 0, comment: null }]);
    expect(await storedAttempt(quizId, students[0]!.profile._id)).toMatchObject({ score: 1, essays_awaiting: 1 });
  });

  it('two teachers marking at once: one mark of the same essay wins, marks of two essays both count', async () => {
    const { teacher, coTeacher, students, quizId } = await classWithEssayQuiz();
    for (const student of students) await submit(student, quizId, ['Less dense.', 'Rain and sea.']);
    const essays = (await listEssays(teacher, quizId)).body.data as EssayToMark[];
    const ofStudent = (student: Actor) => essays.filter((essay) => essay.student._id === student.profile._id);

    // The same essay, from the same version, by both teachers at once: exactly one is taken.
    const [ice] = ofStudent(students[0]!);
    const same = await Promise.all([
      mark(teacher, quizId, ice!, { points: 4 }),
      mark(coTeacher, quizId, ice!, { points: 1 }),
    ]);
    expect(same.map((response) => response.status).sort()).toEqual([200, 409]);
    const winner = same.find((response) => response.status === 200)!.body.data.mark.points as number;
    expect(await storedAttempt(quizId, students[0]!.profile._id)).toMatchObject({
      score: 1 + winner,
      essays_awaiting: 1,
    });

    // Both essays of each other student at once, one by each teacher: every total holds both.
    const both = await Promise.all(
      students.slice(1).flatMap((student) => {
        const [first, second] = ofStudent(student);
        return [mark(teacher, quizId, first!, { points: 3 }), mark(coTeacher, quizId, second!, { points: 1.5 })];
      }),
    );
    for (const response of both) expect(response.status, response.raw).toBe(200);
    for (const student of students.slice(1)) {
      expect(await storedAttempt(quizId, student.profile._id)).toMatchObject({
        score: 5.5,
        essays_awaiting: 0,
        quizzes_attempted: 1,
        total_score: 5.5,
      });
    }
  });

  it('keeps the teachers’ marks through a regrade, within the essay’s new points', async () => {
    const { teacher, students, quizId } = await classWithEssayQuiz();
    await submit(students[0]!, quizId, ['Less dense.', 'Rain.'], false);
    const [ice, cycle] = (await listEssays(teacher, quizId)).body.data as EssayToMark[];
    await mark(teacher, quizId, ice!, { points: 3.5, comment: 'Good.' });
    await mark(teacher, quizId, cycle!, { points: 2 });
    expect(await storedAttempt(quizId, students[0]!.profile._id)).toMatchObject({ score: 5.5 });

    // The true-false's key turns (the student was wrong, now right) and the first essay is worth 3.
    const detail = (await get(teacher, `/api/quiz/${quizId}`)).body.data as TeacherQuizDetail;
    const body = editBodyOf(detail);
    body.quiz.questions = body.quiz.questions.map((question) =>
      question.type === 'true-false'
        ? { ...question, correct: false }
        : question.type === 'essay' && question.question_text === 'Why does ice float?'
          ? { ...question, points: 3 }
          : question,
    );
    const edited = await t.call({
      method: 'PUT',
      url: `/api/quizzes/${quizId}`,
      headers: bearer(teacher.token),
      payload: body,
    });
    expect(edited.status, edited.raw).toBe(200);
    expect(await storedAttempt(quizId, students[0]!.profile._id)).toMatchObject({ score: 1 + 3 + 2 });
    expect((await storedMarks(quizId)).map((row) => [row.points, row.comment])).toEqual([
      [3, 'Good.'],
      [2, null],
    ]);
  });
});
