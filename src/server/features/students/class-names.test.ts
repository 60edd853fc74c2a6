import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityKey } from '#shared/identity';
import type { QuizQuestion } from '#shared/quizzes';
import type { Resource } from '#shared/resources';
import { MAX_TAGGED_TTL_MS } from '../../cache/read-cache.ts';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { multipartBody, SAMPLE_FILES } from '../../testing/multipart.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * One class however its name is spelled (decision 024): case, NFC or NFD, spaces around. A
 * quiz, a resource and a leaderboard reach every student of the class, through the real
 * HTTP layer. The read cache keeps pages for a minute here, so a class tag that depended on
 * the spelling would serve a stale page and fail these tests.
 */

let t: TestApp;
type Student = Awaited<ReturnType<typeof signUpStudent>>;
type Teacher = Awaited<ReturnType<typeof signUpTeacher>>;

const tag = randomBytes(3).toString('hex');
const TAG = tag.toUpperCase();
/** One class, five spellings: capitals or not, 'ö' precomposed (NFC) or o + U+0308 (NFD), spaces around. */
const SPELLED = {
  byQuiz: `  öKO-X${TAG} `,
  byFirstStudent: `ÖKO-X${TAG}`,
  bySecondStudent: `o\u0308ko-x${tag}`,
  byResource: `O\u0308KO-X${TAG}`,
  byFilter: `Öko-x${tag}`,
};
const OTHER_CLASS = `Öko-x${tag}-b`;

let teacher: Teacher;
let classmates: Student[];
let outsider: Student;
let quizId: string;

const get = (actor: { token: string }, url: string) => t.call({ method: 'GET', url, headers: bearer(actor.token) });
const post = (actor: { token: string }, url: string, payload: object) =>
  t.call({ method: 'POST', url, payload, headers: bearer(actor.token) });
const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: MAX_TAGGED_TTL_MS } });
  teacher = await signUpTeacher(t);
  // The teacher's class: its students are the only ones the students screen shows them.
  await classIdTaughtBy(t, teacher, SPELLED.byFirstStudent);
  classmates = [
    await signUpStudent(t, { class: SPELLED.byFirstStudent }),
    await signUpStudent(t, { class: SPELLED.bySecondStudent }),
  ];
  outsider = await signUpStudent(t, { class: OTHER_CLASS });
});
afterAll(async () => {
  await t.close();
});

