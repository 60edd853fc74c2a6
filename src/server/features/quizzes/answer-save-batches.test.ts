import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuizQuestion } from '#shared/quizzes';
import { quizFor, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { createAnswerSaveBatches } from './answer-save-batches.ts';

/**
 * Answer saves written together (decision 071): many students' saves at once take a few
 * statements, each save is answered as its own attempt's state says, saves of one attempt land
 * in the order they came, and one save that fails does not fail the others of its batch.
 */

let t: TestApp;
let queries: string[] = [];
const STUDENTS = 24;

beforeAll(async () => {
  t = await createTestApp({ onQuery: (query) => queries.push(query) });
});
afterAll(async () => {
  await t.close();
});

type Student = Awaited<ReturnType<typeof signUpStudent>>;

/** A class of `count` students who have all started the same quiz, with its first question's options. */
async function startedClass(count: number) {
  const className = `Batch-${randomUUID().slice(0, 8)}`;
  const teacher = await signUpTeacher(t);
  const students: Student[] = [];
  for (let index = 0; index < count; index += 1) students.push(await signUpStudent(t, { class: className }));
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload: await quizFor(t, teacher, { class: className }),
  });
  expect(created.status, created.raw).toBe(201);
  const quizId = created.body.data._id as string;
  let questions: QuizQuestion[] = [];
  for (const student of students) {
    const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) });
    expect(started.status, started.raw).toBe(200);
    questions = started.body.data.quiz.questions;
  }
  return { quizId, students, questions };
}

const save = (student: Student, quizId: string, answers: Record<string, string | null>) =>
  t.call({ method: 'PUT', url: `/api/quiz/${quizId}/answers`, headers: bearer(student.token), payload: { answers } });

const savedAnswersOf = async (student: Student, quizId: string) => {
  const read = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: bearer(student.token) });
  return Object.fromEntries(
    (read.body.data.quiz.questions as QuizQuestion[]).map((question) => [question._id, question.response ?? null]),
  );
};

/** A save of one option for one question, as the route hands it to the batches. */
const optionSave = (quizId: string, studentId: string, questionId: string, option: string) => ({
  quizId,
  studentId,
  cleared: [],
  chosen: { [questionId]: option },
  now: new Date(),
});

const batchStatements = () => queries.filter((query) => /update "quiz_attempts"/.test(query));

