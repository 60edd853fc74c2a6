import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchoolSetup, buildStudentRegistration, buildTeacherRegistration } from '../../testing/factories.ts';
import {
  createClassFor,
  inviteTeacher,
  quizFor,
  schoolAdministrator,
  signUpStudent,
  signUpTeacher,
} from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Names that would show as a blank (issue 30 point 5): made only of zero-width spaces, joiners,
 * the word joiner, the BOM or other invisible characters, every human-readable name is refused
 * as missing, the same as a class name, and an optional subject is read as left blank.
 */

// Each is invisible on its own; together with spaces they still show nothing.
const INVISIBLE_NAMES = ['\u200b', '\u200c\u200d', '\u2060', '\ufeff', '\u200b \u2060\ufeff', '\u00ad\u180e\u3164'];

let t: TestApp;
let teacher: Awaited<ReturnType<typeof signUpTeacher>>;
let classCode: string;
let classId: string;

beforeAll(async () => {
  t = await createTestApp({ throttle: { limits: { registrationsPerNetwork: 5_000 } } });
  teacher = await signUpTeacher(t);
  const made = await createClassFor(t, teacher.token, '10-A');
  classCode = made.joinCode;
  classId = made.id;
});
afterAll(async () => {
  await t.close();
});

/** The field errors of a 400: each field's code, which clients word. */
function fieldErrors(response: { status: number; body: any; raw: string }) {
  expect(response.status, response.raw).toBe(400);
  expect(response.body.code).toBe('VALIDATION_FAILED');
  return Object.fromEntries(
    (response.body.errors as { field: string; code: string }[]).map((error) => [error.field, error.code]),
  );
}

describe('names of only invisible characters are refused as missing', () => {
  it.each(INVISIBLE_NAMES.map((name) => [JSON.stringify(name), name]))(
    "a student's and a parent's name at registration: %s",
    async (_shown, name) => {
      const response = await t.call({
        method: 'POST',
        url: '/api/student/register',
        payload: buildStudentRegistration({ classCode, name, parentName: name }),
      });
      expect(fieldErrors(response)).toEqual({ name: 'REQUIRED', parentName: 'REQUIRED' });
    },
  );

  it("a student's and a parent's name when a teacher adds a student to a class", async () => {
    const { classCode: _code, ...account } = buildStudentRegistration({ name: '\u200b', parentName: '\ufeff\u2060' });
    const response = await t.call({
      method: 'POST',
      url: `/api/classes/${classId}/students`,
      headers: bearer(teacher.token),
      payload: account,
    });
    expect(fieldErrors(response)).toEqual({ name: 'REQUIRED', parentName: 'REQUIRED' });
  });

  it("a student's and a parent's name when a teacher edits a student", async () => {
    const student = await signUpStudent(t, { classCode });
    const { classCode: _code, password: _password, ...details } = student.registration;
    const response = await t.call({
      method: 'PATCH',
      url: `/api/teacher/students/${student.profile._id}`,
      headers: bearer(teacher.token),
      payload: { ...details, name: '\u200d', parentName: '\u200c' },
    });
    expect(fieldErrors(response)).toEqual({ name: 'REQUIRED', parentName: 'REQUIRED' });
  });

  it("a teacher's name and subject at registration", async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/teacher/register',
      payload: buildTeacherRegistration(await inviteTeacher(t), { name: '\u200b\u200b', subject: '\ufeff' }),
    });
    expect(fieldErrors(response)).toEqual({ name: 'REQUIRED', subject: 'REQUIRED' });
  });

  it("the school's name at set-up and when renamed", async () => {
    const setup = await t.call({
      method: 'POST',
      url: '/api/school/setup',
      payload: buildSchoolSetup({ schoolName: '\u2060', name: '\u200b' }),
    });
    expect(fieldErrors(setup)).toEqual({ schoolName: 'REQUIRED', name: 'REQUIRED' });
    const administrator = await schoolAdministrator(t);
    const renamed = await t.call({
      method: 'POST',
      url: '/api/school/rename',
      headers: bearer(administrator.token),
      payload: { name: '\u200b\ufeff' },
    });
    expect(fieldErrors(renamed)).toEqual({ name: 'REQUIRED' });
  });

  it("a class's name, as before", async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/classes',
      headers: bearer(teacher.token),
      payload: { name: '\u200b' },
    });
    expect(fieldErrors(response)).toEqual({ name: 'REQUIRED' });
  });

  it("a quiz's title", async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: bearer(teacher.token),
      payload: await quizFor(t, teacher, { title: '\u200b\u2060' }),
    });
    expect(fieldErrors(response)).toEqual({ title: 'REQUIRED' });
  });

  it("a shared video link's title", async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/teacher/add-resource-link',
      headers: bearer(teacher.token),
      payload: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', fileName: '\u200b', classId },
    });
    expect(fieldErrors(response)).toEqual({ fileName: 'REQUIRED' });
  });

  it('a roster import row, with the add-student form’s own words', async () => {
    const csv =
      'Name,Roll number,Email,Parent name,Parent email\n\u200b,r-invisible,r.invisible@school.test,\u2060,p@family.test\n';
    const response = await t.call({
      method: 'POST',
      url: `/api/classes/${classId}/import/check`,
      headers: bearer(teacher.token),
      payload: { csv },
    });
    expect(response.status, response.raw).toBe(200);
    expect(response.body.data.rows[0].problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'name', code: 'REQUIRED' }),
        expect.objectContaining({ field: 'parentName', code: 'REQUIRED' }),
      ]),
    );
  });
});

describe('an optional subject of only invisible characters is left blank', () => {
  it("a class's subject is none", async () => {
    const created = await t.call({
      method: 'POST',
      url: '/api/classes',
      headers: bearer(teacher.token),
      payload: { name: '10-B', subject: '\u200b\ufeff' },
    });
    expect(created.status, created.raw).toBe(201);
    expect(created.body.data.subject).toBeNull();
  });
});
