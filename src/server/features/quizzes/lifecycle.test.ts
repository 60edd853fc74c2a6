import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredQuestion, TypedQuestionInput } from '#shared/question-types';
import { QUIZ_LIMITS, type QuizQuestion, type TeacherQuizDetail } from '#shared/quizzes';
import { quizRegrades, quizzes, students } from '../../db/schema.ts';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz, editBodyOf, type EditBody } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { keyChanged, structureChanged } from './lifecycle.ts';

/** Decision 036's lifecycle through the API: edit (and regrade), duplicate, delete and archive. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(async () => {
  await t.close();
});

type Actor = { token: string; profile: { _id: string } };
const as = (actor: Actor) => bearer(actor.token);
const unique = () => Math.random().toString(36).slice(2, 8);

/** A teacher, a class of theirs with `studentCount` students, and a quiz for it (buildNewQuiz's three questions). */
async function classWithQuiz(studentCount = 2, overrides = {}) {
  const className = `Life ${unique()}`;
  const teacher = await signUpTeacher(t);
  const classId = await classIdTaughtBy(t, teacher, className);
  const pupils = [];
  for (let index = 0; index < studentCount; index++) pupils.push(await signUpStudent(t, { class: className }));
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: as(teacher),
    payload: buildNewQuiz({ classId, ...overrides }),
  });
  expect(created.status, created.raw).toBe(201);
  return { teacher, classId, className, students: pupils, quizId: created.body.data._id as string };
}

const detail = async (teacher: Actor, quizId: string) => {
  const response = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(teacher) });
  expect(response.status, response.raw).toBe(200);
  return response.body.data as TeacherQuizDetail;
};

const edit = (teacher: Actor, quizId: string, body: object) =>
  t.call({ method: 'PUT', url: `/api/quizzes/${quizId}`, headers: as(teacher), payload: body });

type ChoiceInput = Extract<TypedQuestionInput, { type: 'single' | 'multiple' }>;
type OptionInput = ChoiceInput['options'][number];

/** The body with question `index` (a choice question) changed by `change`. */
function withQuestion(body: EditBody, index: number, change: (question: ChoiceInput) => object): EditBody {
  const questions = body.quiz.questions.map((question, at) =>
    at === index ? { ...question, ...change(question as ChoiceInput) } : question,
  );
  return { ...body, quiz: { ...body.quiz, questions } };
}

/** Options with `right` the only correct one (texts as given). */
const keyedOn = (options: OptionInput[], right: string) =>
  options.map((option) => ({ ...option, correct: option.text === right }));
/** Options with their texts replaced, by position (ids kept). */
const reworded = (options: OptionInput[], texts: string[]) =>
  options.map((option, at) => ({ ...option, text: texts[at]! }));
const indexOfText = (body: EditBody, text: string) =>
  body.quiz.questions.findIndex((question) => question.question_text === text);

const start = async (student: Actor, quizId: string) => {
  const response = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: as(student) });
  expect(response.status, response.raw).toBe(200);
  return response.body.data.quiz.questions as QuizQuestion[];
};

/** Starts and submits, choosing for each question text the option given (else the first). */
async function takeQuiz(student: Actor, quizId: string, choices: Record<string, string>) {
  const questions = await start(student, quizId);
  const response = await t.call({
    method: 'POST',
    url: '/api/student/update-student',
    headers: as(student),
    payload: {
      quiz: {
        _id: quizId,
        questions: questions.map((question) => ({
          _id: question._id,
          selectedOption: choices[question.question_text] ?? question.options![0]!.text,
        })),
      },
    },
  });
  expect(response.status, response.raw).toBe(200);
  return response.body.data;
}

async function averagesOf(studentId: string) {
  const [row] = await t.database.db
    .select({
      averageScore: students.averageScore,
      totalScore: students.totalScore,
      quizzesAttempted: students.quizzesAttempted,
    })
    .from(students)
    .where(eq(students.id, studentId));
  return row!;
}

const ALL_RIGHT = { 'What is 2 + 2?': '4', 'What is the capital of France?': 'Paris', 'Which is a prime number?': '7' };
const ONE_WRONG = { ...ALL_RIGHT, 'What is 2 + 2?': '3' };

