import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSIGNMENT_LIMITS, type NewAssignmentInput } from '#shared/assignments';
import type { Notification } from '#shared/notifications';
import { handInComments, handInFiles } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { multipartBody, SAMPLE_FILES, type MultipartFile } from '../../testing/multipart.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * A hand-in's files, attachments by signed address, the private thread and the assignments'
 * notifications (decision 061), through the API. Every refusal is checked to have stored nothing.
 */

const UPLOAD_MAX_BYTES = 20_000;
let t: TestApp;
type Actor = { token: string; profile: { _id: string } };
const as = (actor: Actor) => bearer(actor.token);

let teacher: Actor;
let otherTeacher: Actor;
let classOne: { id: string; name: string };
let classTwo: { id: string; name: string };
let first: Actor;
let second: Actor;
let inClassTwo: Actor;

beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 }, uploadMaxBytes: UPLOAD_MAX_BYTES });
  teacher = await signUpTeacher(t);
  otherTeacher = await signUpTeacher(t);
  classOne = await classTaughtBy(t, teacher);
  classTwo = await classTaughtBy(t, otherTeacher);
  const codes = async (by: Actor) =>
    (await t.call({ method: 'GET', url: '/api/classes', headers: as(by) })).body.data as {
      _id: string;
      joinCode: string;
    }[];
  const codeOf = async (classId: string, by: Actor) =>
    (await codes(by)).find((entry) => entry._id === classId)!.joinCode;
  first = await signUpStudent(t, { classCode: await codeOf(classOne.id, teacher) });
  second = await signUpStudent(t, { classCode: await codeOf(classOne.id, teacher) });
  inClassTwo = await signUpStudent(t, { classCode: await codeOf(classTwo.id, otherTeacher) });
});
afterAll(async () => {
  await t.close();
});

const inADay = (hours = 48) => new Date(Date.now() + hours * 3_600_000).toISOString();

async function create(overrides: Partial<NewAssignmentInput> = {}, by: Actor = teacher) {
  const payload: NewAssignmentInput = {
    classIds: [classOne.id],
    title: `Homework ${crypto.randomUUID().slice(0, 6)}`,
    instructions: 'Photograph your work',
    points: 10,
    dueAt: inADay(),
    acceptLate: true,
    publishAt: null,
    attachments: [],
    ...overrides,
  };
  const created = await t.call({ method: 'POST', url: '/api/assignments', headers: as(by), payload });
  expect(created.status, created.raw).toBe(201);
  return created.body.data as { _id: string; title: string; attachments: { fileUrl: string | null }[] };
}

const png = (name = 'photo.png'): MultipartFile => ({ name, content: SAMPLE_FILES.png(), contentType: 'image/png' });

function upload(actor: Actor, id: string, file: MultipartFile, headers: Record<string, string> = {}) {
  const form = multipartBody({}, [file]);
  return t.call({
    method: 'POST',
    url: `/api/student/assignments/${id}/files`,
    headers: { ...form.headers, ...as(actor), ...headers },
    payload: form.payload,
  });
}

const student = (actor: Actor, method: string, url: string, payload?: object) =>
  t.call({ method, url: `/api/student/assignments${url}`, headers: as(actor), payload });
const teacherCall = (actor: Actor, method: string, url: string, payload?: object) =>
  t.call({ method, url: `/api/assignments${url}`, headers: as(actor), payload });
const fetchFile = (url: string) => t.app.inject({ method: 'GET', url });

/** Finished and partial files in the uploads folder: what a refused upload must not leave. */
async function storedFiles(): Promise<string[]> {
  const folder = t.uploadsFolder!;
  const finished = (await readdir(folder)).filter((name) => name !== '.partial');
  const partial = (await readdir(path.join(folder, '.partial'))).map((name) => `.partial/${name}`);
  return [...finished, ...partial].sort();
}
const fileRows = async () => (await t.database.db.select({ n: count() }).from(handInFiles))[0]!.n;

async function notificationsOf(actor: Actor): Promise<Notification[]> {
  const listed = await t.call({ method: 'GET', url: '/api/notifications?limit=50', headers: as(actor) });
  expect(listed.status, listed.raw).toBe(200);
  return listed.body.data as Notification[];
}

