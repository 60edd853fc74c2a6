import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { students } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Decision 033's reset under concurrency. Meant for PostgreSQL (TEST_DATABASE_URL): PGlite runs
 * one statement at a time and cannot interleave the writers these tests race.
 */

let t: TestApp;
let teachers: Awaited<ReturnType<typeof signUpTeacher>>[];
let className: string;

const resetPassword = (studentId: string, token: string) =>
  t.call({
    method: 'POST',
    url: `/api/teacher/students/${studentId}/reset-password`,
    headers: bearer(token),
    payload: {},
  });

const logIn = (rollNumber: string, password: string) =>
  t.call({ method: 'POST', url: '/api/student/login', payload: { rollNumber, password } });

const changePassword = (token: string, currentPassword: string, newPassword: string) =>
  t.call({
    method: 'POST',
    url: '/api/student/change-password',
    headers: bearer(token),
    payload: { currentPassword, newPassword },
  });

const tasks = (token: string) => t.call({ method: 'GET', url: '/api/tasks', headers: bearer(token) });

async function storedStudent(id: string) {
  const [row] = await t.database.db.select().from(students).where(eq(students.id, id));
  return row!;
}

beforeAll(async () => {
  t = await createTestApp();
  teachers = [await signUpTeacher(t), await signUpTeacher(t)];
  // Both teach the class of every student below (only a class's teachers reset a password).
  className = (await classTaughtBy(t, teachers[0]!, [teachers[1]!])).name;
});
afterAll(() => t.close());

describe('two teachers reset one student at once', () => {
  it('both hear 200, exactly one temporary password signs in, and its session must choose a new one', async () => {
    for (let round = 0; round < 5; round++) {
      const student = await signUpStudent(t, { class: className });
      const before = await storedStudent(student.profile._id);
      const resets = await Promise.all(teachers.map((teacher) => resetPassword(student.profile._id, teacher.token)));
      for (const reset of resets) expect(reset.status, reset.raw).toBe(200);
      const passwords = resets.map((reset) => reset.body.data.temporaryPassword as string);
      expect(new Set(passwords).size).toBe(2);
      const signIns = await Promise.all(passwords.map((password) => logIn(student.registration.rollNumber, password)));
      expect(signIns.map((signIn) => signIn.status).sort()).toEqual([200, 401]);
      expect((await logIn(student.registration.rollNumber, student.registration.password)).status).toBe(401);
      const after = await storedStudent(student.profile._id);
      expect(after.mustChangePassword).toBe(true);
      expect(after.sessionVersion).toBe(before.sessionVersion + 2);
      const token = signIns.find((signIn) => signIn.status === 200)!.body.data as string;
      expect((await tasks(token)).body.code).toBe('PASSWORD_CHANGE_REQUIRED');
    }
  });
});

describe("a reset races the student's own change of password", () => {
  it('ends either way with the temporary password working, the flag set and no session the reset did not allow', async () => {
    for (let round = 0; round < 6; round++) {
      const student = await signUpStudent(t, { class: className });
      const newPassword = `my own new passphrase ${round}`;
      const [reset, change] = await Promise.all([
        resetPassword(student.profile._id, teachers[0]!.token),
        changePassword(student.token, student.registration.password, newPassword),
      ]);
      expect(reset.status, reset.raw).toBe(200);
      // The change either ran first (and the reset then ended it) or met the reset's new version.
      expect([200, 401], change.raw).toContain(change.status);
      const after = await storedStudent(student.profile._id);
      expect(after.mustChangePassword).toBe(true);
      const temporary = await logIn(student.registration.rollNumber, reset.body.data.temporaryPassword as string);
      expect(temporary.status, temporary.raw).toBe(200);
      expect((await logIn(student.registration.rollNumber, newPassword)).status).toBe(401);
      if (change.status === 200) expect((await tasks(change.body.data as string)).status).toBe(401);
      else expect(change.body.code).toBe('SIGNED_OUT');
    }
  });
});
