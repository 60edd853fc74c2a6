import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerValue } from '#shared/question-types';
import type { QuestionInput, QuizQuestion, ReviewAnswers, ReviewScore, TeacherQuizDetail } from '#shared/quizzes';
import { quizFor, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { editBodyOf, OPAQUE_ID } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { refreshClosesAt } from './accommodations.ts';

/**
 * The question types over real HTTP (issue 20, decision 036): a quiz of every type is created,
 * started, answered per type (wrong shapes refused, naming the question), reloaded, submitted
 * and scored by points; no part of the key leaves to a student before the review options allow.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Actor = { token: string };

const QUESTIONS: QuestionInput[] = [
  {
    type: 'single',
    question_text: 'Single: 2 + 2?',
    points: 2,
    options: [
      { text: '4', correct: true },
      { text: '5', correct: false },
    ],
  },
  {
    type: 'multiple',
    question_text: 'Partial: primes?',
    points: 3,
    scoring: 'partial',
    options: [
      { text: '2', correct: true },
      { text: '3', correct: true },
      { text: '5', correct: true },
      { text: '4', correct: false },
    ],
  },
  {
    type: 'multiple',
    question_text: 'All or nothing: even?',
    points: 1,
    options: [
      { text: '2', correct: true },
      { text: '4', correct: true },
      { text: '5', correct: false },
    ],
  },
  { type: 'true-false', question_text: 'True or false: the sky is green.', points: 1, correct: false },
  { type: 'short-text', question_text: 'Short: capital of France?', points: 1.5, accepted: ['Paris', 'Lutetia'] },
  { type: 'numeric', question_text: 'Numeric: pi to 2 places?', points: 1, value: 3.14, tolerance: 0.01 },
  // SPEC §3's shape: a single choice of 1 point.
  { question_text: 'Legacy: capital of Italy?', options: ['Rome', 'Milan'], answer: 'Rome' },
];
const TOTAL = 2 + 3 + 1 + 1 + 1.5 + 1 + 1;
/** The key's fields: none of them may reach a student before the review shows the key. */
const KEY_FIELDS = /"(correct|accepted|value|tolerance)"/;

async function createQuiz(
  teacher: Actor & { profile: { _id: string } },
  review: { reviewAnswers?: ReviewAnswers; reviewScore?: ReviewScore } = {},
) {
  const payload = await quizFor(t, teacher, {
    ...review,
    quiz: { background: undefined as never, questions: QUESTIONS },
  });
  payload.quiz.background = '/images/quiz-templates/quiz1-template.png';
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload,
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data._id as string;
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, actor: Actor, payload?: unknown) =>
  t.call({
    method,
    url,
    headers: bearer(actor.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** The questions of an attempt by their text's prefix (before the colon). */
const byKind = (questions: QuizQuestion[]) =>
  Object.fromEntries(questions.map((question) => [question.question_text.split(':')[0]!, question]));
const optionId = (question: QuizQuestion, text: string) =>
  question.options!.find((option) => option.text === text)!._id;

async function startedQuiz(review: { reviewAnswers?: ReviewAnswers; reviewScore?: ReviewScore } = {}) {
  const teacher = await signUpTeacher(t);
  const student = await signUpStudent(t);
  const quizId = await createQuiz(teacher, review);
  const started = await call('POST', `/api/quiz/${quizId}/start`, student);
  expect(started.status, started.raw).toBe(200);
  expect(started.raw).not.toMatch(KEY_FIELDS);
  return { teacher, student, quizId, q: byKind(started.body.data.quiz.questions as QuizQuestion[]) };
}

describe('question types', () => {
  it('stores every type with its key and points for the teacher, and shows a student no key while answering', async () => {
    const { teacher, student, quizId, q } = await startedQuiz();
    const detail = await call('GET', `/api/quiz/${quizId}`, teacher);
    expect(detail.body.data.totalPoints).toBe(TOTAL);
    const teacherView = byKind(detail.body.data.quiz.questions as QuizQuestion[]);
    expect(teacherView['True or false']).toMatchObject({ type: 'true-false', points: 1, correct: false });
    expect(teacherView['Short']).toMatchObject({ type: 'short-text', points: 1.5, accepted: ['Paris', 'Lutetia'] });
    expect(teacherView['Numeric']).toMatchObject({ type: 'numeric', value: 3.14, tolerance: 0.01 });
    expect(teacherView['Partial']).toMatchObject({ scoring: 'partial', points: 3 });
    expect(teacherView['Legacy']).toMatchObject({
      type: 'single',
      points: 1,
      options: [
        { _id: expect.stringMatching(OPAQUE_ID), text: 'Rome', correct: true },
        { _id: expect.stringMatching(OPAQUE_ID), text: 'Milan', correct: false },
      ],
    });

    // The student's attempt: options (ids and texts) only for choices, scoring of multiple, no key.
    expect(q['Single']).toMatchObject({ type: 'single', points: 2, response: null });
    expect(q['Single']!.options!.map((option) => Object.keys(option).sort())).toEqual([
      ['_id', 'text'],
      ['_id', 'text'],
    ]);
    expect(q['Partial']).toMatchObject({ scoring: 'partial' });
    for (const kind of ['True or false', 'Short', 'Numeric']) expect(q[kind]!.options).toBeUndefined();
    const during = await call('GET', `/api/quiz/${quizId}`, student);
    expect(during.raw).not.toMatch(KEY_FIELDS);
    expect(during.raw).not.toContain('earnedPoints');
  });

  it('saves each type’s answer, refuses a wrong shape or an unknown option naming the question, and reloads them', async () => {
    const { student, quizId, q } = await startedQuiz();
    const save = (answers: Record<string, AnswerValue | null>) =>
      call('PUT', `/api/quiz/${quizId}/answers`, student, { answers });
    const refusals: [string, AnswerValue][] = [
      [q['Single']!._id, true],
      [q['Single']!._id, 'o9'],
      [q['Partial']!._id, optionId(q['Partial']!, '2')],
      [q['Partial']!._id, ['o9']],
      [q['True or false']!._id, 'false'],
      [q['Short']!._id, ['Paris']],
      [q['Numeric']!._id, 'three'],
    ];
    for (const [id, value] of refusals) {
      const refused = await save({ [id]: value });
      expect([refused.status, refused.body.code], `${id} ${JSON.stringify(value)}`).toEqual([400, 'VALIDATION_FAILED']);
      expect(refused.body.message).toContain(`answers.${id}`);
    }
    const answers: Record<string, AnswerValue> = {
      [q['Single']!._id]: optionId(q['Single']!, '4'),
      [q['Partial']!._id]: [optionId(q['Partial']!, '2'), optionId(q['Partial']!, '4')],
      [q['True or false']!._id]: false,
      [q['Short']!._id]: '  paris ',
      [q['Numeric']!._id]: '3,15',
    };
    const saved = await save(answers);
    expect(saved.status, saved.raw).toBe(200);
    const reloaded = byKind((await call('GET', `/api/quiz/${quizId}`, student)).body.data.quiz.questions);
    for (const question of Object.values(reloaded)) {
      expect(question.response, question.question_text).toEqual(answers[question._id] ?? null);
    }
    // null and an empty text clear an answer.
    expect((await save({ [q['Short']!._id]: '', [q['Partial']!._id]: null })).status).toBe(200);
    const cleared = byKind((await call('GET', `/api/quiz/${quizId}`, student)).body.data.quiz.questions);
    expect([cleared['Short']!.response, cleared['Partial']!.response]).toEqual([null, null]);
  });

  it('scores by points: partial credit, all or nothing, tolerance bounds, normalised short answers, empty answers', async () => {
    const { student, quizId, q } = await startedQuiz({ reviewAnswers: 'after-submit' });
    await call('PUT', `/api/quiz/${quizId}/answers`, student, {
      answers: { [q['Numeric']!._id]: '3.15' }, // at the tolerance's edge: right
    });
    const submitted = await call('POST', '/api/student/update-student', student, {
      quiz: {
        _id: quizId,
        questions: [
          { _id: q['Single']!._id, response: optionId(q['Single']!, '4') },
          // 2 of 3 right and 1 wrong: (2 - 1) / 3 of 3 points.
          { _id: q['Partial']!._id, response: ['2', '3', '4'].map((text) => optionId(q['Partial']!, text)) },
          // One right of two, no wrong: all or nothing gives 0.
          { _id: q['All or nothing']!._id, response: [optionId(q['All or nothing']!, '2')] },
          { _id: q['True or false']!._id, response: false },
          { _id: q['Short']!._id, response: '  LUTETIA ' },
          // SPEC §7: the option's text as selectedOption.
          { _id: q['Legacy']!._id, selectedOption: 'Milan' },
        ],
      },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    const earned = 2 + 1 + 0 + 1 + 1.5 + 1 + 0;
    expect(submitted.body.data.attempt).toMatchObject({
      score: earned,
      accuracy: String(Math.round((earned * 10_000) / TOTAL) / 100),
    });
    const review = byKind(submitted.body.data.quiz.questions as QuizQuestion[]);
    expect(Object.fromEntries(Object.entries(review).map(([kind, question]) => [kind, question.earnedPoints]))).toEqual(
      {
        Single: 2,
        Partial: 1,
        'All or nothing': 0,
        'True or false': 1,
        Short: 1.5,
        Numeric: 1,
        Legacy: 0,
      },
    );
    // After submitting with the key shown: every type's key is there.
    expect(review['Numeric']).toMatchObject({ value: 3.14, tolerance: 0.01 });
    expect(review['Short']).toMatchObject({ accepted: ['Paris', 'Lutetia'] });
    expect(review['True or false']).toMatchObject({ correct: false });
  });

  it('gives no credit just outside the tolerance and none for empty answers', async () => {
    const { student, quizId, q } = await startedQuiz();
    const submitted = await call('POST', '/api/student/update-student', student, {
      quiz: {
        _id: quizId,
        questions: [
          { _id: q['Numeric']!._id, response: '3.1501' },
          { _id: q['Short']!._id, response: '' },
          { _id: q['Partial']!._id, response: [] },
        ],
      },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    expect(submitted.body.data.attempt).toMatchObject({ score: 0, accuracy: '0' });
  });

  for (const reviewAnswers of ['after-deadline', 'never'] as const) {
    it(`keeps the whole key from a student after submitting with answers shown ${reviewAnswers}`, async () => {
      const { student, quizId } = await startedQuiz({ reviewAnswers });
      const submitted = await call('POST', '/api/student/update-student', student, {
        quiz: { _id: quizId, questions: [] },
      });
      expect(submitted.status, submitted.raw).toBe(200);
      expect(submitted.raw).not.toMatch(KEY_FIELDS);
      expect((await call('GET', `/api/quiz/${quizId}`, student)).raw).not.toMatch(KEY_FIELDS);
      // Past the quiz's close: "after-deadline" shows it, "never" never does.
      await t.database.db.execute(
        sql`update quizzes set deadline = now() - interval '1 day' where id = ${quizId}::uuid`,
      );
      await refreshClosesAt(t.database.db, quizId);
      const later = await call('GET', `/api/quiz/${quizId}`, student);
      if (reviewAnswers === 'never') expect(later.raw).not.toMatch(KEY_FIELDS);
      else expect(later.raw).toMatch(/"accepted"/);
    });
  }
});

describe('short answers with wildcards (decision 049)', () => {
  const WILDCARD_QUESTIONS: QuestionInput[] = [
    {
      type: 'short-text',
      question_text: 'Wild: a word for a shade?',
      points: 2,
      accepted: ['*colour*'],
      partial: [{ text: 'colo*r', weight: 50 }],
      wildcards: true,
    },
    // No flag: the star is a star, as in every quiz written before wildcards.
    { type: 'short-text', question_text: 'Star: two times three, in code?', points: 1, accepted: ['2*3'] },
  ];
  const WILDCARD_KEY = /"(accepted|partial|wildcards)"/;

  async function submit(student: Actor, quizId: string, responses: Record<string, string>) {
    const started = await call('POST', `/api/quiz/${quizId}/start`, student);
    expect(started.status, started.raw).toBe(200);
    expect(started.raw).not.toMatch(WILDCARD_KEY);
    const q = byKind(started.body.data.quiz.questions as QuizQuestion[]);
    const submitted = await call('POST', '/api/student/update-student', student, {
      quiz: {
        _id: quizId,
        questions: Object.entries(responses).map(([kind, response]) => ({ _id: q[kind]!._id, response })),
      },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    return submitted;
  }

  it('scores a submitted attempt by the wildcards, keeps a literal star literal, and regrades when they are turned off', async () => {
    const teacher = await signUpTeacher(t);
    const [first, second] = [await signUpStudent(t), await signUpStudent(t)];
    const payload = await quizFor(t, teacher, {
      reviewAnswers: 'after-submit',
      quiz: { background: '/images/quiz-templates/quiz1-template.png', questions: WILDCARD_QUESTIONS },
    });
    const created = await call('POST', '/api/teacher/add-quiz', teacher, payload);
    expect(created.status, created.raw).toBe(201);
    const quizId = created.body.data._id as string;
    const teacherDetail = async (id: string) =>
      (await call('GET', `/api/quiz/${id}`, teacher)).body.data as TeacherQuizDetail;

    const a = await submit(first, quizId, { Wild: '  The COLOUR red ', Star: '2 x 3' });
    expect(a.body.data.attempt).toMatchObject({ score: 2 });
    const review = byKind(a.body.data.quiz.questions as QuizQuestion[]);
    expect([review['Wild']!.earnedPoints, review['Star']!.earnedPoints]).toEqual([2, 0]);
    // The review shows the key once its options allow: the patterns, and that they are patterns.
    expect(review['Wild']).toMatchObject({ accepted: ['*colour*'], wildcards: true });
    expect(review['Star']!.accepted).toEqual(['2*3']);
    expect(review['Star']!.wildcards).toBeUndefined();
    const b = await submit(second, quizId, { Wild: 'Color', Star: '2*3' });
    expect(b.body.data.attempt).toMatchObject({ score: 2 });
    expect(byKind(b.body.data.quiz.questions as QuizQuestion[])['Wild']!.earnedPoints).toBe(1);

    // An edit that changes nothing keeps the flag and the partial answer: nothing to regrade.
    const unchanged = await call('PUT', `/api/quizzes/${quizId}`, teacher, editBodyOf(await teacherDetail(quizId)));
    expect(unchanged.status, unchanged.raw).toBe(200);
    expect(unchanged.body.data.regrade).toBeNull();
    // Turned off, `*colour*` is a literal text nobody typed: a regrade takes the points back.
    const detail = await teacherDetail(quizId);
    expect(byKind(detail.quiz.questions)['Wild']).toMatchObject({
      wildcards: true,
      partial: [{ text: 'colo*r', weight: 50 }],
    });
    const body = editBodyOf(detail);
    const edited = await call('PUT', `/api/quizzes/${quizId}`, teacher, {
      ...body,
      quiz: {
        ...body.quiz,
        questions: body.quiz.questions.map((question) =>
          question.type === 'short-text' && question.wildcards ? { ...question, wildcards: false } : question,
        ),
      },
    });
    expect(edited.status, edited.raw).toBe(200);
    expect(edited.body.data.regrade).toEqual({ attemptsChanged: 2 });
    const after = await teacherDetail(quizId);
    expect(byKind(after.quiz.questions)['Wild']!.wildcards).toBeUndefined();
    expect(after.attempts.map((attempt) => attempt.score).sort()).toEqual([0, 1]);
  });
});

describe('number questions with several answers worth 100 % (decision 043, addendum)', () => {
  // Moodle's square roots of 4: each root its own full answer with its own tolerance, a near miss half.
  const FURTHER = [
    { value: -2, tolerance: 0.01, weight: 100 },
    { value: 2, tolerance: 0.5, weight: 50 },
  ];
  const ROOTS: QuestionInput = {
    type: 'numeric',
    question_text: 'Roots: a square root of 4?',
    points: 2,
    value: 2,
    tolerance: 0,
    partial: FURTHER,
  };

  it('scores each full answer with its own tolerance, keeps them through an unchanged edit, and shows them in the review', async () => {
    const teacher = await signUpTeacher(t);
    const payload = await quizFor(t, teacher, {
      reviewAnswers: 'after-submit',
      quiz: { background: '/images/quiz-templates/quiz1-template.png', questions: [ROOTS] },
    });
    const created = await call('POST', '/api/teacher/add-quiz', teacher, payload);
    expect(created.status, created.raw).toBe(201);
    const quizId = created.body.data._id as string;

    const earned: Record<string, number | undefined> = {};
    for (const response of ['2', '-2,005', '2.4', '-2.1']) {
      const student = await signUpStudent(t);
      const started = await call('POST', `/api/quiz/${quizId}/start`, student);
      expect(started.status, started.raw).toBe(200);
      expect(started.raw).not.toMatch(/"(value|tolerance|partial)"/);
      const questionId = (started.body.data.quiz.questions as QuizQuestion[])[0]!._id;
      const submitted = await call('POST', '/api/student/update-student', student, {
        quiz: { _id: quizId, questions: [{ _id: questionId, response }] },
      });
      expect(submitted.status, submitted.raw).toBe(200);
      const [reviewed] = submitted.body.data.quiz.questions as QuizQuestion[];
      earned[response] = reviewed!.earnedPoints;
      expect(reviewed).toMatchObject({ value: 2, tolerance: 0, partial: FURTHER });
    }
    expect(earned).toEqual({ '2': 2, '-2,005': 2, '2.4': 1, '-2.1': 0 });

    // The editor sends the teacher's view back: the further full answer stays, nothing to regrade.
    const detail = (await call('GET', `/api/quiz/${quizId}`, teacher)).body.data as TeacherQuizDetail;
    const unchanged = await call('PUT', `/api/quizzes/${quizId}`, teacher, editBodyOf(detail));
    expect(unchanged.status, unchanged.raw).toBe(200);
    expect(unchanged.body.data.regrade).toBeNull();
    const after = (await call('GET', `/api/quiz/${quizId}`, teacher)).body.data as TeacherQuizDetail;
    expect(after.quiz.questions[0]).toMatchObject({ value: 2, tolerance: 0, partial: FURTHER });
    expect(after.attempts.map((attempt) => attempt.score).sort()).toEqual([0, 1, 2, 2]);
  });

  it('refuses a further number answer worth more than 100 % or nothing (400)', async () => {
    const teacher = await signUpTeacher(t);
    for (const weight of [101, 0]) {
      const payload = await quizFor(t, teacher, {
        quiz: {
          background: '/images/quiz-templates/quiz1-template.png',
          questions: [{ ...ROOTS, partial: [{ value: -2, tolerance: 0, weight }] }],
        },
      });
      const refused = await call('POST', '/api/teacher/add-quiz', teacher, payload);
      expect([refused.status, refused.body.code], refused.raw).toEqual([400, 'VALIDATION_FAILED']);
    }
  });
});