describe('hand-in files', () => {
  it('uploads to the draft (a change of it), lists, hands in, and opens for the student and the class’s teacher only', async () => {
    const assignment = await create();
    const uploaded = await upload(first, assignment._id, png());
    expect(uploaded.status, uploaded.raw).toBe(201);
    expect(uploaded.body.data).toMatchObject({ version: 1, file: { fileName: 'photo.png', mimeType: 'image/png' } });
    // The other tab read version 0: its save is refused, nothing lost.
    const staleSave = await student(first, 'PUT', `/${assignment._id}/draft`, {
      text: 'from the other tab',
      version: 0,
    });
    expect(staleSave.status).toBe(409);
    expect(staleSave.body.code).toBe('HAND_IN_CHANGED');

    const own = await student(first, 'GET', `/${assignment._id}/files`);
    expect(own.body.data).toHaveLength(1);
    const studentUrl = own.body.data[0].url as string;
    const opened = await fetchFile(studentUrl);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('image/png');
    expect(opened.rawPayload.equals(SAMPLE_FILES.png())).toBe(true);

    // A draft is the student's own: the teacher lists nothing yet.
    const url = `/${assignment._id}/hand-ins/${first.profile._id}/files`;
    expect((await teacherCall(teacher, 'GET', url)).body.data).toEqual([]);
    const handedIn = await student(first, 'POST', `/${assignment._id}/hand-in`, { text: 'See photo', version: 1 });
    expect(handedIn.status, handedIn.raw).toBe(200);
    const forTeacher = await teacherCall(teacher, 'GET', url);
    expect(forTeacher.body.data).toHaveLength(1);
    expect((await fetchFile(forTeacher.body.data[0].url)).statusCode).toBe(200);
    expect((await teacherCall(otherTeacher, 'GET', url)).status).toBe(403);
    // A link signed for one person opens nothing for another, and names the file it was signed for.
    const stolen = (forTeacher.body.data[0].url as string).replace(
      /\/hand-in-files\/[^?]+/,
      `/hand-in-files/${crypto.randomUUID()}`,
    );
    expect((await fetchFile(stolen)).statusCode).toBe(403);
    expect((await student(second, 'GET', `/${assignment._id}/files`)).body.data).toEqual([]);

    // Handed in: no more uploads nor deletes, and nothing stored by the refusal.
    const before = await storedFiles();
    const late = await upload(first, assignment._id, png('second.png'));
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('HAND_IN_LOCKED');
    expect(await storedFiles()).toEqual(before);
    const removed = await student(first, 'DELETE', `/${assignment._id}/files/${own.body.data[0]._id}`);
    expect(removed.body.code).toBe('HAND_IN_LOCKED');
  });

  it('refuses a renamed program, a file over the limit and a 5 GB declaration: 4xx, nothing stored', async () => {
    const assignment = await create();
    const before = await storedFiles();
    const rows = await fileRows();
    const program = await upload(first, assignment._id, {
      name: 'essay.pdf',
      content: SAMPLE_FILES.exe(),
      contentType: 'application/pdf',
    });
    expect(program.status).toBe(415);
    expect(program.body.code).toBe('FILE_TYPE_NOT_ALLOWED');
    const over = await upload(first, assignment._id, {
      name: 'clip.mp4',
      content: SAMPLE_FILES.mp4(UPLOAD_MAX_BYTES + 1),
    });
    expect(over.status).toBe(413);
    const form = multipartBody({}, []);
    const declared = await t.call({
      method: 'POST',
      url: `/api/student/assignments/${assignment._id}/files`,
      headers: { ...form.headers, ...as(first), 'content-length': String(5 * 1024 ** 3) },
      payload: Buffer.alloc(10),
    });
    expect(declared.status).toBe(413);
    const noFile = await t.call({
      method: 'POST',
      url: `/api/student/assignments/${assignment._id}/files`,
      headers: { ...form.headers, ...as(first) },
      payload: form.payload,
    });
    expect(noFile.status).toBe(400);
    expect(await storedFiles()).toEqual(before);
    expect(await fileRows()).toBe(rows);
    // A student of another class stores nothing either.
    expect((await upload(inClassTwo, assignment._id, png())).status).toBe(403);
    expect(await storedFiles()).toEqual(before);
  });

  it(`holds at most ${ASSIGNMENT_LIMITS.handInFilesMax} files; removing one makes room and removes its bytes`, async () => {
    const assignment = await create();
    let version = 0;
    for (let index = 0; index < ASSIGNMENT_LIMITS.handInFilesMax; index++) {
      const uploaded = await upload(second, assignment._id, png(`page-${index}.png`));
      expect(uploaded.status, uploaded.raw).toBe(201);
      version = uploaded.body.data.version;
    }
    expect(version).toBe(ASSIGNMENT_LIMITS.handInFilesMax);
    const before = await storedFiles();
    const full = await upload(second, assignment._id, png('one-too-many.png'));
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('HAND_IN_FILES_FULL');
    expect(await storedFiles()).toEqual(before);

    const listed = (await student(second, 'GET', `/${assignment._id}/files`)).body.data as {
      _id: string;
      fileName: string;
    }[];
    expect(listed.map((file) => file.fileName)).toEqual(
      Array.from({ length: ASSIGNMENT_LIMITS.handInFilesMax }, (_, index) => `page-${index}.png`),
    );
    const removed = await student(second, 'DELETE', `/${assignment._id}/files/${listed[0]!._id}`);
    expect(removed.status, removed.raw).toBe(200);
    expect(removed.body.data).toEqual({ version: version + 1 });
    expect((await storedFiles()).length).toBe(before.length - 1);
    expect((await student(second, 'DELETE', `/${assignment._id}/files/${listed[0]!._id}`)).status).toBe(404);
    expect((await upload(second, assignment._id, png('again.png'))).status).toBe(201);
  });
});

