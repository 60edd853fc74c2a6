import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAiken } from '#shared/aiken';
import { parseGift } from '#shared/gift';
import type { TypedQuestionInput } from '#shared/question-types';
import type { QuizQuestion, TeacherQuizDetail } from '#shared/quizzes';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz, editBodyOf, OPAQUE_ID } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Issue 30 point 2, decision 039: the option ids a student sees (the attempt's payload, the
 * radio buttons' values) carry no trace of the order the teacher wrote the options in, for a
 * quiz created, imported (GIFT, Aiken, or a body naming `o1`…) or duplicated; an edit keeps the
 * ids of the options it keeps, whatever their new order.
 */

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

/** Six four-option questions, the right answer first as teachers and exam files write it. */
const AUTHORED: TypedQuestionInput[] = Array.from({ length: 6 }, (_, index) => ({
  type: index % 2 === 0 ? ('single' as const) : ('multiple' as const),
  question_text: `Question ${index + 1}?`,
  options: ['right', 'wrong a', 'wrong b', 'wrong c'].map((text, at) => ({
    text: `${text} ${index}`,
    correct: at === 0,
  })),
}));

const GIFT = AUTHORED.map(
  (question, index) =>
    `::Q${index}:: ${question.question_text} {=right ${index} ~wrong a ${index} ~wrong b ${index} ~wrong c ${index}}`,
).join('\n\n');
const AIKEN = AUTHORED.map(
  (question, index) =>
    `${question.question_text}\nA. right ${index}\nB. wrong a ${index}\nC. wrong b ${index}\nD. wrong c ${index}\nANSWER: A`,
).join('\n\n');

/**
 * Options' texts in the order their ids sort: with ids that carry the authored order (o1, o2…)
 * this is the authored order for every question; with random ids, for about one in 24.
 */
const textsByIdOrder = (question: Pick<QuizQuestion, 'options'>) =>
  [...question.options!].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).map((option) => option.text);

/** Fails when the ids of every choice question sort to the order the options were written in. */
function expectNoAuthoredOrder(questions: Pick<QuizQuestion, 'options' | 'question_text'>[]) {
  const authored = new Map(AUTHORED.map((question) => [question.question_text, question]));
  const choices = questions.filter((question) => question.options);
  expect(choices.length).toBe(AUTHORED.length);
  const inAuthoredOrder = choices.filter((question) => {
    const written = authored.get(question.question_text) as Extract<TypedQuestionInput, { options: unknown }>;
    return textsByIdOrder(question).join('|') === written.options.map((option) => option.text).join('|');
  });
  expect(inAuthoredOrder.length).toBeLessThan(choices.length);
  for (const question of choices) {
    const ids = question.options!.map((option) => option._id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(OPAQUE_ID);
      expect(id).not.toMatch(/^o\d+$/);
    }
  }
}

async function teacherWithClass() {
  const className = `Ids ${unique()}`;
  const teacher = await signUpTeacher(t);
  const classId = await classIdTaughtBy(t, teacher, className);
  return { teacher, classId, className };
}

async function createQuiz(teacher: Actor, classId: string, questions: unknown[]) {
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: as(teacher),
    payload: buildNewQuiz({ classId, quiz: { background: buildNewQuiz().quiz.background, questions } }),
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data._id as string;
}

const detail = async (teacher: Actor, quizId: string) => {
  const response = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: as(teacher) });
  expect(response.status, response.raw).toBe(200);
  return response.body.data as TeacherQuizDetail;
};

describe('option ids carry no order', () => {
  it('in the attempt a student starts: the ids do not sort to the order the teacher wrote', async () => {
    const { teacher, classId, className } = await teacherWithClass();
    const student = await signUpStudent(t, { class: className });
    const quizId = await createQuiz(teacher, classId, AUTHORED);
    const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: as(student) });
    expect(started.status, started.raw).toBe(200);
    expectNoAuthoredOrder(started.body.data.quiz.questions as QuizQuestion[]);
    // Answers by those ids save and score as before.
    const questions = started.body.data.quiz.questions as QuizQuestion[];
    const answers = Object.fromEntries(
      questions.map((question) => {
        const right = question.options!.find((option) => option.text.startsWith('right'))!._id;
        return [question._id, question.type === 'multiple' ? [right] : right];
      }),
    );
    const saved = await t.call({
      method: 'PUT',
      url: `/api/quiz/${quizId}/answers`,
      headers: as(student),
      payload: { answers },
    });
    expect(saved.status, saved.raw).toBe(200);
    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: as(student),
      payload: { quiz: { _id: quizId, questions: [] } },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    expect(submitted.body.data.attempt).toMatchObject({ score: 6, accuracy: '100' });
  });

  it('in a quiz created from a GIFT or an Aiken file, or from a body that names o1, o2…', async () => {
    const { teacher, classId } = await teacherWithClass();
    const gift = parseGift(GIFT);
    const aiken = parseAiken(AIKEN);
    expect(gift.problems).toEqual([]);
    expect(aiken.problems).toEqual([]);
    // The readers give options without ids, in the file's order; the server draws the ids.
    const fromGift = await createQuiz(
      teacher,
      classId,
      gift.questions.map((entry) => entry.question),
    );
    const fromAiken = await createQuiz(
      teacher,
      classId,
      aiken.questions.map((entry) => entry.question),
    );
    // A SPEC §7 client or a JSON file copied from another quiz may carry ids: new ones are drawn.
    const named = AUTHORED.map((question) =>
      'options' in question
        ? { ...question, options: question.options.map((option, at) => ({ ...option, _id: `o${at + 1}` })) }
        : question,
    );
    const fromBody = await createQuiz(teacher, classId, named);
    for (const quizId of [fromGift, fromAiken, fromBody])
      expectNoAuthoredOrder((await detail(teacher, quizId)).quiz.questions);
  });

  it('in a duplicate, and an edit keeps the ids of the options it keeps whatever their order', async () => {
    const { teacher, classId } = await teacherWithClass();
    const quizId = await createQuiz(teacher, classId, AUTHORED);
    const original = await detail(teacher, quizId);
    const copied = await t.call({
      method: 'POST',
      url: `/api/quizzes/${quizId}/duplicate`,
      headers: as(teacher),
      payload: { classId, deadline: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(copied.status, copied.raw).toBe(201);
    expectNoAuthoredOrder((await detail(teacher, copied.body.data._id as string)).quiz.questions);

    // The editor sends the options it shows with their ids: reversed, one removed, one added,
    // and one with an id the question never had (taken as a new option).
    const body = editBodyOf(original);
    const [first] = body.quiz.questions as Extract<TypedQuestionInput, { options: unknown }>[];
    const kept = first!.options.slice(0, 3).reverse();
    body.quiz.questions[0] = {
      ...first!,
      options: [...kept, { text: 'added', correct: false }, { _id: 'o1', text: 'smuggled', correct: false }],
    };
    const edited = await t.call({ method: 'PUT', url: `/api/quizzes/${quizId}`, headers: as(teacher), payload: body });
    expect(edited.status, edited.raw).toBe(200);
    const after = (await detail(teacher, quizId)).quiz.questions[0]!.options!;
    expect(after.slice(0, 3).map((option) => [option._id, option.text])).toEqual(
      kept.map((option) => [option._id, option.text]),
    );
    const keptIds = new Set(kept.map((option) => option._id));
    for (const added of after.slice(3)) {
      expect(added._id).toMatch(OPAQUE_ID);
      expect(keptIds.has(added._id)).toBe(false);
    }
    expect(new Set(after.map((option) => option._id)).size).toBe(after.length);
  });
});