describe('what counts as a change of structure or key (typed questions, option ids)', () => {
  const choice: StoredQuestion = {
    _id: 'q',
    type: 'multiple',
    question_text: 'Q',
    points: 2,
    scoring: 'all-or-nothing',
    options: [
      { _id: 'o1', text: 'a', correct: true },
      { _id: 'o2', text: 'b', correct: false },
      { _id: 'o3', text: 'c', correct: true },
    ],
  };
  const numeric: StoredQuestion = { _id: 'n', type: 'numeric', question_text: 'N', points: 1, value: 3, tolerance: 0 };
  const options = choice.type === 'multiple' ? choice.options : [];
  const withOptions = (list: typeof options): StoredQuestion => ({ ...choice, options: list });

  it('sees added, removed and reordered questions and options and a changed type, not reworded ones', () => {
    expect(structureChanged([choice], [choice, numeric])).toBe(true);
    expect(structureChanged([choice, numeric], [numeric, choice])).toBe(true);
    expect(structureChanged([choice], [withOptions(options.slice(0, 2))])).toBe(true);
    expect(structureChanged([choice], [withOptions([options[1]!, options[0]!, options[2]!])])).toBe(true);
    expect(structureChanged([choice], [withOptions([...options.slice(0, 2), { ...options[2]!, _id: 'o4' }])])).toBe(
      true,
    );
    expect(structureChanged([choice], [{ ...choice, _id: 'other' }])).toBe(true);
    expect(structureChanged([numeric], [{ ...numeric, type: 'true-false', correct: true }])).toBe(true);
    const renamed = withOptions(options.map((option) => ({ ...option, text: option.text.toUpperCase() })));
    expect(structureChanged([choice], [{ ...renamed, question_text: 'Q2' }])).toBe(false);
  });

  it('sees a changed key, scoring or points, not a rewording', () => {
    expect(
      keyChanged([choice], [withOptions(options.map((option) => ({ ...option, correct: !option.correct })))]),
    ).toBe(true);
    expect(keyChanged([choice], [{ ...choice, scoring: 'partial' }])).toBe(true);
    expect(keyChanged([choice], [{ ...choice, points: 3 }])).toBe(true);
    expect(keyChanged([numeric], [{ ...numeric, tolerance: 0.5 }])).toBe(true);
    expect(keyChanged([numeric], [{ ...numeric, value: 4 }])).toBe(true);
    const renamed = withOptions(options.map((option) => ({ ...option, text: `${option.text}!` })));
    expect(keyChanged([choice], [{ ...renamed, question_text: 'Q2' }])).toBe(false);
  });

  it('sees changed wildcards, partial answers and weights (decisions 043 and 049)', () => {
    const short: StoredQuestion = {
      _id: 's',
      type: 'short-text',
      question_text: 'S',
      points: 1,
      accepted: ['*colour*'],
      wildcards: true,
    };
    const { wildcards: _wildcards, ...literal } = short;
    expect(keyChanged([short], [literal])).toBe(true);
    expect(keyChanged([short], [{ ...short, partial: [{ text: 'colo*r', weight: 50 }] }])).toBe(true);
    expect(keyChanged([short], [{ ...short, question_text: 'S2' }])).toBe(false);
    expect(keyChanged([numeric], [{ ...numeric, partial: [{ value: 4, tolerance: 0, weight: 50 }] }])).toBe(true);
    // A further full answer (decision 043's addendum) read back from jsonb, its keys in jsonb's order: unchanged.
    const roots: StoredQuestion = { ...numeric, partial: [{ value: -3, tolerance: 0, weight: 100 }] };
    expect(keyChanged([roots], [{ ...numeric, partial: [{ value: -3, weight: 100, tolerance: 0 }] }])).toBe(false);
    expect(keyChanged([roots], [{ ...numeric, partial: [{ value: -3, tolerance: 0, weight: 50 }] }])).toBe(true);
    expect(
      keyChanged([choice], [withOptions(options.map((option) => ({ ...option, weight: option.correct ? 50 : 0 })))]),
    ).toBe(true);
  });
});

