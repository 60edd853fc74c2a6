import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LIMITS } from '#shared/limits';
import { createClassFor, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildStudentRegistration } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Field errors say what is wrong as a code and its parameters (issue 32 point 3, decision 026's
 * second addendum), for clients to word in the reader's language; the message stays for logs.
 */

let t: TestApp;
let classCode: string;

beforeAll(async () => {
  t = await createTestApp({ throttle: { limits: { registrationsPerNetwork: 5_000 } } });
  const teacher = await signUpTeacher(t);
  classCode = (await createClassFor(t, teacher.token, '10-C')).joinCode;
});
afterAll(async () => {
  await t.close();
});

const register = (overrides: Parameters<typeof buildStudentRegistration>[0]) =>
  t.call({
    method: 'POST',
    url: '/api/student/register',
    payload: buildStudentRegistration({ classCode, ...overrides }),
  });

describe('field errors carry codes', () => {
  it('a taken email answers { field: email, code: TAKEN } beside its message', async () => {
    const { registration } = await signUpStudent(t, { classCode });
    const response = await register({ email: registration.email.toUpperCase() });
    expect(response.status, response.raw).toBe(409);
    expect(response.body).toMatchObject({
      code: 'EMAIL_TAKEN',
      errors: [{ field: 'email', code: 'TAKEN', message: 'A student with this email already exists' }],
    });
  });

  it('bad fields answer the check’s code and its bounds', async () => {
    const response = await register({
      name: '\u200b',
      email: 'not an address',
      password: 'short',
      rollNumber: 'has space',
    });
    expect(response.status, response.raw).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    const byField = Object.fromEntries(
      (response.body.errors as { field: string }[]).map(({ field, ...error }) => [field, error]),
    );
    expect(byField).toEqual({
      name: { code: 'REQUIRED', message: 'Required' },
      email: { code: 'INVALID_EMAIL', message: 'Must be a valid email address' },
      password: {
        code: 'TOO_SHORT',
        params: { minimum: FIELD_LIMITS.passwordMin },
        message: `Must be at least ${FIELD_LIMITS.passwordMin} characters`,
      },
      rollNumber: {
        code: 'USERNAME_CHARACTERS',
        message: 'A username with characters other than letters, digits, dots, dashes and underscores',
      },
    });
  });

  it('a text over its bound says the maximum; an unknown key is UNKNOWN_FIELD', async () => {
    const long = await register({ parentName: 'x'.repeat(FIELD_LIMITS.name + 1) });
    expect(long.body.errors).toEqual([
      {
        field: 'parentName',
        code: 'TOO_LONG',
        params: { maximum: FIELD_LIMITS.name },
        message: `Must be at most ${FIELD_LIMITS.name} characters`,
      },
    ]);
    const unknown = await t.call({
      method: 'POST',
      url: '/api/student/register',
      payload: { ...buildStudentRegistration({ classCode }), nickname: 'x' },
    });
    expect(unknown.body).toMatchObject({
      code: 'UNKNOWN_FIELD',
      errors: [{ field: 'nickname', code: 'UNKNOWN_FIELD' }],
    });
  });

  it('a rule of the endpoint names its own code: a class code that does not work, a wrong current password', async () => {
    const wrongCode = await register({ classCode: 'ZZZZ-ZZZZ' });
    expect(wrongCode.body).toMatchObject({
      code: 'CLASS_CODE_INVALID',
      errors: [{ field: 'classCode', code: 'CLASS_CODE_INVALID' }],
    });
    const student = await signUpStudent(t, { classCode });
    const change = await t.call({
      method: 'POST',
      url: '/api/student/change-password',
      headers: bearer(student.token),
      payload: { currentPassword: 'not-the-password', newPassword: 'a-new-long-password' },
    });
    expect(change.status, change.raw).toBe(400);
    expect(change.body).toMatchObject({
      code: 'WRONG_CURRENT_PASSWORD',
      errors: [{ field: 'currentPassword', code: 'WRONG_CURRENT_PASSWORD' }],
    });
  });
});
