import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolAdministrator, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildSchoolSetup } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Issue 32 point 4: the school's default language (asked at set-up, changed by the
 * administrator) and each person's own, kept on the server so it follows them to another
 * device. PGlite and PostgreSQL.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, patience(60_000));
afterAll(() => t.close());

const post = (url: string, payload: object | undefined, token?: string) =>
  t.call({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });

describe("the school's default language", () => {
  it('is the one the set-up chose, and English when it chose none', async () => {
    const fresh = await createTestApp();
    try {
      const setup = { ...buildSchoolSetup(), defaultLocale: 'ar' };
      expect((await fresh.call({ method: 'POST', url: '/api/school/setup', payload: setup })).status).toBe(201);
      expect((await fresh.call({ method: 'GET', url: '/api/school' })).body.data).toMatchObject({
        defaultLocale: 'ar',
      });
    } finally {
      await fresh.close();
    }
    await schoolAdministrator(t);
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data).toMatchObject({ defaultLocale: 'en' });
  });

  it('refuses a language the interface does not ship at set-up', async () => {
    const fresh = await createTestApp();
    try {
      const setup = { ...buildSchoolSetup(), defaultLocale: 'fr' };
      const refused = await fresh.call({ method: 'POST', url: '/api/school/setup', payload: setup });
      expect([refused.status, refused.body.errors?.[0]?.field]).toEqual([400, 'defaultLocale']);
      expect((await fresh.call({ method: 'GET', url: '/api/school' })).body.data.isSetUp).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('is changed by the administrator only', async () => {
    const { token } = await schoolAdministrator(t);
    const teacher = await signUpTeacher(t);
    expect((await post('/api/school/language', { defaultLocale: 'es' }, teacher.token)).status).toBe(403);
    expect((await post('/api/school/language', { defaultLocale: 'es' })).status).toBe(401);
    const changed = await post('/api/school/language', { defaultLocale: 'es' }, token);
    expect([changed.status, changed.body.data.defaultLocale]).toEqual([200, 'es']);
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data.defaultLocale).toBe('es');

    const unknown = await post('/api/school/language', { defaultLocale: 'xx' }, token);
    expect([unknown.status, unknown.body.errors?.[0]?.field]).toEqual([400, 'defaultLocale']);
    const missing = await post('/api/school/language', {}, token);
    expect(missing.status).toBe(400);
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data.defaultLocale).toBe('es');
    await post('/api/school/language', { defaultLocale: 'en' }, token);
  });
});

describe("a person's own language", () => {
  it("is kept on the teacher's account and read back on another device", async () => {
    const teacher = await signUpTeacher(t);
    expect(teacher.profile.locale).toBeNull();
    const chosen = await post('/api/teacher/language', { locale: 'ar' }, teacher.token);
    expect([chosen.status, chosen.body.data]).toEqual([200, { locale: 'ar' }]);

    // Another device: a new sign-in reads the choice in the profile.
    const login = await post('/api/teacher/login', {
      email: teacher.registration.email,
      password: teacher.registration.password,
    });
    const profile = await post('/api/teacher/get-teacher-by-id', undefined, login.body.data as string);
    expect(profile.body.data.locale).toBe('ar');

    // Back to no choice: the browser's and the school's languages decide again.
    expect((await post('/api/teacher/language', { locale: null }, teacher.token)).body.data).toEqual({ locale: null });
    expect((await post('/api/teacher/get-teacher-by-id', undefined, teacher.token)).body.data.locale).toBeNull();
  });

  it("is the student's own: the role and the account come from the token", async () => {
    const student = await signUpStudent(t);
    const other = await signUpStudent(t);
    expect((await post('/api/student/language', { locale: 'es' }, student.token)).status).toBe(200);
    expect((await post('/api/teacher/language', { locale: 'es' }, student.token)).status).toBe(403);
    expect((await post('/api/student/get-student-by-id', undefined, student.token)).body.data.locale).toBe('es');
    expect((await post('/api/student/get-student-by-id', undefined, other.token)).body.data.locale).toBeNull();

    const refused = await post('/api/student/language', { locale: 'ES' }, student.token);
    expect([refused.status, refused.body.errors?.[0]?.field]).toEqual([400, 'locale']);
    const smuggled = await post('/api/student/language', { locale: 'ar', studentId: other.profile._id }, student.token);
    expect(smuggled.status).toBe(400);
    expect((await post('/api/student/get-student-by-id', undefined, other.token)).body.data.locale).toBeNull();
  });
});