describe('editing a quiz nobody has started', () => {
  it('changes anything, the class included, and the new class’s students see it', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1);
    const otherClass = `Life ${unique()}`;
    const otherClassId = await classIdTaughtBy(t, teacher, otherClass);
    const newcomer = await signUpStudent(t, { class: otherClass });
    const before = editBodyOf(await detail(teacher, quizId));
    const france = before.quiz.questions[1] as ChoiceInput;
    const body: EditBody = {
      ...before,
      title: 'Renamed',
      classId: otherClassId,
      quiz: {
        ...before.quiz,
        // Reordered, one removed, one added, options reordered, a type changed.
        questions: [
          { ...france, options: [...france.options].reverse() },
          {
            _id: before.quiz.questions[0]!._id,
            type: 'true-false',
            question_text: 'Is 2 + 2 four?',
            correct: true,
          },
          { type: 'numeric', question_text: 'Is 1 odd?', points: 2, value: 1, tolerance: 0 },
        ],
      },
    };
    const response = await edit(teacher, quizId, body);
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.regrade).toBeNull();
    expect(response.body.data.quiz).toMatchObject({ title: 'Renamed', classId: otherClassId, questionCount: 3 });
    expect(response.body.data.quiz.totalPoints).toBe(4);
    const after = await detail(teacher, quizId);
    expect(after.quiz.questions.map((question) => question._id).slice(0, 2)).toEqual([
      before.quiz.questions[1]!._id,
      before.quiz.questions[0]!._id,
    ]);
    expect(after.quiz.questions.map((question) => question.type)).toEqual(['single', 'true-false', 'numeric']);
    expect(after.quiz.questions[0]!.options!.map((option) => option._id)).toEqual(
      [...france.options].reverse().map((option) => option._id),
    );
    const [row] = await t.database.db.select({ version: quizzes.version }).from(quizzes).where(eq(quizzes.id, quizId));
    expect(row!.version).toBe(2);
    // The student of the old class no longer reaches it; the new class's does.
    const old = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: as(student!) });
    expect(old.status).toBe(403);
    const questions = await start(newcomer, quizId);
    expect(questions.map((question) => question.question_text).sort()).toEqual(
      ['Is 1 odd?', 'Is 2 + 2 four?', 'What is the capital of France?'].sort(),
    );
  });

  it('refuses another teacher (403), an unknown question id (400), a class the caller does not teach (403)', async () => {
    const { teacher, quizId } = await classWithQuiz(0);
    const other = await signUpTeacher(t);
    const body = editBodyOf(await detail(teacher, quizId));
    expect((await edit(other, quizId, body)).status).toBe(403);
    const unknownId = await edit(
      teacher,
      quizId,
      withQuestion(body, 0, () => ({ _id: 'nope' })),
    );
    expect(unknownId.status).toBe(400);
    const othersClass = await classIdTaughtBy(t, other, `Life ${unique()}`);
    expect((await edit(teacher, quizId, { ...body, classId: othersClass })).status).toBe(403);
    expect((await edit(teacher, crypto.randomUUID(), body)).status).toBe(404);
    const [row] = await t.database.db.select({ version: quizzes.version }).from(quizzes).where(eq(quizzes.id, quizId));
    expect(row!.version).toBe(1);
  });

  it('refuses an edit made on an older version (two tabs): 409 QUIZ_CHANGED, the first edit stays', async () => {
    const { teacher, quizId } = await classWithQuiz(0);
    const opened = editBodyOf(await detail(teacher, quizId));
    const first = indexOfText(opened, 'What is 2 + 2?');
    const tabA = withQuestion(opened, first, (question) => ({ options: keyedOn(question.options, '5') }));
    expect((await edit(teacher, quizId, tabA)).status).toBe(200);
    const tabB = await edit(teacher, quizId, { ...opened, title: 'Renamed in the other tab' });
    expect(tabB.status, tabB.raw).toBe(409);
    expect(tabB.body.code).toBe('QUIZ_CHANGED');
    const now = await detail(teacher, quizId);
    expect(now.title).toBe(opened.title);
    expect(now.version).toBe(2);
    const key = now.quiz.questions.find((question) => question.question_text === 'What is 2 + 2?')!;
    expect(key.options!.find((option) => option.correct)!.text).toBe('5');
    // Without a version the edit is refused as bad input.
    const { version: _version, ...unversioned } = editBodyOf(now);
    expect((await edit(teacher, quizId, unversioned)).status).toBe(400);
  });
});