describe('attachments', () => {
  it('opens for students of any of the assignment’s classes, whatever class’s library the resource is in', async () => {
    // The other teacher co-teaches class one, so they may post one assignment to both classes.
    const shared = await classTaughtBy(t, otherTeacher, [teacher]);
    const form = multipartBody({ classId: shared.id, fileName: 'worksheet.pdf' }, [
      { name: 'worksheet.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' },
    ]);
    const resource = await t.call({
      method: 'POST',
      url: '/api/teacher/upload-resource',
      headers: { ...form.headers, ...as(teacher) },
      payload: form.payload,
    });
    expect(resource.status, resource.raw).toBe(201);
    const assignment = await create({ classIds: [classOne.id], attachments: [resource.body.data._id] });
    const opened = await student(first, 'GET', `/${assignment._id}`);
    const fileUrl = opened.body.data.attachments[0].fileUrl as string;
    const response = await fetchFile(fileUrl);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    // Through the library, the same student may not open it: it is another class's resource.
    const library = await fetchFile(
      fileUrl.replace(/\/api\/assignments\/[^/]+\/attachments\/([^/]+)\/file/, '/api/resources/$1/file'),
    );
    expect(library.statusCode).toBe(403);
    // The teacher's own view carries a link too.
    expect((await fetchFile(assignment.attachments[0]!.fileUrl!)).statusCode).toBe(200);
  });
});

