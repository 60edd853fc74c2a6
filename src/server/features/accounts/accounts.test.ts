import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from '#shared/limits';
import { buildStudentRegistration, buildTeacherRegistration } from '../../testing/factories.ts';
import { createClassFor, inviteTeacher, signUpTeacher, type TestClass } from '../../testing/actors.ts';
import { students } from '../../db/schema.ts';
import { bearer, createTestApp, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
/** The class the students of this file register into, with its join code. */
let homeroom: TestClass;
let homeroomTeacher: Awaited<ReturnType<typeof signUpTeacher>>;
/** A registration into the homeroom, by its code. */
const newStudent = (overrides: Parameters<typeof buildStudentRegistration>[0] = {}) =>
  buildStudentRegistration({ classCode: homeroom.joinCode, ...overrides });
/** Every raw response body of this file, checked at the end for leaked hashes. */
const rawBodies: string[] = [];

async function post(url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const response = await t.call({ method: 'POST', url, payload: payload as never, headers });
  rawBodies.push(response.raw);
  return response;
}

async function registeredTeacher(overrides = {}) {
  const registration = buildTeacherRegistration(await inviteTeacher(t), overrides);
  const registered = await post('/api/teacher/register', registration);
  expect(registered.status).toBe(201);
  const login = await post('/api/teacher/login', { email: registration.email, password: registration.password });
  return { registration, profile: registered.body.data, token: login.body.data as string };
}

async function registeredStudent(overrides = {}) {
  const registration = newStudent(overrides);
  const registered = await post('/api/student/register', registration);
  expect(registered.status).toBe(201);
  const login = await post('/api/student/login', {
    rollNumber: registration.rollNumber,
    password: registration.password,
  });
  return { registration, profile: registered.body.data, token: login.body.data as string };
}

async function signToken(claims: Record<string, unknown>, options: { expiresAt?: number; secret?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('studyhall')
    .setIssuedAt(now - 60)
    .setExpirationTime(options.expiresAt ?? now + 3600)
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

beforeAll(async () => {
  t = await createTestApp();
  homeroomTeacher = await signUpTeacher(t);
  homeroom = await createClassFor(t, homeroomTeacher.token);
});
afterAll(async () => {
  await t.close();
});

describe('teacher registration', () => {
  it('creates the account and presents it without the password', async () => {
    const registration = buildTeacherRegistration(await inviteTeacher(t));
    const response = await post('/api/teacher/register', registration);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
    expect(response.body.data).toEqual({
      _id: expect.any(String),
      name: registration.name,
      email: registration.email,
      subject: registration.subject,
      isAdministrator: false,
      locale: null,
    });
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    const { registration } = await registeredTeacher();
    const duplicate = buildTeacherRegistration(await inviteTeacher(t), { email: registration.email.toUpperCase() });
    const response = await post('/api/teacher/register', duplicate);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ success: false, message: 'A teacher with this email already exists' });
  });

  it.each([
    ['name', { name: undefined }],
    ['subject', { subject: '   ' }],
    ['email', { email: 'not-an-email' }],
    ['password', { password: 'short' }],
    ['name', { name: 'x'.repeat(101) }],
    ['email', { email: 42 }],
    ['password', { password: '        ' }],
  ])('names the offending field %s', async (field, overrides) => {
    const response = await post('/api/teacher/register', {
      ...buildTeacherRegistration(await inviteTeacher(t)),
      ...overrides,
    });
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(new RegExp(`^${field}: `));
    expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('rejects broken JSON, a missing body and an oversized body with a 4xx', async () => {
    const broken = await t.call({
      method: 'POST',
      url: '/api/teacher/register',
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ success: false, message: 'The request body is not valid JSON' });

    const missing = await post('/api/teacher/register');
    expect(missing.status).toBe(400);

    const huge = await post('/api/teacher/register', {
      ...buildTeacherRegistration(await inviteTeacher(t)),
      name: 'x'.repeat(100_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.success).toBe(false);
  });
});

describe('teacher login', () => {
  it('returns an HS256 token carrying role and subject that expires in 12 hours', async () => {
    const { profile, token } = await registeredTeacher();
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: profile._id, role: 'teacher' });
    expect(claims.exp! - claims.iat!).toBe(TOKEN_LIFETIME_SECONDS);
  });

  it('accepts the email in any case', async () => {
    const { registration } = await registeredTeacher({ email: `MiXeD.${Date.now()}@School.test` });
    const response = await post('/api/teacher/login', {
      email: registration.email.toLowerCase(),
      password: registration.password,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, data: expect.any(String) });
  });

  it('answers a wrong password and an unknown email identically', async () => {
    const { registration } = await registeredTeacher();
    const wrongPassword = await post('/api/teacher/login', { email: registration.email, password: 'wrong-password' });
    const unknownEmail = await post('/api/teacher/login', { email: 'nobody@school.test', password: 'wrong-password' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body.success).toBe(false);
  });

  it('requires email and password', async () => {
    const response = await post('/api/teacher/login', { email: 'a@b.test' });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^password: /);
  });
});

describe('student registration and login', () => {
  it('registers, then logs in with the roll number in any case', async () => {
    const registration = newStudent({ rollNumber: `Roll-${Date.now()}` });
    const registered = await post('/api/student/register', registration);
    expect(registered.status).toBe(201);
    expect(registered.body.data).toEqual({
      _id: expect.any(String),
      name: registration.name,
      rollNumber: registration.rollNumber,
      email: registration.email,
      class: homeroom.name,
      parentName: registration.parentName,
      parentEmail: registration.parentEmail,
      averageScore: 0,
      averageAccuracy: 0,
      totalScore: 0,
      mustChangePassword: false,
      locale: null,
    });
    const login = await post('/api/student/login', {
      rollNumber: registration.rollNumber.toUpperCase(),
      password: registration.password,
    });
    expect(login.status).toBe(200);
    expect(decodeJwt(login.body.data)).toMatchObject({ sub: registered.body.data._id, role: 'student' });
  });

  it('refuses a duplicate roll number or email with 409', async () => {
    const { registration } = await registeredStudent();
    const sameRoll = await post(
      '/api/student/register',
      newStudent({ rollNumber: registration.rollNumber.toUpperCase() }),
    );
    expect(sameRoll.status).toBe(409);
    expect(sameRoll.body.message).toBe('This account username is already taken');
    expect(sameRoll.body.errors).toEqual([
      { field: 'rollNumber', code: 'TAKEN', message: 'This account username is already taken' },
    ]);
    const sameEmail = await post('/api/student/register', newStudent({ email: registration.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.message).toBe('A student with this email already exists');
  });

  it.each(['name', 'rollNumber', 'email', 'classCode', 'parentName', 'parentEmail', 'password'])(
    'requires %s',
    async (field) => {
      const response = await post('/api/student/register', { ...newStudent(), [field]: undefined });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(new RegExp(`^${field}: `));
    },
  );

  it('checks both email fields and bounds the roll number', async () => {
    const badParentEmail = await post('/api/student/register', newStudent({ parentEmail: 'nope' }));
    expect(badParentEmail.body.message).toBe('parentEmail: Must be a valid email address');
    const longRoll = await post('/api/student/register', newStudent({ rollNumber: 'r'.repeat(51) }));
    expect(longRoll.status).toBe(400);
    const oddRoll = await post('/api/student/register', newStudent({ rollNumber: 'has space' }));
    expect(oddRoll.status).toBe(400);
  });

  it('answers a wrong password and an unknown roll number identically', async () => {
    const { registration } = await registeredStudent();
    const wrongPassword = await post('/api/student/login', {
      rollNumber: registration.rollNumber,
      password: 'nope-nope',
    });
    const unknown = await post('/api/student/login', { rollNumber: 'no-such-roll', password: 'nope-nope' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknown.body);
  });
});

describe('profile calls and tokens', () => {
  it('returns the caller from the token, ignoring any id in the body', async () => {
    const first = await registeredTeacher();
    const second = await registeredTeacher();
    const response = await post('/api/teacher/get-teacher-by-id', { _id: second.profile._id }, bearer(first.token));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(first.profile);

    const student = await registeredStudent();
    const studentResponse = await post('/api/student/get-student-by-id', undefined, bearer(student.token));
    expect(studentResponse.status).toBe(200);
    expect(studentResponse.body.data).toEqual(student.profile);
  });

  it('rejects a missing, malformed, tampered, foreign-key or "none" token with 401', async () => {
    const { token, profile } = await registeredTeacher();
    const [header, , signature] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ sub: profile._id, role: 'student', iss: 'studyhall', exp: 9999999999 }),
    ).toString('base64url');
    const unsignedNone = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${forgedPayload}.`;
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer not.a.token' },
      { authorization: `Basic ${token}` },
      bearer(`${header}.${forgedPayload}.${signature}`),
      bearer(unsignedNone),
      bearer(
        await signToken(
          { sub: profile._id, role: 'teacher' },
          { secret: 'another-secret-of-enough-length-0123456789' },
        ),
      ),
    ];
    for (const headers of cases) {
      const response = await post('/api/teacher/get-teacher-by-id', undefined, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body.success).toBe(false);
    }
  });

  it('rejects an expired token with 401 and says so', async () => {
    const { profile } = await registeredTeacher();
    const expired = await signToken(
      { sub: profile._id, role: 'teacher' },
      { expiresAt: Math.floor(Date.now() / 1000) - 10 },
    );
    const response = await post('/api/teacher/get-teacher-by-id', undefined, bearer(expired));
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/expired/);
  });

  it('rejects the wrong role with 403', async () => {
    const teacher = await registeredTeacher();
    const student = await registeredStudent();
    const asTeacher = await post('/api/student/get-student-by-id', undefined, bearer(teacher.token));
    expect(asTeacher.status).toBe(403);
    const asStudent = await post('/api/teacher/get-teacher-by-id', undefined, bearer(student.token));
    expect(asStudent.status).toBe(403);
    expect(asStudent.body.success).toBe(false);
  });

  it('treats a valid token for an account that no longer exists as logged out', async () => {
    const ghost = await signToken({ sub: '00000000-0000-4000-8000-000000000000', role: 'student' });
    const response = await post('/api/student/get-student-by-id', undefined, bearer(ghost));
    expect(response.status).toBe(401);
  });
});

describe('registration by class code (decision 031)', () => {
  const studentCount = async () => (await t.database.db.select({ id: students.id }).from(students)).length;

  it('joins the class of the code, typed in any case and without the dash', async () => {
    const typed = homeroom.joinCode.replace('-', '').toLowerCase();
    const registration = newStudent({ classCode: ` ${typed} ` });
    const registered = await post('/api/student/register', registration);
    expect(registered.status, registered.raw).toBe(201);
    expect(registered.body.data.class).toBe(homeroom.name);
    const roster = await t.call({
      method: 'GET',
      url: `/api/classes/${homeroom.id}/students`,
      headers: bearer(homeroomTeacher.token),
    });
    expect(roster.body.data.map((entry: { _id: string }) => entry._id)).toContain(registered.body.data._id);
  });

  it('refuses a wrong, rotated, turned-off or archived-class code on the field, and creates nothing', async () => {
    const teacher = homeroomTeacher.token;
    const change = async (id: string, action: string) =>
      expect((await post(`/api/classes/${id}/${action}`, undefined, bearer(teacher))).status).toBe(200);
    const rotated = await createClassFor(t, teacher);
    await change(rotated.id, 'rotate-code');
    const turnedOff = await createClassFor(t, teacher);
    await change(turnedOff.id, 'turn-off-code');
    const archived = await createClassFor(t, teacher);
    await change(archived.id, 'archive');
    const before = await studentCount();
    for (const code of ['ZZZZ-ZZZZ', 'not a code', rotated.joinCode, turnedOff.joinCode, archived.joinCode]) {
      const registration = newStudent({ classCode: code });
      const refused = await post('/api/student/register', registration);
      expect([refused.status, refused.body.code], code).toEqual([400, 'CLASS_CODE_INVALID']);
      expect(refused.body.errors).toEqual([
        { field: 'classCode', code: 'CLASS_CODE_INVALID', message: 'This class code does not work' },
      ]);
      const login = await post('/api/student/login', {
        rollNumber: registration.rollNumber,
        password: registration.password,
      });
      expect(login.status).toBe(401);
    }
    expect(await studentCount()).toBe(before);
    // Unarchived, the class's code admits again (decision 031).
    await change(archived.id, 'unarchive');
    expect((await post('/api/student/register', newStudent({ classCode: archived.joinCode }))).status).toBe(201);
  });

  it('no longer names a class by text: a class field is refused as unknown', async () => {
    const { classCode: _none, ...account } = newStudent();
    const response = await post('/api/student/register', { ...account, class: homeroom.name });
    expect(response.status).toBe(400);
    expect(await post('/api/teacher/add-student', newStudent(), bearer(homeroomTeacher.token))).toMatchObject({
      status: 404,
    });
  });
});

describe('a teacher adds a student into a class', () => {
  const addInto = (classId: string, token?: string, payload: object = accountOnly()) =>
    post(`/api/classes/${classId}/students`, payload, token ? bearer(token) : {});
  function accountOnly(overrides: Parameters<typeof buildStudentRegistration>[0] = {}) {
    const { classCode: _none, ...account } = newStudent(overrides);
    return account;
  }

  // Found by the fuzz suite: the insert failed on its foreign key and answered 500.
  it('answers 401 to a valid token whose teacher account no longer exists, and creates nothing', async () => {
    const ghost = await signToken({ sub: '00000000-0000-4000-8000-000000000001', role: 'teacher' });
    const registration = accountOnly();
    const response = await addInto(homeroom.id, ghost, registration);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ success: false, message: 'Your account no longer exists', data: null });
    const login = await post('/api/student/login', {
      rollNumber: registration.rollNumber,
      password: registration.password,
    });
    expect(login.status).toBe(401);
  });

  it('lets a teacher of the class create a student who can then log in', async () => {
    const registration = accountOnly();
    const response = await addInto(homeroom.id, homeroomTeacher.token, registration);
    expect(response.status, response.raw).toBe(201);
    expect(response.body).toMatchObject({ success: true, data: { rollNumber: registration.rollNumber } });
    const login = await post('/api/student/login', {
      rollNumber: registration.rollNumber,
      password: registration.password,
    });
    expect(login.status).toBe(200);
  });

  it('is for teachers of the class only: 401 anonymous, 403 student or another teacher, and creates nothing', async () => {
    const student = await registeredStudent();
    const other = await registeredTeacher();
    const registration = accountOnly();
    expect((await addInto(homeroom.id, undefined, registration)).status).toBe(401);
    expect((await addInto(homeroom.id, student.token, registration)).status).toBe(403);
    expect((await addInto(homeroom.id, other.token, registration)).status).toBe(403);
    const login = await post('/api/student/login', {
      rollNumber: registration.rollNumber,
      password: registration.password,
    });
    expect(login.status).toBe(401);
  });

  it('validates like registration and reports duplicates with 409', async () => {
    const invalid = await addInto(homeroom.id, homeroomTeacher.token, { ...accountOnly(), name: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/^name: /);
    const { registration } = await registeredStudent();
    const duplicate = await addInto(
      homeroom.id,
      homeroomTeacher.token,
      accountOnly({ rollNumber: registration.rollNumber }),
    );
    expect(duplicate.status).toBe(409);
  });
});

describe('every response of this file', () => {
  it('carries no password hash and no password field', () => {
    expect(rawBodies.length).toBeGreaterThan(40);
    for (const body of rawBodies) {
      expect(body).not.toMatch(/\$argon2/);
      expect(body).not.toMatch(/"password(Hash)?"\s*:/);
      expect(body).not.toMatch(/password_hash/);
    }
  });
});

describe('JSON parsing', () => {
  it('refuses prototype-poisoning bodies with 400 and creates nothing', async () => {
    const registration = buildTeacherRegistration(await inviteTeacher(t));
    const payload = `{"name":"${registration.name}","subject":"Math","email":"${registration.email}","password":"${registration.password}","invitation":"${registration.invitation}","__proto__":{"isAdmin":true}}`;
    const response = await t.call({
      method: 'POST',
      url: '/api/teacher/register',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    const login = await post('/api/teacher/login', { email: registration.email, password: registration.password });
    expect(login.status).toBe(401);
  });
});

describe('control characters', () => {
  it('answers 400 (never 500) to a NUL in any text field of every account endpoint', async () => {
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      ['/api/teacher/register', buildTeacherRegistration(await inviteTeacher(t), { name: 'T\u0000' }), {}],
      ['/api/teacher/login', { email: 'a\u0000@b.test', password: 'whatever1' }, {}],
      ['/api/student/register', newStudent({ classCode: 'ABCD\u0000EFGH' }), {}],
      ['/api/student/login', { rollNumber: 'r\u0000', password: 'whatever1' }, {}],
      [
        `/api/classes/${homeroom.id}/students`,
        { ...newStudent({ parentName: 'P\u0000' }), classCode: undefined },
        bearer(homeroomTeacher.token),
      ],
    ];
    for (const [url, payload, headers] of cases) {
      const response = await post(url, payload, headers);
      expect(response.status, url).toBe(400);
    }
  });
});