describe('editing a quiz students have started', () => {
  it('refuses a change of structure or class with QUIZ_HAS_ATTEMPTS, and changes nothing', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1);
    await start(student!, quizId);
    const body = editBodyOf(await detail(teacher, quizId));
    const { _id: _dropped, ...asNew } = body.quiz.questions[0]!;
    const refusals = [
      {
        ...body,
        quiz: {
          ...body.quiz,
          questions: [
            ...body.quiz.questions,
            { type: 'true-false', question_text: 'New?', correct: true } satisfies TypedQuestionInput,
          ],
        },
      },
      { ...body, quiz: { ...body.quiz, questions: body.quiz.questions.slice(1) } },
      { ...body, quiz: { ...body.quiz, questions: [...body.quiz.questions].reverse() } },
      // The same question without its id is a new one in place of the old.
      { ...body, quiz: { ...body.quiz, questions: [asNew as TypedQuestionInput, ...body.quiz.questions.slice(1)] } },
      withQuestion(body, 0, (question) => ({ options: [...question.options, { text: 'six', correct: false }] })),
      withQuestion(body, 0, (question) => ({ options: [...question.options].reverse() })),
      withQuestion(body, 0, (question) => ({ type: 'multiple', scoring: 'partial', options: question.options })),
      { ...body, classId: await classIdTaughtBy(t, teacher, `Life ${unique()}`) },
    ];
    for (const refused of refusals) {
      const response = await edit(teacher, quizId, refused);
      expect(response.status, response.raw).toBe(409);
      expect(response.body.code).toBe('QUIZ_HAS_ATTEMPTS');
    }
    expect(editBodyOf(await detail(teacher, quizId))).toEqual(body);
  });

  it('takes wording, deadline, time and review options; a past deadline may stay, not be set', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1);
    await start(student!, quizId);
    await t.database.db.execute(
      sql`update quizzes set deadline = now() - interval '1 minute' where id = ${quizId}::uuid`,
    );
    const body = editBodyOf(await detail(teacher, quizId));
    const typo = withQuestion({ ...body, title: 'Fixed', maxTime: 20 }, 0, () => ({
      question_text: 'What is 2 + 2 ?',
    }));
    const response = await edit(teacher, quizId, typo);
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.quiz).toMatchObject({ title: 'Fixed', maxTime: 20 });
    const earlier = new Date(Date.parse(body.deadline) - 60_000).toISOString();
    const past = await edit(teacher, quizId, { ...typo, version: typo.version + 1, deadline: earlier });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([
      { field: 'deadline', code: 'DEADLINE_PAST', message: 'Deadline must be in the future' },
    ]);
  });

  it('regrades once when the key changes: scores, averages and one quiz_regrades row', async () => {
    const {
      teacher,
      quizId,
      students: [right, wrong],
    } = await classWithQuiz(2);
    await takeQuiz(right!, quizId, ALL_RIGHT);
    await takeQuiz(wrong!, quizId, ONE_WRONG);
    expect(await averagesOf(right!.profile._id)).toMatchObject({ averageScore: 3, quizzesAttempted: 1 });
    expect(await averagesOf(wrong!.profile._id)).toMatchObject({ averageScore: 2 });

    // The key of 2 + 2 was "wrong": 3 is now right.
    const body = editBodyOf(await detail(teacher, quizId));
    const rekeyed = withQuestion(body, 0, (question) => ({ options: keyedOn(question.options, '3') }));
    const response = await edit(teacher, quizId, rekeyed);
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.regrade).toEqual({ attemptsChanged: 2 });
    expect(await averagesOf(right!.profile._id)).toMatchObject({ averageScore: 2, totalScore: 2, quizzesAttempted: 1 });
    expect(await averagesOf(wrong!.profile._id)).toMatchObject({ averageScore: 3, totalScore: 3, quizzesAttempted: 1 });

    // Saved again with the same key (and a new title): no second regrade, the same averages.
    const again = await edit(teacher, quizId, { ...rekeyed, version: rekeyed.version + 1, title: 'Retitled' });
    expect(again.status, again.raw).toBe(200);
    expect(again.body.data.regrade).toBeNull();
    expect(await averagesOf(wrong!.profile._id)).toMatchObject({ averageScore: 3, totalScore: 3 });
    const rows = await t.database.db.select().from(quizRegrades).where(eq(quizRegrades.quizId, quizId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ teacherId: teacher.profile._id, attemptsChanged: 2 });

    const analytics = await detail(teacher, quizId);
    expect(analytics.regrades).toEqual([
      { at: rows[0]!.regradedAt.toISOString(), attemptsChanged: 2, by: expect.any(String) },
    ]);
    expect(Object.fromEntries(analytics.attempts.map((attempt) => [attempt.user._id, attempt.score]))).toEqual({
      [right!.profile._id]: 2,
      [wrong!.profile._id]: 3,
    });
  });

  it('moves the quiz’s close with its deadline and time limit', async () => {
    const { teacher, quizId } = await classWithQuiz(0);
    const body = editBodyOf(await detail(teacher, quizId));
    const deadline = new Date(Date.parse(body.deadline) + 3_600_000).toISOString();
    const response = await edit(teacher, quizId, { ...body, deadline, maxTime: 25 });
    expect(response.status, response.raw).toBe(200);
    const [row] = await t.database.db
      .select({ closesAt: quizzes.closesAt })
      .from(quizzes)
      .where(eq(quizzes.id, quizId));
    expect(row!.closesAt.getTime()).toBe(Date.parse(deadline) + 25 * 60_000 + QUIZ_LIMITS.graceSeconds * 1000);
  });

  it('counts a held-back score in the averages once an edit shows it after submitting', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1, { reviewScore: 'after-deadline' });
    await takeQuiz(student!, quizId, ALL_RIGHT);
    expect(await averagesOf(student!.profile._id)).toMatchObject({ quizzesAttempted: 0 });
    const response = await edit(teacher, quizId, {
      ...editBodyOf(await detail(teacher, quizId)),
      reviewScore: 'after-submit',
    });
    expect(response.status, response.raw).toBe(200);
    expect(await averagesOf(student!.profile._id)).toEqual({ averageScore: 3, totalScore: 3, quizzesAttempted: 1 });
  });

  it('keeps an open attempt’s layout through a rewording and a new key; its close scores with the new key', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1);
    const layout = await start(student!, quizId);
    const twoPlusTwo = layout.find((question) => question.question_text === 'What is 2 + 2?')!;
    const three = twoPlusTwo.options!.find((option) => option.text === '3')!._id;
    const saved = await t.call({
      method: 'PUT',
      url: `/api/quiz/${quizId}/answers`,
      headers: as(student!),
      payload: { answers: { [twoPlusTwo._id]: three } },
    });
    expect(saved.status, saved.raw).toBe(200);

    const body = editBodyOf(await detail(teacher, quizId));
    const index = body.quiz.questions.findIndex((question) => question._id === twoPlusTwo._id);
    // Options are named by id: their wording changes under an open attempt, and so does the key.
    const rekeyed = await edit(
      teacher,
      quizId,
      withQuestion(body, index, (question) => ({
        question_text: 'What is 2 + 2, roughly?',
        options: keyedOn(reworded(question.options, ['four', '3', '5']), '3'),
      })),
    );
    expect(rekeyed.status, rekeyed.raw).toBe(200);
    // Nobody had submitted: nothing to regrade.
    expect(rekeyed.body.data.regrade).toBeNull();

    const resumed = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(student!) });
    const questions = resumed.body.data.quiz.questions as QuizQuestion[];
    const idsOf = (list: QuizQuestion[]) =>
      list.map((question) => [question._id, question.options?.map((option) => option._id)]);
    expect(idsOf(questions)).toEqual(idsOf(layout));
    const resumedQuestion = questions.find((question) => question._id === twoPlusTwo._id)!;
    expect(resumedQuestion.question_text).toBe('What is 2 + 2, roughly?');
    expect(resumedQuestion.options!.map((option) => option.text).sort()).toEqual(['3', '5', 'four']);
    expect(resumedQuestion.response).toBe(three);

    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: as(student!),
      payload: { quiz: { _id: quizId, questions: [] } },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    expect(submitted.body.data.attempt.score).toBe(1);
  });

  it('rewords an option after submissions: answers keep pointing at it, the score stays, no regrade', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1, { reviewAnswers: 'after-submit' });
    await takeQuiz(student!, quizId, ALL_RIGHT);
    const body = editBodyOf(await detail(teacher, quizId));
    const index = indexOfText(body, 'What is 2 + 2?');
    const response = await edit(
      teacher,
      quizId,
      withQuestion(body, index, (question) => ({ options: reworded(question.options, ['four', '3', '5']) })),
    );
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.regrade).toBeNull();
    const analytics = await detail(teacher, quizId);
    expect(analytics.attempts[0]!.score).toBe(3);
    const question = body.quiz.questions[index] as ChoiceInput;
    const four = question.options[0]!._id;
    expect(analytics.attempts[0]!.quiz.questions.find((entry) => entry._id === question._id)!.response).toBe(four);
    const review = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(student!) });
    const reviewed = (review.body.data.quiz.questions as QuizQuestion[]).find((entry) => entry._id === question._id)!;
    expect(reviewed.options!.find((option) => option._id === four)).toMatchObject({ text: 'four', correct: true });
    expect(reviewed.response).toBe(four);
  });

  it('regrades a multiple-choice key with partial credit: points per student and the total', async () => {
    const className = `Life ${unique()}`;
    const teacher = await signUpTeacher(t);
    const classId = await classIdTaughtBy(t, teacher, className);
    const [a, b] = [await signUpStudent(t, { class: className }), await signUpStudent(t, { class: className })];
    const created = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: as(teacher),
      payload: buildNewQuiz({
        classId,
        quiz: {
          background: buildNewQuiz().quiz.background,
          questions: [
            {
              type: 'multiple',
              question_text: 'Which are even?',
              points: 4,
              scoring: 'partial',
              options: [
                { text: '2', correct: true },
                { text: '4', correct: true },
                { text: '5', correct: false },
                { text: '6', correct: false },
              ],
            },
          ],
        },
      }),
    });
    expect(created.status, created.raw).toBe(201);
    const quizId = created.body.data._id as string;
    const answer = async (student: Actor, texts: string[]) => {
      const [question] = await start(student, quizId);
      const ids = question!.options!.filter((option) => texts.includes(option.text)).map((option) => option._id);
      const response = await t.call({
        method: 'POST',
        url: '/api/student/update-student',
        headers: as(student),
        payload: { quiz: { _id: quizId, questions: [{ _id: question!._id, response: ids }] } },
      });
      expect(response.status, response.raw).toBe(200);
      return response.body.data.attempt.score as number;
    };
    // Key {2, 4}: a chose 2, 4, 6 (2 right − 1 wrong of 2 → 2 points); b chose 2, 6 (1 − 1 → 0).
    expect(await answer(a, ['2', '4', '6'])).toBe(2);
    expect(await answer(b, ['2', '6'])).toBe(0);

    // 6 was even after all: key {2, 4, 6}, and the question is worth 6 points now.
    const body = editBodyOf(await detail(teacher, quizId));
    const response = await edit(
      teacher,
      quizId,
      withQuestion(body, 0, (question) => ({
        points: 6,
        options: question.options.map((option) => ({ ...option, correct: option.text !== '5' })),
      })),
    );
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.regrade).toEqual({ attemptsChanged: 2 });
    expect(response.body.data.quiz.totalPoints).toBe(6);
    // a: 3 of 3 right → 6 points (100 %); b: 2 of 3 right → 4 points.
    const analytics = await detail(teacher, quizId);
    const byStudent = Object.fromEntries(
      analytics.attempts.map((attempt) => [attempt.user._id, [attempt.score, Number(attempt.accuracy)]]),
    );
    expect(byStudent).toEqual({ [a.profile._id]: [6, 100], [b.profile._id]: [4, 66.67] });
    expect(analytics.attempts.map((attempt) => attempt.quiz.questions[0]!.earnedPoints).sort()).toEqual([4, 6]);
    expect(await averagesOf(a.profile._id)).toMatchObject({ averageScore: 6, totalScore: 6 });
    expect(await averagesOf(b.profile._id)).toMatchObject({ averageScore: 4, totalScore: 4 });
  });
});

