import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../realtime/test-buses.ts';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../testing/actors.ts';
import { buildNewQuiz } from '../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { startTwoInstancesOnRedis, type TwoInstances } from '../testing/two-instances.ts';
import { sql } from 'drizzle-orm';
import { eq } from 'drizzle-orm';
import { classes, quizzes } from '../db/schema.ts';
import { identityKey } from '#shared/identity';
import { multipartBody, SAMPLE_FILES } from '../testing/multipart.ts';

/**
 * The cached reads (decision 015) after each write that changes them: a page read just
 * before the write must never be served again after it. Each test warms the page first,
 * with a minute-long time limit, so only the write's announcement can make the change show.
 */

type Caller = { call: TestApp['call'] };
type Person = { token: string; profile: { _id: string } };

const CORRECT: Record<string, string> = {
  'What is 2 + 2?': '4',
  'What is the capital of France?': 'Paris',
  'Which is a prime number?': '7',
};

function scenarios(
  describeName: string,
  instances: () => { writer: Caller; reader: Caller; setUpOn: TestApp },
  condition = true,
) {
  describe.skipIf(!condition)(describeName, () => {
    const get = (on: Caller, person: Person, url: string) =>
      on.call({ method: 'GET', url, headers: bearer(person.token) });
    const send = async (
      on: Caller,
      person: Person,
      method: 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: object,
    ) => {
      const response = await on.call({ method, url, headers: bearer(person.token), payload });
      expect(response.status, response.raw).toBeLessThan(300);
      return response.body.data;
    };
    const newClass = () => `Cache-${randomUUID().slice(0, 8)}`;

    async function classWithQuiz() {
      const { setUpOn } = instances();
      const className = newClass();
      const teacher = await signUpTeacher(setUpOn);
      const student = await signUpStudent(setUpOn, { class: className, name: 'Casey Cache' });
      return { className, classId: await classIdTaughtBy(setUpOn, teacher, className), teacher, student };
    }

    it('quiz list: a new quiz, a start and a submission show at once', async () => {
      const { writer, reader } = instances();
      const { classId, teacher, student } = await classWithQuiz();
      const onlineIds = async () =>
        ((await get(reader, student, '/api/get-all-quiz?view=online')).body.data as { _id: string }[]).map(
          (quiz) => quiz._id,
        );
      expect(await onlineIds()).toEqual([]);

      const quiz = await send(writer, teacher, 'POST', '/api/teacher/add-quiz', buildNewQuiz({ classId }));
      expect(await onlineIds()).toEqual([quiz._id]);

      const online = async () => (await get(reader, student, '/api/get-all-quiz?view=online')).body.data[0];
      expect((await online()).attempt).toBeNull();
      const started = await send(writer, student, 'POST', `/api/quiz/${quiz._id}/start`);
      expect((await online()).attempt).not.toBeNull();

      const attempted = async () => (await get(reader, student, '/api/get-all-quiz?view=attempted')).body.data;
      expect(await attempted()).toEqual([]);
      const questions = started.quiz.questions as { _id: string; question_text: string }[];
      await send(writer, student, 'POST', '/api/student/update-student', {
        quiz: {
          _id: quiz._id,
          questions: questions.map((question) => ({
            _id: question._id,
            selectedOption: CORRECT[question.question_text],
          })),
        },
      });
      expect(await onlineIds()).toEqual([]);
      expect((await attempted()).map((row: { _id: string }) => row._id)).toEqual([quiz._id]);
    });

    it('quiz list: an attempt closed by the timer moves to Attempted at once', async () => {
      const { writer, reader, setUpOn } = instances();
      const { classId, teacher, student } = await classWithQuiz();
      const quiz = await send(writer, teacher, 'POST', '/api/teacher/add-quiz', buildNewQuiz({ classId, maxTime: 1 }));
      await send(writer, student, 'POST', `/api/quiz/${quiz._id}/start`);
      const attempted = async () =>
        ((await get(reader, student, '/api/get-all-quiz?view=attempted')).body.data as { _id: string }[]).map(
          (row) => row._id,
        );
      expect(await attempted()).toEqual([]);
      // The time and the grace run out (moved back in the database: nothing to announce yet)…
      await setUpOn.database.db.execute(sql`update quiz_attempts
        set started_at = started_at - interval '10 minutes', ends_at = ends_at - interval '10 minutes'
        where quiz_id = ${quiz._id}::uuid`);
      expect(await attempted()).toEqual([]); // the cached page, as expected
      // …then the next read of the quiz closes the attempt, which announces it.
      expect((await get(writer, student, `/api/quiz/${quiz._id}`)).status).toBe(200);
      expect(await attempted()).toEqual([quiz._id]);
    });

    it('library: an uploaded file shows at once; a star shows only as the starring student', async () => {
      const { writer, reader, setUpOn } = instances();
      const { className, classId, teacher, student } = await classWithQuiz();
      const classmate = await signUpStudent(setUpOn, { class: className });
      const library = async (person: Person) =>
        (await get(reader, person, '/api/get-resources')).body.data as {
          _id: string;
          isStarred: boolean;
          starCount: number;
        }[];
      expect(await library(student)).toEqual([]);
      expect(await library(classmate)).toEqual([]);
      const { payload, headers } = multipartBody({ classId }, [{ name: 'Cells.pdf', content: SAMPLE_FILES.pdf() }]);
      const uploaded = await writer.call({
        method: 'POST',
        url: '/api/teacher/upload-resource',
        headers: { ...headers, ...bearer(teacher.token) },
        payload,
      });
      expect(uploaded.status, uploaded.raw).toBe(201);
      expect((await library(student)).map((resource) => resource._id)).toEqual([uploaded.body.data._id]);
      expect(await library(classmate)).toHaveLength(1);

      await send(writer, student, 'POST', `/api/resources/${uploaded.body.data._id}/star`, { action: 'star' });
      expect(await library(student)).toMatchObject([{ isStarred: true, starCount: 1 }]);
      expect(await library(classmate)).toMatchObject([{ isStarred: false, starCount: 1 }]);
    });

    it('leaderboards: a submission moves the class and the all-classes pages at once', async () => {
      const { writer, reader } = instances();
      const { className, classId, teacher, student } = await classWithQuiz();
      const quiz = await send(writer, teacher, 'POST', '/api/teacher/add-quiz', buildNewQuiz({ classId }));
      const names = async (person: Person, url: string) =>
        ((await get(reader, person, url)).body.data as { name: string }[]).map((entry) => entry.name);
      const classPage = `/api/get-students?classId=${await classIdTaughtBy(instances().setUpOn, teacher, className)}`;
      expect(await names(student, '/api/get-students')).toEqual([]);
      expect(await names(teacher, classPage)).toEqual([]);
      expect(await names(teacher, `${classPage}&search=casey`)).toEqual([]);

      const started = await send(writer, student, 'POST', `/api/quiz/${quiz._id}/start`);
      await send(writer, student, 'POST', '/api/student/update-student', {
        quiz: {
          _id: quiz._id,
          questions: (started.quiz.questions as { _id: string }[]).map((question) => ({ _id: question._id })),
        },
      });
      expect(await names(student, '/api/get-students')).toEqual(['Casey Cache']);
      expect(await names(teacher, classPage)).toEqual(['Casey Cache']);
      expect(await names(teacher, `${classPage}&search=casey`)).toEqual(['Casey Cache']);
    });

    it('library: a new link, an edit, a star, a move and a deletion show at once', async () => {
      const { writer, reader } = instances();
      const { classId, teacher, student } = await classWithQuiz();
      const library = async (query = '') =>
        (await get(reader, student, `/api/get-resources${query}`)).body.data as {
          _id: string;
          fileName: string;
          isStarred: boolean;
        }[];
      expect(await library()).toEqual([]);
      expect(await library('?search=newton')).toEqual([]);

      const link = await send(writer, teacher, 'POST', '/api/teacher/add-resource-link', {
        url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        fileName: 'Newton in 5 minutes',
        classId,
      });
      expect((await library()).map((resource) => resource.fileName)).toEqual(['Newton in 5 minutes']);
      expect(await library('?search=newton')).toHaveLength(1);

      await send(writer, teacher, 'PATCH', `/api/teacher/resources/${link._id}`, { fileName: 'Newton, again' });
      expect((await library()).map((resource) => resource.fileName)).toEqual(['Newton, again']);

      expect((await library())[0]!.isStarred).toBe(false);
      await send(writer, student, 'POST', `/api/resources/${link._id}/star`, { action: 'star' });
      expect((await library())[0]!.isStarred).toBe(true);
      expect(await library('?starred=true')).toHaveLength(1);

      await send(writer, teacher, 'PATCH', `/api/teacher/resources/${link._id}`, {
        classId: await classIdTaughtBy(instances().setUpOn, teacher, newClass()),
      });
      expect(await library()).toEqual([]);
      await send(writer, teacher, 'PATCH', `/api/teacher/resources/${link._id}`, { classId });
      expect(await library()).toHaveLength(1);

      await send(writer, teacher, 'DELETE', `/api/teacher/resources/${link._id}`);
      expect(await library()).toEqual([]);
    });
  });
}

