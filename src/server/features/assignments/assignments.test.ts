import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSIGNMENT_LIMITS, type NewAssignmentInput } from '#shared/assignments';
import { assignments, handIns } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Assignments and hand-ins through the API (issue 33, decision 058), on PGlite and PostgreSQL:
 * the loop (create, draft, hand in, take back, grade, return, regrade), the late rule by the
 * server's clock, the edit locks, delete and archive, and who may do what. Every refusal is
 * checked to have changed nothing.
 */

let t: TestApp;
type Actor = { token: string; profile: { _id: string } };
const as = (actor: Actor) => bearer(actor.token);

let teacher: Actor;
let coTeacher: Actor;
let otherTeacher: Actor;
let classOne: { id: string; name: string };
let classTwo: { id: string; name: string };
let otherClass: { id: string; name: string };
let first: Actor;
let second: Actor;
let inClassTwo: Actor;
let outsider: Actor;
let videoId: string;

beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
  teacher = await signUpTeacher(t);
  coTeacher = await signUpTeacher(t);
  otherTeacher = await signUpTeacher(t);
  classOne = await classTaughtBy(t, teacher, [coTeacher]);
  classTwo = await classTaughtBy(t, teacher);
  otherClass = await classTaughtBy(t, otherTeacher);
  const joinCodeOf = async (classId: string) =>
    (
      await t.call({
        method: 'GET',
        url: '/api/classes',
        headers: as(classId === otherClass.id ? otherTeacher : teacher),
      })
    ).body.data.find((entry: { _id: string }) => entry._id === classId).joinCode as string;
  // Names sort "A…" before "B…": the teacher's hand-in list is by name.
  first = await signUpStudent(t, { name: 'Ada First', classCode: await joinCodeOf(classOne.id) });
  second = await signUpStudent(t, { name: 'Ben Second', classCode: await joinCodeOf(classOne.id) });
  inClassTwo = await signUpStudent(t, { classCode: await joinCodeOf(classTwo.id) });
  outsider = await signUpStudent(t, { classCode: await joinCodeOf(otherClass.id) });
  const video = await t.call({
    method: 'POST',
    url: '/api/teacher/add-resource-link',
    headers: as(teacher),
    payload: { url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', fileName: 'Fractions video', classId: classOne.id },
  });
  expect(video.status, video.raw).toBe(201);
  videoId = video.body.data._id;
});
afterAll(async () => {
  await t.close();
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

const body = (overrides: Partial<NewAssignmentInput> = {}): NewAssignmentInput => ({
  classIds: [classOne.id],
  title: 'Fractions homework',
  instructions: '## Do\n\n1. Exercises 1–5\n2. Show your work',
  points: 10,
  dueAt: inAnHour(),
  acceptLate: true,
  publishAt: null,
  attachments: [],
  ...overrides,
});

async function create(overrides: Partial<NewAssignmentInput> = {}, by: Actor = teacher) {
  const created = await t.call({ method: 'POST', url: '/api/assignments', headers: as(by), payload: body(overrides) });
  expect(created.status, created.raw).toBe(201);
  return created.body.data as { _id: string; version: number; [key: string]: any };
}

const student = (actor: Actor, method: string, url: string, payload?: object) =>
  t.call({ method: method, url: `/api/student/assignments${url}`, headers: as(actor), payload });
const teacherCall = (actor: Actor, method: string, url: string, payload?: object) =>
  t.call({ method: method, url: `/api/assignments${url}`, headers: as(actor), payload });

const counts = async () => ({
  assignments: (await t.database.db.select({ n: count() }).from(assignments))[0]!.n,
  handIns: (await t.database.db.select({ n: count() }).from(handIns))[0]!.n,
  handInVersions: (
    await t.database.db.select({ sum: sql<number>`coalesce(sum(${handIns.version}), 0)::int` }).from(handIns)
  )[0]!.sum,
});

describe('creating and listing assignments', () => {
  it('creates one for two classes with an attachment; each class lists it, students of both see it', async () => {
    const created = await create({ classIds: [classOne.id, classTwo.id], attachments: [videoId] });
    expect(created).toMatchObject({
      title: 'Fractions homework',
      points: 10,
      acceptLate: true,
      archived: false,
      version: 1,
      isOwner: true,
      handIns: { handedIn: 0, toGrade: 0, returned: 0 },
      attachments: [{ _id: videoId, kind: 'link', fileName: 'Fractions video' }],
    });
    expect(created.classes.map((entry: { _id: string }) => entry._id).sort()).toEqual(
      [classOne.id, classTwo.id].sort(),
    );
    for (const classId of [classOne.id, classTwo.id]) {
      const listed = await t.call({ method: 'GET', url: `/api/classes/${classId}/assignments`, headers: as(teacher) });
      expect(listed.status, listed.raw).toBe(200);
      expect(listed.body.data.map((entry: { _id: string }) => entry._id)).toContain(created._id);
    }
    // The co-teacher of class one reads it, but does not own it.
    const read = await teacherCall(coTeacher, 'GET', `/${created._id}`);
    expect(read.status, read.raw).toBe(200);
    expect(read.body.data.isOwner).toBe(false);
    for (const pupil of [first, inClassTwo]) {
      const todo = await student(pupil, 'GET', '?group=todo');
      expect(todo.body.data.map((entry: { _id: string }) => entry._id)).toContain(created._id);
    }
    // Each student sees only their own class of it.
    const mine = (await student(inClassTwo, 'GET', `/${created._id}`)).body.data;
    expect(mine.classes).toEqual([{ _id: classTwo.id, name: classTwo.name }]);
    expect((await student(outsider, 'GET', '?group=todo')).body.data).toEqual([]);
  });

  it('refuses another teacher’s class (403), an unknown class (404), and a co-teacher’s edit (403); nothing changes', async () => {
    const before = await counts();
    const theirs = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: as(otherTeacher),
      payload: body(),
    });
    expect(theirs.status, theirs.raw).toBe(403);
    const mixed = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: as(teacher),
      payload: body({ classIds: [classOne.id, otherClass.id] }),
    });
    expect(mixed.status, mixed.raw).toBe(403);
    const unknown = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: as(teacher),
      payload: body({ classIds: [crypto.randomUUID()] }),
    });
    expect(unknown.status, unknown.raw).toBe(404);
    const created = await create();
    const after = await counts();
    const edit = await teacherCall(coTeacher, 'PUT', `/${created._id}`, { ...body({ title: 'Mine now' }), version: 1 });
    expect(edit.status, edit.raw).toBe(403);
    expect((await teacherCall(otherTeacher, 'GET', `/${created._id}`)).status).toBe(403);
    expect((await teacherCall(otherTeacher, 'DELETE', `/${created._id}`)).status).toBe(403);
    expect(after.assignments).toBe(before.assignments + 1);
    expect(await counts()).toEqual(after);
  });

  it('refuses bad input with a 4xx and a code, and writes nothing', async () => {
    const before = await counts();
    const cases: [Partial<NewAssignmentInput> | Record<string, unknown>, number, string][] = [
      [{ dueAt: '30000-01-01T00:00:00Z' }, 400, 'dueAt'],
      [{ dueAt: '2999-01-01T00:00:00Z' }, 400, 'dueAt'],
      [{ publishAt: '1970-01-01T00:00:00Z' }, 400, 'publishAt'],
      [{ points: -5 }, 400, 'points'],
      [{ points: 0 }, 400, 'points'],
      [{ points: 2.3 }, 400, 'points'],
      [{ points: 1e9 }, 400, 'points'],
      [{ instructions: 'x'.repeat(ASSIGNMENT_LIMITS.instructions + 1) }, 400, 'instructions'],
      [{ title: '   ' }, 400, 'title'],
      [{ classIds: [] }, 400, 'classIds'],
      [{ classIds: [classOne.id, classOne.id] }, 400, 'classIds'],
      [{ attachments: [crypto.randomUUID()] }, 400, 'attachments.0'],
      [{ publishAt: inAnHour(), dueAt: anHourAgo() }, 400, 'publishAt'],
      [{ grade: 'A' }, 400, 'grade'],
    ];
    for (const [overrides, status, field] of cases) {
      const response = await t.call({
        method: 'POST',
        url: '/api/assignments',
        headers: as(teacher),
        payload: body(overrides),
      });
      expect(response.status, `${JSON.stringify(overrides).slice(0, 80)}: ${response.raw.slice(0, 300)}`).toBe(status);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      expect(typeof response.body.errors[0].code).toBe('string');
    }
    const noClass = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: as(teacher),
      payload: body({ classIds: [] }),
    });
    expect(noClass.body.errors).toContainEqual(expect.objectContaining({ field: 'classIds', code: 'NO_CLASS_CHOSEN' }));
    for (const instructions of [
      'Read this <script>alert(1)</script>',
      '<iframe src="https://example.com"></iframe>',
      'Look: <img src=x onerror=alert(1)>',
      '# Title\n\n- item <SCRIPT SRC=//evil.example/x.js></SCRIPT>',
    ]) {
      const refused = await t.call({
        method: 'POST',
        url: '/api/assignments',
        headers: as(teacher),
        payload: body({ instructions }),
      });
      expect(refused.status, instructions).toBe(400);
      expect(refused.body.errors).toContainEqual(
        expect.objectContaining({ field: 'instructions', code: 'SCRIPT_IN_TEXT' }),
      );
    }
    const range = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: as(teacher),
      payload: body({ dueAt: '2999-01-01T00:00:00Z' }),
    });
    expect(range.body.errors[0]).toMatchObject({ code: 'DATE_OUT_OF_RANGE', params: { minimum: 2000, maximum: 2100 } });
    // Too big to be read at all: 10,000 attachments, a megabyte of instructions.
    for (const overrides of [
      { attachments: Array.from({ length: 10_000 }, () => crypto.randomUUID()) },
      { instructions: 'x'.repeat(1_000_000) },
    ]) {
      const response = await t.call({
        method: 'POST',
        url: '/api/assignments',
        headers: as(teacher),
        payload: body(overrides),
      });
      expect(response.status, response.raw.slice(0, 200)).toBe(413);
    }
    // The largest valid instructions fit the route's body limit, in 3-byte characters.
    const largest = await create({ instructions: '€'.repeat(ASSIGNMENT_LIMITS.instructions) });
    expect(largest.instructions).toHaveLength(ASSIGNMENT_LIMITS.instructions);
    expect((await counts()).assignments).toBe(before.assignments + 1);
  });

  it('hides an assignment from students until its publish time', async () => {
    const later = await create({ publishAt: inAnHour(), dueAt: null });
    expect((await student(first, 'GET', '?group=todo')).body.data.map((entry: any) => entry._id)).not.toContain(
      later._id,
    );
    expect((await student(first, 'GET', `/${later._id}`)).status).toBe(404);
    const saved = await student(first, 'PUT', `/${later._id}/draft`, { text: 'early', version: 0 });
    expect(saved.status, saved.raw).toBe(404);
    // Its teachers see it all the time.
    expect((await teacherCall(teacher, 'GET', `/${later._id}`)).status).toBe(200);
  });
});