describe('answer saves written together', () => {
  it('writes a class’s saves that come while others are written in one statement, each one kept', async () => {
    const { quizId, students, questions } = await startedClass(STUDENTS);
    const [first, second] = questions;
    const batches = createAnswerSaveBatches(t.database.db, { inFlight: 2, mostPerBatch: 256 });
    const now = new Date();
    queries = [];
    const saved = await Promise.all(
      students.map((student, index) =>
        batches.save({
          quizId,
          studentId: student.profile._id,
          cleared: [],
          chosen: {
            [first!._id]: first!.options![index % 2]!._id,
            [second!._id]: second!.options![(index + 1) % 2]!._id,
          },
          now,
        }),
      ),
    );
    expect(saved).toEqual(students.map(() => true));
    // The first two find the database idle and go alone; the rest wait for them and go together.
    expect(batchStatements()).toHaveLength(3);
    for (const [index, student] of students.entries())
      expect(await savedAnswersOf(student, quizId)).toMatchObject({
        [first!._id]: first!.options![index % 2]!._id,
        [second!._id]: second!.options![(index + 1) % 2]!._id,
      });
  });

  it('lands one attempt’s saves in the order they came, and answers false for a closed attempt', async () => {
    const { quizId, students, questions } = await startedClass(1);
    const [student] = students;
    const question = questions[0]!;
    const [a, b] = question.options!;
    const saves = await Promise.all([
      save(student!, quizId, { [question._id]: a!._id }),
      save(student!, quizId, { [question._id]: b!._id }),
      save(student!, quizId, { [question._id]: null }),
      save(student!, quizId, { [question._id]: a!._id }),
    ]);
    expect(saves.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect((await savedAnswersOf(student!, quizId))[question._id]).toBe(a!._id);

    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: bearer(student!.token),
      payload: { quiz: { _id: quizId, questions: [{ _id: question._id, selectedOption: b!._id }] } },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    const batches = createAnswerSaveBatches(t.database.db);
    const now = new Date();
    expect(await batches.save({ quizId, studentId: student!.profile._id, cleared: [], chosen: { x: 'y' }, now })).toBe(
      false,
    );
  });

  it('matches a save sent with upper-case ids to its attempt, alone or in a batch', async () => {
    const { quizId, students, questions } = await startedClass(3);
    const question = questions[0]!;
    const option = question.options![1]!._id;
    const batches = createAnswerSaveBatches(t.database.db, { inFlight: 1, mostPerBatch: 256 });
    const saveOf = (student: Student) =>
      optionSave(quizId.toUpperCase(), student.profile._id.toUpperCase(), question._id, option);
    queries = [];
    // The first alone (the prepared statement), the other two together (the batch statement).
    expect(await Promise.all(students.map((student) => batches.save(saveOf(student))))).toEqual([true, true, true]);
    expect(batchStatements()).toHaveLength(2);
    // Over HTTP too: the route takes the id in either case, and the save is answered once, as written.
    queries = [];
    const overHttp = await save(students[0]!, quizId.toUpperCase(), { [question._id]: question.options![0]!._id });
    expect(overHttp.status, overHttp.raw).toBe(200);
    expect(batchStatements()).toHaveLength(1);
    expect((await savedAnswersOf(students[0]!, quizId))[question._id]).toBe(question.options![0]!._id);
    for (const student of students.slice(1)) expect((await savedAnswersOf(student, quizId))[question._id]).toBe(option);
  });

  it('writes the others of a batch when one of its saves fails', async () => {
    const { quizId, students, questions } = await startedClass(3);
    const question = questions[0]!;
    const option = question.options![0]!._id;
    const batches = createAnswerSaveBatches(t.database.db, { inFlight: 1, mostPerBatch: 256 });
    const saveOf = (studentId: string) => optionSave(quizId, studentId, question._id, option);
    // The first goes alone; the next three wait and go together, one of them not a uuid.
    const results = await Promise.allSettled([
      batches.save(saveOf(students[0]!.profile._id)),
      batches.save(saveOf(students[1]!.profile._id)),
      batches.save(saveOf('not-a-uuid')),
      batches.save(saveOf(students[2]!.profile._id)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(results.filter((result) => result.status === 'fulfilled').map((result) => result.value)).toEqual([
      true,
      true,
      true,
    ]);
    for (const student of students) expect((await savedAnswersOf(student, quizId))[question._id]).toBe(option);
  });

  it('times each newly answered question once, in a save of one question, of several or of none', async () => {
    const { quizId, students, questions } = await startedClass(1);
    const [student] = students;
    const [first, second, third] = questions as [QuizQuestion, QuizQuestion, QuizQuestion];
    const option = (question: QuizQuestion) => question.options![0]!._id;
    /** Moves the attempt's start back by `seconds`, as if the student had been answering that long. */
    const wait = (seconds: number) =>
      t.database.db.execute(
        sql`update quiz_attempts set started_at = started_at - make_interval(secs => ${seconds}) where quiz_id = ${quizId}`,
      );
    const answerTimes = async () => {
      const { rows } = (await t.database.db.execute(
        sql`select answer_times from quiz_attempts where quiz_id = ${quizId}`,
      )) as { rows: { answer_times: Record<string, number> }[] };
      return rows[0]!.answer_times;
    };
    const near = (seconds: number) => expect.toSatisfy((value: number) => value >= seconds && value <= seconds + 5);

    await wait(100);
    expect((await save(student!, quizId, { [first._id]: option(first) })).status).toBe(200);
    expect(await answerTimes()).toEqual({ [first._id]: near(100) });
    await wait(50);
    // Answered again: its first time stays. Cleared only: nothing newly timed.
    expect((await save(student!, quizId, { [first._id]: first.options![1]!._id })).status).toBe(200);
    expect((await save(student!, quizId, { [first._id]: null })).status).toBe(200);
    expect(await answerTimes()).toEqual({ [first._id]: near(100) });
    // Several at once (the other statement): each timed, the first kept.
    const several = { [first._id]: option(first), [second._id]: option(second), [third._id]: option(third) };
    expect((await save(student!, quizId, several)).status).toBe(200);
    expect(await answerTimes()).toEqual({ [first._id]: near(100), [second._id]: near(150), [third._id]: near(150) });
  });

  it('writes saves alone on PGlite and together on PostgreSQL by default', async () => {
    const { quizId, students, questions } = await startedClass(6);
    const question = questions[0]!;
    const batches = createAnswerSaveBatches(t.database.db, { inFlight: 1 });
    queries = [];
    const saved = await Promise.all(
      students.map((student) =>
        batches.save(optionSave(quizId, student.profile._id, question._id, question.options![0]!._id)),
      ),
    );
    expect(saved).toEqual(students.map(() => true));
    // PGlite: one statement a save; PostgreSQL: the first alone, the other five together.
    expect(batchStatements()).toHaveLength(t.database.kind === 'pglite' ? students.length : 2);
  });

  it('starts a new batch once the next save’s choices would pass its size', async () => {
    const { quizId, students, questions } = await startedClass(4);
    const question = questions[0]!;
    const option = question.options![0]!._id;
    const oneSave = JSON.stringify({ [question._id]: option }).length;
    // Room for two saves’ choices a batch: the first save alone, then the three left as 2 + 1.
    const batches = createAnswerSaveBatches(t.database.db, {
      inFlight: 1,
      mostPerBatch: 256,
      mostCharactersPerBatch: 2 * oneSave,
    });
    queries = [];
    const saved = await Promise.all(
      students.map((student) => batches.save(optionSave(quizId, student.profile._id, question._id, option))),
    );
    expect(saved).toEqual([true, true, true, true]);
    expect(batchStatements()).toHaveLength(3);
  });
});
