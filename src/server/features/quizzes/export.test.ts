import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGift } from '#shared/gift';
import type { TypedQuestionInput } from '#shared/question-types';
import { DEFAULT_QUIZ_BACKGROUND } from '#shared/quizzes';
import { quizFor, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const QUESTIONS: TypedQuestionInput[] = [
  {
    type: 'single',
    question_text: 'Capital of France?',
    points: 1,
    options: [
      { text: 'Paris', correct: true },
      { text: 'Lyon', correct: false },
    ],
  },
  {
    type: 'multiple',
    scoring: 'all-or-nothing',
    question_text: String.raw`Which equal \( \frac{1}{2} \)?`,
    points: 2,
    options: [
      { text: '0.5', correct: true },
      { text: '2/4', correct: true },
      { text: '1:2', correct: false },
    ],
  },
  { type: 'true-false', question_text: 'The sun is a star.', points: 1, correct: true },
  { type: 'short-text', question_text: 'A primary colour?', points: 1.5, accepted: ['red', 'blue'] },
  { type: 'numeric', question_text: 'Half of 7?', points: 1, value: 3.5, tolerance: 0.01 },
];

/** A quiz of the teacher's class holding `questions`, made through add-quiz as a teacher would. */
async function storedQuiz(teacher: Awaited<ReturnType<typeof signUpTeacher>>, title: string, questions = QUESTIONS) {
  const payload = await quizFor(t, teacher, { title, quiz: { background: DEFAULT_QUIZ_BACKGROUND, questions } });
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload,
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data._id as string;
}

const exportOf = (token: string, quizId: string, query = '?format=gift') =>
  t.call({ method: 'GET', url: `/api/quizzes/${quizId}/export${query}`, headers: bearer(token) });

describe('GET /api/quizzes/:id/export', () => {
  it('gives the quiz’s teacher a GIFT attachment that reads back as the same questions', async () => {
    const teacher = await signUpTeacher(t);
    const quizId = await storedQuiz(teacher, 'Fractions: "week 1" / test');

    const response = await exportOf(teacher.token, quizId);
    expect(response.status, response.raw).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    // The title's colon, quotes and slash are no file name's: spaces, then one.
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Fractions week 1 test.gift.txt"; filename*=UTF-8''Fractions%20week%201%20test.gift.txt`,
    );
    expect(response.raw).toContain('// points: 2\n// scoring: all-or-nothing\n');
    const { questions, problems } = parseGift(response.raw);
    expect(problems).toEqual([]);
    // The stored ids are not GIFT's: everything else comes back.
    expect(questions.map(({ question }) => question)).toEqual(QUESTIONS);
  });

  it('refuses another teacher (403), a student (403), an unknown quiz (404) and another format (400)', async () => {
    const teacher = await signUpTeacher(t);
    const quizId = await storedQuiz(teacher, 'Quiz');
    const other = await signUpTeacher(t);
    const student = await signUpStudent(t);
    expect((await exportOf(other.token, quizId)).status).toBe(403);
    expect((await exportOf(student.token, quizId)).status).toBe(403);
    expect((await exportOf(teacher.token, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await exportOf(teacher.token, quizId, '?format=xml')).status).toBe(400);
    expect((await exportOf(teacher.token, quizId, '')).status).toBe(200);
  });
});