describe('duplicating a quiz', () => {
  it('copies its questions (ids kept) to another class of the caller, without attempts', async () => {
    const {
      teacher,
      quizId,
      students: [student],
    } = await classWithQuiz(1);
    await takeQuiz(student!, quizId, ALL_RIGHT);
    const otherClassId = await classIdTaughtBy(t, teacher, `Life ${unique()}`);
    const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const response = await t.call({
      method: 'POST',
      url: `/api/quizzes/${quizId}/duplicate`,
      headers: as(teacher),
      payload: { classId: otherClassId, title: 'Again', deadline },
    });
    expect(response.status, response.raw).toBe(201);
    expect(response.body.data).toMatchObject({ title: 'Again', classId: otherClassId, attemptCount: 0, deadline });
    const copy = await detail(teacher, response.body.data._id);
    const original = await detail(teacher, quizId);
    expect(copy.quiz.questions).toEqual(original.quiz.questions);
    expect(copy.attempts).toEqual([]);
    expect(copy.attemptsStarted).toBe(0);
  });

  it('refuses another teacher’s quiz, a class the caller does not teach and a past deadline', async () => {
    const { teacher, quizId, classId } = await classWithQuiz(0);
    const other = await signUpTeacher(t);
    const deadline = new Date(Date.now() + 86_400_000).toISOString();
    const duplicate = (caller: Actor, payload: object) =>
      t.call({ method: 'POST', url: `/api/quizzes/${quizId}/duplicate`, headers: as(caller), payload });
    expect(
      (await duplicate(other, { classId: await classIdTaughtBy(t, other, `Life ${unique()}`), deadline })).status,
    ).toBe(403);
    expect(
      (await duplicate(teacher, { classId: await classIdTaughtBy(t, other, `Life ${unique()}`), deadline })).status,
    ).toBe(403);
    expect((await duplicate(teacher, { classId, deadline: new Date(Date.now() - 1000).toISOString() })).status).toBe(
      400,
    );
  });
});