describe('the private thread', () => {
  it('lets the student and the class’s teacher talk, oldest first, paged; nobody else; each hears of the other', async () => {
    const assignment = await create();
    const own = (query = '') => student(first, 'GET', `/${assignment._id}/comments${query}`);
    const theirs = (actor: Actor, query = '') =>
      teacherCall(actor, 'GET', `/${assignment._id}/hand-ins/${first.profile._id}/comments${query}`);
    const asked = await student(first, 'POST', `/${assignment._id}/comments`, { text: 'Can I hand in a photo?' });
    expect(asked.status, asked.raw).toBe(201);
    const answered = await teacherCall(teacher, 'POST', `/${assignment._id}/hand-ins/${first.profile._id}/comments`, {
      text: 'Yes, a clear one.',
    });
    expect(answered.status, answered.raw).toBe(201);
    await student(first, 'POST', `/${assignment._id}/comments`, { text: 'Thanks!' });
    expect((await own()).body.data.map((comment: { text: string }) => comment.text)).toEqual([
      'Can I hand in a photo?',
      'Yes, a clear one.',
      'Thanks!',
    ]);
    const paged = await theirs(teacher, '?offset=1&limit=1');
    expect(paged.body.data).toMatchObject([{ text: 'Yes, a clear one.', mine: true, author: { role: 'teacher' } }]);
    expect(paged.body.page).toEqual({ offset: 1, limit: 1, hasMore: true });
    // A classmate reads their own (empty) thread; another class's teacher and student are refused.
    expect((await student(second, 'GET', `/${assignment._id}/comments`)).body.data).toEqual([]);
    expect((await theirs(otherTeacher)).status).toBe(403);
    expect((await student(inClassTwo, 'GET', `/${assignment._id}/comments`)).status).toBe(403);
    const tooLong = await student(first, 'POST', `/${assignment._id}/comments`, {
      text: 'x'.repeat(ASSIGNMENT_LIMITS.comment + 1),
    });
    expect(tooLong.status).toBe(400);
    expect(
      await t.database.db
        .select({ n: count() })
        .from(handInComments)
        .where(sql`text like 'xxx%'`),
    ).toEqual([{ n: 0 }]);
    const toTeacher = (await notificationsOf(teacher)).filter((item) => item.kind === 'HAND_IN_COMMENT');
    expect(toTeacher.map((item) => item.params)).toContainEqual(
      expect.objectContaining({ assignmentId: assignment._id, studentId: first.profile._id, title: assignment.title }),
    );
    const toStudent = (await notificationsOf(first)).filter(
      (item) => item.kind === 'HAND_IN_COMMENT' && item.params.assignmentId === assignment._id,
    );
    expect(toStudent).toHaveLength(1);
  });
});

describe('notifications of assignments', () => {
  it('ASSIGNMENT_POSTED now, or at its publish time; HAND_IN_RETURNED with the grade', async () => {
    const now = await create();
    const scheduled = await create({ publishAt: inADay(1), dueAt: inADay(30) });
    const posted = (await notificationsOf(second)).filter((item) => item.kind === 'ASSIGNMENT_POSTED');
    expect(posted.map((item) => item.params.assignmentId)).toContain(now._id);
    expect(posted.map((item) => item.params.assignmentId)).not.toContain(scheduled._id);
    // The publish time comes (moved to the past here): it is listed from then on.
    await t.database.db.execute(
      sql`update notifications set created_at = now() - interval '1 second' where params->>'assignmentId' = ${scheduled._id}`,
    );
    const later = (await notificationsOf(second)).filter((item) => item.kind === 'ASSIGNMENT_POSTED');
    expect(later.map((item) => item.params.assignmentId)).toContain(scheduled._id);
    expect((await notificationsOf(inClassTwo)).map((item) => item.params)).not.toContainEqual(
      expect.objectContaining({ assignmentId: now._id }),
    );

    await student(second, 'POST', `/${now._id}/hand-in`, { text: 'Done', version: 0 });
    await teacherCall(teacher, 'PUT', `/${now._id}/hand-ins/${second.profile._id}/grade`, {
      points: 7.5,
      feedback: 'Good',
      version: 1,
    });
    await teacherCall(teacher, 'POST', `/${now._id}/hand-ins/${second.profile._id}/return`);
    const returned = (await notificationsOf(second)).filter((item) => item.kind === 'HAND_IN_RETURNED');
    expect(returned.map((item) => item.params)).toContainEqual({
      assignmentId: now._id,
      title: now.title,
      points: 7.5,
      maxPoints: 10,
    });
  });

  it('ASSIGNMENT_DUE_SOON once, when the bell is read, for work due within a day and not handed in', async () => {
    const soon = await create({ dueAt: inADay(5) });
    const handedIn = await create({ dueAt: inADay(5) });
    const farOff = await create({ dueAt: inADay(72) });
    await student(first, 'POST', `/${handedIn._id}/hand-in`, { text: 'Done', version: 0 });
    const count = async () =>
      (await t.call({ method: 'GET', url: '/api/notifications/unread-count', headers: as(first) })).status;
    expect(await count()).toBe(200);
    expect(await count()).toBe(200);
    const dueSoon = (await notificationsOf(first)).filter((item) => item.kind === 'ASSIGNMENT_DUE_SOON');
    const ids = dueSoon.map((item) => item.params.assignmentId);
    expect(ids.filter((id) => id === soon._id)).toHaveLength(1);
    expect(ids).not.toContain(handedIn._id);
    expect(ids).not.toContain(farOff._id);
  });
});