const MINUTE = 60_000;

// One instance: the versions live in the process.
let single: TestApp;
beforeAll(async () => {
  single = await createTestApp({ readCache: { ttlMs: MINUTE } });
});
afterAll(() => single?.close());
scenarios('read cache, one instance: every write shows on the next read', () => ({
  writer: single,
  reader: single,
  setUpOn: single,
}));

// Two instances on one database (two Fastify apps, one PGlite) and one Redis: a write on one
// must show on the next read on the other, whose cache holds the old page.
let instances: TwoInstances | undefined;
beforeAll(async () => {
  if (TEST_REDIS_URL) instances = await startTwoInstancesOnRedis({ ttlMs: MINUTE });
});
afterAll(() => instances?.close());
scenarios(
  'read cache, two instances sharing Redis versions: a write on one shows on the next read on the other',
  () => ({ writer: instances!.first, reader: instances!.second, setUpOn: instances!.first }),
  Boolean(TEST_REDIS_URL),
);

// Guards the test itself: without the announcements the pages above would be stale.
describe('read cache without announcements (the control)', () => {
  it('serves the page read before a write that was not announced', async () => {
    const teacher = await signUpTeacher(single);
    const student = await signUpStudent(single, { class: `Cache-${randomUUID().slice(0, 8)}` });
    const list = () => single.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(student.token) });
    expect((await list()).body.data).toEqual([]);
    // A quiz written straight into the database, as another program would: no announcement.
    await single.database.db.insert(quizzes).values({
      title: 'Unannounced',
      subject: 'Maths',
      classId: (
        await single.database.db
          .select({ id: classes.id })
          .from(classes)
          .where(eq(classes.nameKey, identityKey(student.profile.class)))
      )[0]!.id,
      deadline: new Date(Date.now() + 86_400_000),
      maxTimeMinutes: 10,
      closesAt: new Date(Date.now() + 86_400_000 + 630_000),
      createdByTeacherId: teacher.profile._id,
      background: buildNewQuiz().quiz.background,
      questions: [],
      questionCount: 0,
    });
    expect((await list()).body.data).toEqual([]);
  });
});