describe('handing in', () => {
  it('saves drafts by version, hands in, takes back and hands in again', async () => {
    const assignment = await create();
    const url = `/${assignment._id}`;
    const draft = await student(first, 'PUT', `${url}/draft`, { text: 'Half done', version: 0 });
    expect(draft.status, draft.raw).toBe(200);
    expect(draft.body.data.handIn).toMatchObject({ state: 'draft', version: 1, submittedAt: null, late: false });
    expect(draft.body.data.handIn.text).toBe('Half done');
    // A second tab that read version 0 (no hand-in) is refused, and changes nothing.
    const before = await counts();
    const stale = await student(first, 'PUT', `${url}/draft`, { text: 'Other tab', version: 0 });
    expect(stale.status, stale.raw).toBe(409);
    expect(stale.body.code).toBe('HAND_IN_CHANGED');
    expect(await counts()).toEqual(before);
    const again = await student(first, 'PUT', `${url}/draft`, { text: 'Nearly done', version: 1 });
    expect(again.body.data.handIn.version).toBe(2);
    expect((await student(first, 'PUT', `${url}/draft`, { text: 'Late tab', version: 1 })).body.code).toBe(
      'HAND_IN_CHANGED',
    );
    // The teacher does not see a draft.
    const rows = await teacherCall(teacher, 'GET', `${url}/hand-ins?classId=${classOne.id}`);
    expect(rows.body.data.map((row: any) => [row.student.name, row.state])).toEqual([
      ['Ada First', 'not-handed-in'],
      ['Ben Second', 'not-handed-in'],
    ]);
    expect((await teacherCall(teacher, 'GET', `${url}/hand-ins/${first.profile._id}`)).body.data.text).toBe('');

    const handedIn = await student(first, 'POST', `${url}/hand-in`, { text: 'All done', version: 2 });
    expect(handedIn.status, handedIn.raw).toBe(200);
    expect(handedIn.body.data.handIn).toMatchObject({ state: 'handed-in', version: 3, late: false });
    expect(handedIn.body.data.group).toBe('done');
    expect((await student(first, 'PUT', `${url}/draft`, { text: 'Change', version: 3 })).body.code).toBe(
      'HAND_IN_LOCKED',
    );
    const back = await student(first, 'POST', `${url}/take-back`, { version: 3 });
    expect(back.status, back.raw).toBe(200);
    expect(back.body.data.handIn).toMatchObject({ state: 'draft', submittedAt: null, version: 4 });
    expect(back.body.data.handIn.text).toBe('All done');
    const twice = await student(first, 'POST', `${url}/hand-in`, { text: 'All done, checked', version: 4 });
    expect(twice.body.data.handIn.state).toBe('handed-in');
    // A student with no draft hands in at once.
    const direct = await student(second, 'POST', `${url}/hand-in`, { text: 'Done', version: 0 });
    expect(direct.body.data.handIn).toMatchObject({ state: 'handed-in', version: 1 });
    const done = await student(first, 'GET', '?group=done');
    expect(done.body.data.map((entry: any) => entry._id)).toContain(assignment._id);
  });

  it('marks a hand-in after the due time late, by the server’s clock; refuses it when late work is closed', async () => {
    const open = await create({ dueAt: anHourAgo(), acceptLate: true });
    const closed = await create({ dueAt: anHourAgo(), acceptLate: false });
    for (const pupil of [first, second]) {
      const missing = await student(pupil, 'GET', '?group=missing');
      expect(missing.body.data.map((entry: any) => entry._id)).toEqual(expect.arrayContaining([open._id, closed._id]));
    }
    const late = await student(first, 'POST', `/${open._id}/hand-in`, { text: 'Sorry', version: 0 });
    expect(late.status, late.raw).toBe(200);
    expect(late.body.data.handIn).toMatchObject({ state: 'handed-in', late: true });
    const before = await counts();
    const refused = await student(first, 'POST', `/${closed._id}/hand-in`, { text: 'Sorry', version: 0 });
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.code).toBe('ASSIGNMENT_CLOSED');
    expect(await counts()).toEqual(before);
    // A draft may still be kept; the teacher's list shows it as missing.
    expect((await student(first, 'PUT', `/${closed._id}/draft`, { text: 'Kept', version: 0 })).status).toBe(200);
    const detail = (await student(first, 'GET', `/${closed._id}`)).body.data;
    expect(detail).toMatchObject({ closed: true, group: 'missing' });
    const rows = (await teacherCall(teacher, 'GET', `/${closed._id}/hand-ins?classId=${classOne.id}`)).body.data;
    expect(rows.map((row: any) => [row.state, row.missing])).toEqual([
      ['not-handed-in', true],
      ['not-handed-in', true],
    ]);
    const lateRows = (await teacherCall(teacher, 'GET', `/${open._id}/hand-ins?classId=${classOne.id}`)).body.data;
    expect(lateRows[0]).toMatchObject({ state: 'handed-in', late: true, missing: false });
  });

  it('keeps each student to their own classes and their own work', async () => {
    const assignment = await create();
    expect((await student(outsider, 'GET', `/${assignment._id}`)).status).toBe(403);
    const before = await counts();
    const foreign = await student(outsider, 'POST', `/${assignment._id}/hand-in`, { text: 'Mine?', version: 0 });
    expect(foreign.status, foreign.raw).toBe(403);
    expect(await counts()).toEqual(before);
    // Another teacher cannot read or grade a hand-in of a class they do not teach.
    await student(first, 'POST', `/${assignment._id}/hand-in`, { text: 'Mine', version: 0 });
    const theirs = await teacherCall(otherTeacher, 'GET', `/${assignment._id}/hand-ins/${first.profile._id}`);
    expect(theirs.status, theirs.raw).toBe(403);
    const grade = await teacherCall(otherTeacher, 'PUT', `/${assignment._id}/hand-ins/${first.profile._id}/grade`, {
      points: 10,
      feedback: '',
      version: 1,
    });
    expect(grade.status).toBe(403);
    const list = await teacherCall(otherTeacher, 'GET', `/${assignment._id}/hand-ins?classId=${classOne.id}`);
    expect(list.status).toBe(403);
    const returned = await teacherCall(otherTeacher, 'POST', `/${assignment._id}/return-all`, {});
    expect(returned.status).toBe(403);
    // A student of a class the assignment is not for: no such hand-in to read.
    expect((await teacherCall(teacher, 'GET', `/${assignment._id}/hand-ins/${outsider.profile._id}`)).status).toBe(404);
  });
});