describe('a class spelled several ways is one class', () => {
  it('answers the class record’s name to each of its students, whatever spelling led them there', () => {
    // Students register by the class's code now (decision 031): their class is the record's name.
    expect(classmates.map((student) => student.profile.class)).toEqual([`ÖKO-X${TAG}`, `ÖKO-X${TAG}`]);
  });

  it('sends a quiz saved for one spelling to the students of every other, at once', async () => {
    // Each student's (cached) list first: the new quiz must still show at once.
    for (const student of [...classmates, outsider])
      expect((await get(student, '/api/get-all-quiz')).body.data).toEqual([]);
    const created = await post(
      teacher,
      '/api/teacher/add-quiz',
      buildNewQuiz({ classId: await classIdTaughtBy(t, teacher, SPELLED.byQuiz) }),
    );
    expect(created.status, created.raw).toBe(201);
    quizId = created.body.data._id;
    for (const student of classmates) {
      const listed = await get(student, '/api/get-all-quiz');
      expect(listed.body.data.map((quiz: { _id: string }) => quiz._id)).toEqual([quizId]);
      expect((await get(student, `/api/quiz/${quizId}`)).status).toBe(200);
    }
    expect((await get(outsider, '/api/get-all-quiz')).body.data).toEqual([]);
    expect((await get(outsider, `/api/quiz/${quizId}`)).status).toBe(403);
  });

  it('puts every student of the class on its leaderboard, whichever spelling led them there', async () => {
    for (const student of classmates) {
      const started = await post(student, `/api/quiz/${quizId}/start`, {});
      expect(started.status, started.raw).toBe(200);
      const questions = started.body.data.quiz.questions as QuizQuestion[];
      const answers = questions.map((question) => ({ _id: question._id, selectedOption: question.options![0]!._id }));
      const submitted = await post(student, '/api/student/update-student', {
        quiz: { _id: quizId, questions: answers },
      });
      expect(submitted.status, submitted.raw).toBe(200);
    }
    const ids = classmates.map((student) => student.profile._id).sort();
    const leaderboardIds = async (actor: { token: string }, values: Record<string, string>) => {
      const response = await get(actor, `/api/get-students?${query(values)}`);
      expect(response.status, response.raw).toBe(200);
      return response.body.data.map((entry: { _id: string }) => entry._id).sort();
    };
    // The leaderboard asks for a class by its id (decision 031): spellings led to that one class.
    const classId = await classIdTaughtBy(t, teacher, SPELLED.byFilter);
    expect(await leaderboardIds(teacher, { classId })).toEqual(ids);
    expect(await leaderboardIds(teacher, { classId, search: 'Student' })).toEqual(ids);
    expect(await leaderboardIds(classmates[0]!, { classId })).toEqual(ids);
    expect(await leaderboardIds(classmates[1]!, {})).toEqual(ids);
    expect((await get(outsider, `/api/get-students?${query({ classId })}`)).status).toBe(403);
  });

  it('shares a resource with every student of the class, files and stars included', async () => {
    const library = async (actor: { token: string }, values: Record<string, string> = {}) => {
      const response = await get(actor, `/api/get-resources?${query(values)}`);
      expect(response.status, response.raw).toBe(200);
      return response.body.data as Resource[];
    };
    for (const student of classmates) expect(await library(student)).toEqual([]);

    const link = await post(teacher, '/api/teacher/add-resource-link', {
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      fileName: 'Compost',
      classId: await classIdTaughtBy(t, teacher, SPELLED.byResource),
    });
    expect(link.status, link.raw).toBe(201);
    const { payload, headers } = multipartBody({ classId: await classIdTaughtBy(t, teacher, SPELLED.byFirstStudent) }, [
      { name: 'soil.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' },
    ]);
    const upload = await t.call({
      method: 'POST',
      url: '/api/teacher/upload-resource',
      payload,
      headers: { ...headers, ...bearer(teacher.token) },
    });
    expect(upload.status, upload.raw).toBe(201);

    for (const student of classmates) {
      const names = (await library(student)).map((resource) => resource.fileName).sort();
      expect(names).toEqual(['Compost', 'soil.pdf']);
      expect((await library(student, { classId: await classIdTaughtBy(t, teacher, SPELLED.byFilter) })).length).toBe(2);
      const file = (await library(student)).find((resource) => resource.kind === 'file')!;
      expect((await t.app.inject({ method: 'GET', url: file.fileURL })).statusCode).toBe(200);
    }
    expect(await library(outsider)).toEqual([]);
    const classId = await classIdTaughtBy(t, teacher, SPELLED.bySecondStudent);
    expect((await get(outsider, `/api/get-resources?${query({ classId })}`)).status).toBe(403);
    expect((await library(teacher, { classId })).length).toBe(2);

    // A star stays when the resource is "moved" to the class it is in (every spelling is that one class).
    const starrer = classmates[1]!;
    const starred = await post(starrer, `/api/resources/${link.body.data._id}/star`, { action: 'star' });
    expect(starred.status, starred.raw).toBe(200);
    const moved = await t.call({
      method: 'PATCH',
      url: `/api/teacher/resources/${link.body.data._id}`,
      payload: { classId: await classIdTaughtBy(t, teacher, SPELLED.byFilter) },
      headers: bearer(teacher.token),
    });
    expect(moved.status, moved.raw).toBe(200);
    const seen = (await library(starrer)).find((resource) => resource._id === link.body.data._id)!;
    expect(seen).toMatchObject({ classId, isStarred: true });
  });

  it('lists the class once on the students screen and filters by it', async () => {
    const classes = (await get(teacher, '/api/teacher/classes')).body.data as string[];
    expect(classes.filter((name) => identityKey(name) === identityKey(SPELLED.byFilter))).toHaveLength(1);
    const classId = await classIdTaughtBy(t, teacher, SPELLED.byFilter);
    const listed = await get(teacher, `/api/teacher/students?${query({ classId })}`);
    expect(listed.body.data.map((student: { _id: string }) => student._id).sort()).toEqual(
      classmates.map((student) => student.profile._id).sort(),
    );
  });
});