describe('deleting a quiz', () => {
  const remove = (teacher: Actor, quizId: string, query = '') =>
    t.call({ method: 'DELETE', url: `/api/quizzes/${quizId}${query}`, headers: as(teacher) });
  const listed = async (actor: Actor, query = '') => {
    const response = await t.call({ method: 'GET', url: `/api/get-all-quiz${query}`, headers: as(actor) });
    expect(response.status, response.raw).toBe(200);
    return response.body.data as { _id: string; archivedAt: string | null }[];
  };

  it('removes one nobody started', async () => {
    const { teacher, quizId } = await classWithQuiz(1);
    const other = await signUpTeacher(t);
    expect((await remove(other, quizId)).status).toBe(403);
    const response = await remove(teacher, quizId);
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toEqual({ outcome: 'deleted' });
    expect((await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(teacher) })).status).toBe(404);
  });

  it('archives one with attempts: its takers keep it, classmates no longer see it, analytics and averages stay', async () => {
    const {
      teacher,
      quizId,
      students: [taker, classmate],
    } = await classWithQuiz(2);
    await takeQuiz(taker!, quizId, ALL_RIGHT);
    const before = await averagesOf(taker!.profile._id);
    const response = await remove(teacher, quizId);
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toEqual({ outcome: 'archived' });

    const attempted = await listed(taker!, '?view=attempted');
    expect(attempted.find((quiz) => quiz._id === quizId)?.archivedAt).toEqual(expect.any(String));
    const review = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(taker!) });
    expect(review.status).toBe(200);
    expect(review.body.data.attempt.status).toBe('submitted');

    expect((await listed(classmate!)).map((quiz) => quiz._id)).not.toContain(quizId);
    expect((await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(classmate!) })).status).toBe(404);
    expect((await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: as(classmate!) })).status).toBe(
      404,
    );

    expect((await listed(teacher)).find((quiz) => quiz._id === quizId)?.archivedAt).toEqual(expect.any(String));
    expect((await detail(teacher, quizId)).attempts).toHaveLength(1);
    expect(await averagesOf(taker!.profile._id)).toEqual(before);
    const edited = await edit(teacher, quizId, editBodyOf(await detail(teacher, quizId)));
    expect(edited.status).toBe(409);
    expect(edited.body.code).toBe('QUIZ_ARCHIVED');
  });

  it('with its results: deletes the attempts and recomputes the averages in the same transaction', async () => {
    const {
      teacher,
      quizId,
      classId,
      students: [both, onlyThis],
    } = await classWithQuiz(2);
    const second = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: as(teacher),
      payload: buildNewQuiz({ classId }),
    });
    await takeQuiz(both!, quizId, ALL_RIGHT);
    await takeQuiz(both!, second.body.data._id, ONE_WRONG);
    await takeQuiz(onlyThis!, quizId, ONE_WRONG);
    expect(await averagesOf(both!.profile._id)).toMatchObject({ averageScore: 2.5, quizzesAttempted: 2 });

    const response = await remove(teacher, quizId, '?withResults=true');
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data).toEqual({ outcome: 'deleted-with-results' });
    expect(await averagesOf(both!.profile._id)).toEqual({ averageScore: 2, totalScore: 2, quizzesAttempted: 1 });
    expect(await averagesOf(onlyThis!.profile._id)).toEqual({ averageScore: 0, totalScore: 0, quizzesAttempted: 0 });
    expect((await listed(both!, '?view=attempted')).map((quiz) => quiz._id)).not.toContain(quizId);
  });
});