describe('grading and returning', () => {
  it('grades within the points, returns, and flags a grade changed after its return', async () => {
    const assignment = await create();
    const url = `/${assignment._id}`;
    await student(first, 'POST', `${url}/hand-in`, { text: 'Answer', version: 0 });
    const gradeUrl = `${url}/hand-ins/${first.profile._id}/grade`;
    const before = await counts();
    for (const [payload, field] of [
      [{ points: 11, feedback: '', version: 1 }, 'points'],
      [{ points: -1, feedback: '', version: 1 }, 'points'],
      [{ points: null, feedback: 'No points?', version: 1 }, 'points'],
      [{ points: 5, feedback: 'x'.repeat(ASSIGNMENT_LIMITS.feedback + 1), version: 1 }, 'feedback'],
    ] as const) {
      const refused = await teacherCall(teacher, 'PUT', gradeUrl, payload);
      expect(refused.status, refused.raw).toBe(400);
      expect(refused.body.errors[0].field).toBe(field);
    }
    expect((await teacherCall(teacher, 'PUT', gradeUrl, { points: 5, feedback: '', version: 7 })).body.code).toBe(
      'HAND_IN_CHANGED',
    );
    const notHandedIn = await teacherCall(teacher, 'PUT', `${url}/hand-ins/${second.profile._id}/grade`, {
      points: 0,
      feedback: '',
      version: 0,
    });
    expect(notHandedIn.body.code).toBe('HAND_IN_LOCKED');
    expect(await counts()).toEqual(before);

    // The co-teacher of the class grades.
    const graded = await teacherCall(coTeacher, 'PUT', gradeUrl, { points: 7.5, feedback: 'Good work', version: 1 });
    expect(graded.status, graded.raw).toBe(200);
    expect(graded.body.data).toMatchObject({ state: 'graded', points: 7.5, feedback: 'Good work', version: 2 });
    // Not yet returned: the student sees no grade, and can no longer take it back.
    const waiting = (await student(first, 'GET', url)).body.data;
    expect(waiting.handIn).toMatchObject({ state: 'graded', points: null, feedback: null });
    expect((await student(first, 'POST', `${url}/take-back`, { version: 2 })).body.code).toBe('HAND_IN_LOCKED');

    expect((await teacherCall(teacher, 'POST', `${url}/hand-ins/${second.profile._id}/return`)).body.code).toBe(
      'HAND_IN_LOCKED',
    );
    const returned = await teacherCall(teacher, 'POST', `${url}/hand-ins/${first.profile._id}/return`);
    expect(returned.status, returned.raw).toBe(200);
    expect(returned.body.data.state).toBe('returned');
    const seen = (await student(first, 'GET', url)).body.data;
    expect(seen).toMatchObject({ group: 'returned' });
    expect(seen.handIn).toMatchObject({
      state: 'returned',
      points: 7.5,
      feedback: 'Good work',
      gradeChangedAfterReturn: false,
    });
    const listed = (await student(first, 'GET', '?group=returned')).body.data;
    expect(listed.find((entry: any) => entry._id === assignment._id).handIn.points).toBe(7.5);

    const changed = await teacherCall(teacher, 'PUT', gradeUrl, {
      points: 9,
      feedback: 'Good work',
      version: returned.body.data.version,
    });
    expect(changed.body.data).toMatchObject({ state: 'returned', points: 9, gradeChangedAfterReturn: true });
    expect((await student(first, 'GET', url)).body.data.handIn).toMatchObject({
      points: 9,
      gradeChangedAfterReturn: true,
    });
  });

  it('returns every graded hand-in at once, and grades an ungraded assignment with feedback only', async () => {
    const assignment = await create({ points: null });
    const url = `/${assignment._id}`;
    for (const pupil of [first, second]) await student(pupil, 'POST', `${url}/hand-in`, { text: 'Done', version: 0 });
    const withPoints = await teacherCall(teacher, 'PUT', `${url}/hand-ins/${first.profile._id}/grade`, {
      points: 3,
      feedback: 'Nice',
      version: 1,
    });
    expect(withPoints.status).toBe(400);
    const graded = await teacherCall(teacher, 'PUT', `${url}/hand-ins/${first.profile._id}/grade`, {
      points: null,
      feedback: 'Nice',
      version: 1,
    });
    expect(graded.body.data).toMatchObject({ state: 'graded', points: null, feedback: 'Nice' });
    const all = await teacherCall(teacher, 'POST', `${url}/return-all`, { classId: classOne.id });
    expect(all.body.data).toEqual({ returned: 1 });
    const rows = (await teacherCall(teacher, 'GET', `${url}/hand-ins?classId=${classOne.id}`)).body.data;
    expect(rows.map((row: any) => row.state)).toEqual(['returned', 'handed-in']);
    const summary = (await teacherCall(teacher, 'GET', url)).body.data;
    expect(summary.handIns).toEqual({ handedIn: 2, toGrade: 1, returned: 1 });
  });
});

