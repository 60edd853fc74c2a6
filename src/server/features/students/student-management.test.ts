import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { PASSWORD_CHANGE_REQUIRED_MESSAGE, SIGNED_OUT_MESSAGE } from '../../plugins/auth.ts';
import { declaredRoutes } from '../../plugins/route-policy.ts';
import { TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { startTwoInstancesOnRedis, type TwoInstances } from '../../testing/two-instances.ts';
import { TEMPORARY_PASSWORD_ALPHABET } from '../accounts/temporary-passwords.ts';
import { patience } from '../../testing/patience.ts';

/**
 * A teacher manages a student (decision 033): resets the password (a temporary one answered
 * once; every session of the student ends; the next sign-in can only choose a new password)
 * and edits the student's details. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL;
 * the two-instance scenario needs TEST_REDIS_URL.
 */

let t: TestApp;
let teacher: Awaited<ReturnType<typeof signUpTeacher>>;
/** The teacher's class: only a teacher of one of a student's classes manages them (decision 031). */
let taughtClass: string;
let taughtClassId: string;
const responses: string[] = [];

type Caller = { call: TestApp['call'] };

async function call(options: Parameters<TestApp['call']>[0], on: Caller = t) {
  const response = await on.call(options);
  responses.push(response.raw);
  return response;
}

const resetPassword = (studentId: string, token = teacher.token, on: Caller = t) =>
  call(
    { method: 'POST', url: `/api/teacher/students/${studentId}/reset-password`, headers: bearer(token), payload: {} },
    on,
  );

const editDetails = (studentId: string, payload: object, token = teacher.token) =>
  call({ method: 'PATCH', url: `/api/teacher/students/${studentId}`, headers: bearer(token), payload });

const logIn = (rollNumber: string, password: string) =>
  call({ method: 'POST', url: '/api/student/login', payload: { rollNumber, password } });

const tasks = (token: string, on: Caller = t) => call({ method: 'GET', url: '/api/tasks', headers: bearer(token) }, on);

const profile = (token: string) =>
  call({ method: 'POST', url: '/api/student/get-student-by-id', headers: bearer(token), payload: {} });

const changePassword = (token: string, currentPassword: string, newPassword = 'my own new passphrase') =>
  call({
    method: 'POST',
    url: '/api/student/change-password',
    headers: bearer(token),
    payload: { currentPassword, newPassword },
  });

async function storedStudent(id: string) {
  const [row] = await t.database.db.select().from(students).where(eq(students.id, id));
  return row!;
}

/** A student, reset by the teacher, signed in with the temporary password. */
async function resetAndSignIn() {
  const student = await signUpPupil();
  const reset = await resetPassword(student.profile._id);
  expect(reset.status, reset.raw).toBe(200);
  const temporaryPassword = reset.body.data.temporaryPassword as string;
  const signedIn = await logIn(student.registration.rollNumber, temporaryPassword);
  expect(signedIn.status, signedIn.raw).toBe(200);
  return { student, temporaryPassword, token: signedIn.body.data as string };
}

beforeAll(async () => {
  t = await createTestApp();
  teacher = await signUpTeacher(t);
  ({ name: taughtClass, id: taughtClassId } = await classTaughtBy(t, teacher));
});

/** A student of the teacher's class. */
const signUpPupil = () => signUpStudent(t, { class: taughtClass });
afterAll(() => t.close());

describe("a teacher resets a student's password", () => {
  it('answers a readable temporary password once and keeps only its hash', async () => {
    const student = await signUpPupil();
    const reset = await resetPassword(student.profile._id);
    expect(reset.status).toBe(200);
    const { temporaryPassword } = reset.body.data;
    expect(reset.body.data).toEqual({ temporaryPassword });
    // Two groups of five readable characters.
    expect(temporaryPassword).toMatch(/^[^-]{5}-[^-]{5}$/);
    for (const character of temporaryPassword.replace('-', ''))
      expect(TEMPORARY_PASSWORD_ALPHABET).toContain(character);

    const row = await storedStudent(student.profile._id);
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(temporaryPassword);
    expect(row.mustChangePassword).toBe(true);
    // The old password no longer opens the account; a second reset answers another password.
    expect((await logIn(student.registration.rollNumber, student.registration.password)).status).toBe(401);
    const again = await resetPassword(student.profile._id);
    expect(again.body.data.temporaryPassword).not.toBe(temporaryPassword);
  });

  it("ends every older session of the student at once, and none of the teacher's", async () => {
    const student = await signUpPupil();
    const otherDevice = (await logIn(student.registration.rollNumber, student.registration.password)).body.data;
    expect((await tasks(student.token)).status).toBe(200);
    expect((await resetPassword(student.profile._id)).status).toBe(200);
    for (const token of [student.token, otherDevice]) {
      expect(await tasks(token)).toMatchObject({
        status: 401,
        body: { code: 'SIGNED_OUT', message: SIGNED_OUT_MESSAGE },
      });
    }
    expect((await tasks(teacher.token)).status).toBe(200);
  });

  it('opens only the change of password, the profile and sign-out to a session signed in with it', async () => {
    const { token } = await resetAndSignIn();
    expect(decodeJwt(token)).toMatchObject({ pc: true });
    const me = await profile(token);
    expect(me.status).toBe(200);
    expect(me.body.data.mustChangePassword).toBe(true);

    // Every route a student's session could otherwise call refuses it before reading anything.
    const refused = declaredRoutes(t.app).filter(
      (route) =>
        route.method !== 'HEAD' &&
        (route.policy?.caller === 'student' || route.policy?.caller === 'signed-in') &&
        !route.policy.allowsPendingPasswordChange,
    );
    expect(refused.length).toBeGreaterThan(10);
    for (const route of refused) {
      const url = route.url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const response = await call({ method: route.method, url, headers: bearer(token) });
      expect({ route: `${route.method} ${route.url}`, status: response.status, code: response.body.code }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 403,
        code: 'PASSWORD_CHANGE_REQUIRED',
      });
      expect(response.body.message).toBe(PASSWORD_CHANGE_REQUIRED_MESSAGE);
    }
    // The session itself is still alive: the profile answers after every refusal.
    expect((await profile(token)).status).toBe(200);
    const allowed = declaredRoutes(t.app)
      .filter((route) => route.policy?.allowsPendingPasswordChange && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(allowed).toEqual([
      'POST /api/student/change-password',
      'POST /api/student/get-student-by-id',
      'POST /api/student/language',
      'POST /api/student/logout-everywhere',
      'POST /api/teacher/change-password',
      'POST /api/teacher/language',
      'POST /api/teacher/logout-everywhere',
    ]);
  });

  it('lets that session sign out of all devices', async () => {
    const { token } = await resetAndSignIn();
    expect((await call({ method: 'POST', url: '/api/student/logout-everywhere', headers: bearer(token) })).status).toBe(
      200,
    );
    expect((await profile(token)).status).toBe(401);
  });

  it('clears the flag when the student chooses a new password, with a normal session', async () => {
    const { student, temporaryPassword, token } = await resetAndSignIn();
    const wrong = await changePassword(token, 'not-the-temporary-one');
    expect(wrong).toMatchObject({ status: 400, body: { code: 'WRONG_CURRENT_PASSWORD' } });
    expect((await storedStudent(student.profile._id)).mustChangePassword).toBe(true);

    const changed = await changePassword(token, temporaryPassword);
    expect(changed.status, changed.raw).toBe(200);
    const fresh = changed.body.data as string;
    expect(decodeJwt(fresh).pc).toBeUndefined();
    expect((await tasks(fresh)).status).toBe(200);
    expect((await profile(fresh)).body.data.mustChangePassword).toBe(false);
    expect((await storedStudent(student.profile._id)).mustChangePassword).toBe(false);
    // The temporary session ended with the change; the temporary password no longer signs in.
    expect((await profile(token)).status).toBe(401);
    expect((await logIn(student.registration.rollNumber, temporaryPassword)).status).toBe(401);
    const again = await logIn(student.registration.rollNumber, 'my own new passphrase');
    expect(again.status).toBe(200);
    expect(decodeJwt(again.body.data).pc).toBeUndefined();
    expect((await tasks(again.body.data)).status).toBe(200);
  });

  it('is refused to a student (403) and to no one (401), for a malformed id (400) and a missing student (404)', async () => {
    const student = await signUpPupil();
    const other = await signUpPupil();
    const before = await storedStudent(other.profile._id);
    expect(await resetPassword(other.profile._id, student.token)).toMatchObject({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    const anonymous = await call({ method: 'POST', url: `/api/teacher/students/${other.profile._id}/reset-password` });
    expect(anonymous.status).toBe(401);
    expect((await resetPassword('not-a-uuid')).body.code).toBe('VALIDATION_FAILED');
    expect(await resetPassword('00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    const withBody = await call({
      method: 'POST',
      url: `/api/teacher/students/${other.profile._id}/reset-password`,
      headers: bearer(teacher.token),
      payload: { password: 'chosen-by-the-teacher' },
    });
    expect(withBody).toMatchObject({ status: 400, body: { code: 'UNKNOWN_FIELD' } });
    expect(await storedStudent(other.profile._id)).toEqual(before);
  });

  it('lets the temporary password sign in at once although guesses at the old one locked the account out', async () => {
    // The usual reason for a reset: the student forgot the password and tried until locked out.
    const student = await signUpPupil();
    const { rollNumber } = student.registration;
    let guess = await logIn(rollNumber, 'not my password 0');
    for (let tries = 1; guess.status !== 429 && tries < 10; tries++) guess = await logIn(rollNumber, `not it ${tries}`);
    expect(guess.body).toMatchObject({ code: 'THROTTLED', limit: 'sign-in-account' });
    const reset = await resetPassword(student.profile._id);
    expect(reset.status).toBe(200);
    const signedIn = await logIn(rollNumber, reset.body.data.temporaryPassword as string);
    expect(signedIn.status, signedIn.raw).toBe(200);
  });
});

// Two instances on one database sharing Redis versions: the reset on one is refused by the
// other on its very next request, although the other had the student's version in memory.
let instances: TwoInstances | undefined;
beforeAll(async () => {
  if (TEST_REDIS_URL) instances = await startTwoInstancesOnRedis();
}, patience(60_000));
afterAll(() => instances?.close());

describe.skipIf(!TEST_REDIS_URL)('two instances sharing Redis versions', () => {
  it('a reset on one instance ends the student’s session on the other at its very next request', async () => {
    const { first, second } = instances!;
    const resetter = await signUpTeacher(first);
    const student = await signUpStudent(first, { class: (await classTaughtBy(first, resetter)).name });
    expect((await tasks(student.token, second)).status).toBe(200);
    expect((await resetPassword(student.profile._id, resetter.token, first)).status).toBe(200);
    expect((await tasks(student.token, second)).status).toBe(401);
  });
});

describe("a teacher edits a student's details", () => {
  const detailsOf = (student: Awaited<ReturnType<typeof signUpStudent>>) => {
    const { name, rollNumber, email, parentName, parentEmail } = student.registration;
    return { name, rollNumber, email, parentName, parentEmail };
  };

  it('changes the five details; the student signs in with the new account username', async () => {
    const student = await signUpPupil();
    const suffix = Math.random().toString(36).slice(2, 8);
    const changes = {
      name: 'Zeynep Edited',
      rollNumber: `Edited-${suffix}`,
      email: `edited-${suffix}@school.example`,
      parentName: 'Ayşe Edited',
      parentEmail: `parent-${suffix}@school.example`,
    };
    const edited = await editDetails(student.profile._id, changes);
    expect(edited.status, edited.raw).toBe(200);
    expect(edited.body.data).toMatchObject({ _id: student.profile._id, ...changes, class: taughtClass });
    expect(edited.body.data).not.toHaveProperty('passwordHash');

    const row = await storedStudent(student.profile._id);
    expect(row).toMatchObject({ ...changes, rollNumberKey: `edited-${suffix}`, emailKey: changes.email });
    // Sign-in compares keys (decision 024): another spelling of the new username works; the old one does not.
    expect((await logIn(`EDITED-${suffix}`, student.registration.password)).status).toBe(200);
    expect((await logIn(student.registration.rollNumber, student.registration.password)).status).toBe(401);
    // The student's own session goes on.
    expect((await profile(student.token)).body.data.name).toBe('Zeynep Edited');
  });

  it('refuses an account username or email another student holds (409), changing nothing', async () => {
    const student = await signUpPupil();
    const holder = await signUpPupil();
    const before = await storedStudent(student.profile._id);

    const takenRoll = await editDetails(student.profile._id, {
      ...detailsOf(student),
      rollNumber: holder.registration.rollNumber.toUpperCase(),
    });
    expect(takenRoll).toMatchObject({ status: 409, body: { code: 'ROLL_NUMBER_TAKEN' } });
    expect(takenRoll.body.errors).toEqual([{ field: 'rollNumber', code: 'TAKEN', message: expect.any(String) }]);

    const takenEmail = await editDetails(student.profile._id, {
      ...detailsOf(student),
      email: holder.registration.email,
    });
    expect(takenEmail).toMatchObject({ status: 409, body: { code: 'EMAIL_TAKEN' } });
    expect(await storedStudent(student.profile._id)).toEqual(before);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const student = await signUpPupil();
    const before = await storedStudent(student.profile._id);
    for (const payload of [
      { ...detailsOf(student), email: 'not-an-email' },
      { ...detailsOf(student), parentEmail: 'parent at home' },
      { ...detailsOf(student), name: '   ' },
      { ...detailsOf(student), rollNumber: 'has spaces in it' },
      { name: 'Only a name' },
    ]) {
      const response = await editDetails(student.profile._id, payload);
      expect(response, JSON.stringify(payload)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    }
    // Class and password are not details a teacher edits here.
    for (const extra of [{ class: 'Another class' }, { password: 'chosen-by-the-teacher' }]) {
      const response = await editDetails(student.profile._id, { ...detailsOf(student), ...extra });
      expect(response).toMatchObject({ status: 400, body: { code: 'UNKNOWN_FIELD' } });
    }
    expect(await storedStudent(student.profile._id)).toEqual(before);
  });

  it('is refused to a student (403) and to no one (401); a missing student is a 404', async () => {
    const student = await signUpPupil();
    const before = await storedStudent(student.profile._id);
    const asStudent = await editDetails(
      student.profile._id,
      { ...detailsOf(student), name: 'Self Edited' },
      student.token,
    );
    expect(asStudent).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    const anonymous = await call({
      method: 'PATCH',
      url: `/api/teacher/students/${student.profile._id}`,
      payload: detailsOf(student),
    });
    expect(anonymous.status).toBe(401);
    expect(await editDetails('00000000-0000-4000-8000-000000000000', detailsOf(student))).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await storedStudent(student.profile._id)).toEqual(before);
  });
});

describe('a teacher of another class (issue 19 point 8)', () => {
  it("gets none of the student's contact details: not listed, 403 on edit and reset, nothing changed", async () => {
    const student = await signUpPupil();
    const stranger = await signUpTeacher(t);
    await classTaughtBy(t, stranger);
    const before = await storedStudent(student.profile._id);
    const { name, rollNumber, email, parentName, parentEmail } = student.registration;
    const details = { name, rollNumber, email, parentName, parentEmail };

    const answers = [
      await call({ method: 'GET', url: '/api/teacher/students?limit=100', headers: bearer(stranger.token) }),
      await call({
        method: 'GET',
        url: `/api/teacher/students?limit=100&search=${encodeURIComponent(rollNumber)}`,
        headers: bearer(stranger.token),
      }),
      await call({
        method: 'GET',
        url: `/api/teacher/students?classId=${taughtClassId}`,
        headers: bearer(stranger.token),
      }),
      await editDetails(student.profile._id, { ...details, name: 'Taken Over' }, stranger.token),
      await resetPassword(student.profile._id, stranger.token),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 403, 403]);
    expect(answers.slice(0, 3).map((answer) => answer.body.data)).toEqual([[], [], []]);
    for (const answer of answers) {
      for (const detail of [email, rollNumber, parentName, parentEmail]) expect(answer.raw).not.toContain(detail);
    }
    expect(await storedStudent(student.profile._id)).toEqual(before);
    // The teacher of the student's class still reaches them.
    expect((await resetPassword(student.profile._id)).status).toBe(200);
  });

  it('loses the student when the student leaves the class, and a co-teacher gains them', async () => {
    const student = await signUpPupil();
    const coTeacher = await signUpTeacher(t);
    const shared = await classTaughtBy(t, teacher, [coTeacher]);
    const joined = await call({
      method: 'POST',
      url: '/api/student/join-class',
      headers: bearer(student.token),
      payload: { classCode: shared.joinCode },
    });
    expect(joined.status, joined.raw).toBe(200);
    const listedBy = async (token: string) =>
      (
        await call({
          method: 'GET',
          url: `/api/teacher/students?search=${encodeURIComponent(student.registration.rollNumber)}`,
          headers: bearer(token),
        })
      ).body.data as { _id: string; class: string }[];
    // The class shown is the caller's classes of the student, by name.
    expect((await listedBy(coTeacher.token)).map((entry) => entry.class)).toEqual([shared.name]);
    expect((await listedBy(teacher.token)).map((entry) => entry.class)).toEqual([
      [shared.name, taughtClass].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())).join(', '),
    ]);
    const left = await call({
      method: 'DELETE',
      url: `/api/classes/${shared.id}/students/${student.profile._id}`,
      headers: bearer(coTeacher.token),
    });
    expect(left.status, left.raw).toBe(200);
    expect(await listedBy(coTeacher.token)).toEqual([]);
    expect((await resetPassword(student.profile._id, coTeacher.token)).status).toBe(403);
  });
});

describe('every response of this file', () => {
  it('carries no password hash', () => {
    expect(responses.length).toBeGreaterThan(20);
    for (const raw of responses) expect(raw).not.toContain('$argon2');
  });
});