describe('editing, duplicating, deleting', () => {
  it('edits by version; once work is handed in, the points and classes stay', async () => {
    const assignment = await create({ classIds: [classOne.id, classTwo.id] });
    const url = `/${assignment._id}`;
    const edited = await teacherCall(teacher, 'PUT', url, {
      ...body({ title: 'Fractions, part 1', classIds: [classOne.id, classTwo.id] }),
      version: 1,
    });
    expect(edited.status, edited.raw).toBe(200);
    expect(edited.body.data).toMatchObject({ title: 'Fractions, part 1', version: 2 });
    const stale = await teacherCall(teacher, 'PUT', url, { ...body({ title: 'Old tab' }), version: 1 });
    expect(stale.body.code).toBe('ASSIGNMENT_CHANGED');

    await student(first, 'POST', `${url}/hand-in`, { text: 'Done', version: 0 });
    const before = await t.database.db.select().from(assignments).where(eq(assignments.id, assignment._id));
    const changes: [Partial<NewAssignmentInput>, string][] = [
      [{ points: 20 }, 'points'],
      [{ points: null }, 'points'],
      [{ classIds: [classOne.id] }, 'classIds'],
      [{ publishAt: inAnHour(), dueAt: null }, 'publishAt'],
    ];
    for (const [change, field] of changes) {
      const locked = await teacherCall(teacher, 'PUT', url, {
        ...body({ classIds: [classOne.id, classTwo.id], ...change }),
        version: 2,
      });
      expect(locked.status, locked.raw).toBe(409);
      expect(locked.body).toMatchObject({ code: 'ASSIGNMENT_HAS_HAND_INS', errors: [{ field }] });
    }
    expect(await t.database.db.select().from(assignments).where(eq(assignments.id, assignment._id))).toEqual(before);
    const allowed = await teacherCall(teacher, 'PUT', url, {
      ...body({ classIds: [classOne.id, classTwo.id], title: 'Still fine', dueAt: anHourAgo(), acceptLate: false }),
      version: 2,
    });
    expect(allowed.status, allowed.raw).toBe(200);
  });

  it('duplicates into another class of the caller only', async () => {
    const assignment = await create({ attachments: [videoId] });
    const refused = await teacherCall(teacher, 'POST', `/${assignment._id}/duplicate`, { classIds: [otherClass.id] });
    expect(refused.status).toBe(403);
    const byOther = await teacherCall(otherTeacher, 'POST', `/${assignment._id}/duplicate`, {
      classIds: [otherClass.id],
    });
    expect(byOther.status).toBe(403);
    const copy = await teacherCall(teacher, 'POST', `/${assignment._id}/duplicate`, {
      classIds: [classTwo.id],
      title: 'Fractions again',
      dueAt: null,
    });
    expect(copy.status, copy.raw).toBe(201);
    expect(copy.body.data).toMatchObject({ title: 'Fractions again', dueAt: null, points: 10, version: 1 });
    expect(copy.body.data.classes).toEqual([{ _id: classTwo.id, name: classTwo.name }]);
    // The video is the teacher's own upload: it goes along.
    expect(copy.body.data.attachments.map((entry: any) => entry._id)).toEqual([videoId]);
  });

  it('deletes an assignment without work, archives one with work; its students keep what they handed in', async () => {
    const empty = await create();
    await student(first, 'PUT', `/${empty._id}/draft`, { text: 'A draft only', version: 0 });
    expect((await teacherCall(teacher, 'DELETE', `/${empty._id}`)).body.data).toEqual({ outcome: 'deleted' });
    expect((await teacherCall(teacher, 'GET', `/${empty._id}`)).status).toBe(404);

    const worked = await create();
    await student(first, 'POST', `/${worked._id}/hand-in`, { text: 'Done', version: 0 });
    expect((await teacherCall(teacher, 'DELETE', `/${worked._id}`)).body.data).toEqual({ outcome: 'archived' });
    const listed = (
      await t.call({ method: 'GET', url: `/api/classes/${classOne.id}/assignments`, headers: as(teacher) })
    ).body.data;
    expect(listed.map((entry: any) => entry._id)).not.toContain(worked._id);
    expect((await student(first, 'GET', `/${worked._id}`)).body.data.handIn.state).toBe('handed-in');
    expect((await student(second, 'GET', `/${worked._id}`)).status).toBe(404);
    const edit = await teacherCall(teacher, 'PUT', `/${worked._id}`, { ...body(), version: 1 });
    expect(edit.body.code).toBe('ASSIGNMENT_ARCHIVED');
    expect((await student(first, 'POST', `/${worked._id}/take-back`, { version: 1 })).body.code).toBe(
      'ASSIGNMENT_ARCHIVED',
    );
  });
});
