import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { emailKey } from '#shared/identity';
import {
  classes,
  quizAttempts,
  quizzes,
  resources,
  schools,
  students,
  teacherInvitations,
  teachers,
} from '../db/schema.ts';
import { quizFor, schoolAdministrator, signUpStudent, signUpTeacher } from '../testing/actors.ts';
import { multipartBody, SAMPLE_FILES } from '../testing/multipart.ts';
import { patience } from '../testing/patience.ts';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { seedDemo } from './seed.ts';

/**
 * Issue 31 point 4 (decision 050): the landing page names the demo only where it is (hasDemo),
 * and the administrator (or `npm run demo:remove`) removes every demo row and stored file,
 * leaving a real school's data as it was.
 */

const SLOW = { timeout: patience(240_000) };
const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));
const freshApp = async () => {
  const app = await createTestApp();
  apps.push(app);
  return app;
};

const schoolStatus = async (t: TestApp) => (await t.call({ method: 'GET', url: '/api/school' })).body.data;
const removeDemo = (t: TestApp, token: string) =>
  t.call({ method: 'DELETE', url: '/api/school/demo', headers: bearer(token) });
const logIn = async (t: TestApp, email: string, password: string) => {
  const login = await t.call({ method: 'POST', url: '/api/teacher/login', payload: { email, password } });
  return { status: login.status, token: login.body?.data as string };
};
const storageKeysOf = async (t: TestApp, teacherId?: string) =>
  (
    await t.database.db
      .select({ key: resources.storageKey })
      .from(resources)
      .where(teacherId ? eq(resources.uploadedByTeacherId, teacherId) : undefined)
  )
    .map((row) => row.key)
    .filter((key): key is string => key !== null);

/** How many rows the tables the demo fills hold. */
const rowCounts = async (t: TestApp) => {
  const { db } = t.database;
  return {
    teachers: (await db.select({ id: teachers.id }).from(teachers)).length,
    students: (await db.select({ id: students.id }).from(students)).length,
    classes: (await db.select({ id: classes.id }).from(classes)).length,
    quizzes: (await db.select({ id: quizzes.id }).from(quizzes)).length,
    attempts: (await db.select({ id: quizAttempts.id }).from(quizAttempts)).length,
    resources: (await db.select({ id: resources.id }).from(resources)).length,
  };
};

describe('hasDemo and the demo removal', () => {
  it('says hasDemo only while the demo school is there', SLOW, async () => {
    const t = await freshApp();
    expect(await schoolStatus(t)).toEqual({
      isSetUp: false,
      name: null,
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
    await seedDemo(t.database.db, t.storage);
    expect((await schoolStatus(t)).hasDemo).toBe(true);
  });

  it(
    "removes every demo account, class, quiz, attempt, resource and file, and nothing of the real school's",
    SLOW,
    async () => {
      const t = await freshApp();
      // A real school: its administrator, a teacher with a class, a quiz, an attempt and a file.
      const administrator = await schoolAdministrator(t);
      const teacher = await signUpTeacher(t, { subject: 'History' });
      const quiz = await t.call({
        method: 'POST',
        url: '/api/teacher/add-quiz',
        headers: bearer(teacher.token),
        payload: await quizFor(t, teacher, { class: '7C' }),
      });
      expect(quiz.status, quiz.raw).toBe(201);
      const student = await signUpStudent(t, { class: '7C' });
      const started = await t.call({
        method: 'POST',
        url: `/api/quiz/${quiz.body.data._id}/start`,
        headers: bearer(student.token),
        payload: {},
      });
      expect(started.status, started.raw).toBe(200);
      const [realClass] = await t.database.db.select({ id: classes.id }).from(classes).where(eq(classes.name, '7C'));
      const form = multipartBody({ classId: realClass!.id, fileName: 'Real notes.pdf' }, [
        { name: 'notes.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' },
      ]);
      const upload = await t.call({
        method: 'POST',
        url: '/api/teacher/upload-resource',
        headers: { ...form.headers, ...bearer(teacher.token) },
        payload: form.payload,
      });
      expect(upload.status, upload.raw).toBe(201);
      const realKeys = await storageKeysOf(t, teacher.profile._id);
      expect(realKeys).toHaveLength(1);
      const realRows = await rowCounts(t);

      // The demo beside it, as `npm run seed -- --force` puts it there.
      const seeded = await seedDemo(t.database.db, t.storage);
      expect((await schoolStatus(t)).hasDemo).toBe(true);
      const demoKeys = (await storageKeysOf(t)).filter((key) => !realKeys.includes(key));
      expect(demoKeys.length).toBeGreaterThan(0);
      for (const key of demoKeys) expect(await t.storage.exists(key)).toBe(true);

      // An unused invitation minted by a demo account (anyone knows its password) must not outlive it;
      // the real administrator's stays.
      const [demoAccount] = await t.database.db
        .select({ id: teachers.id })
        .from(teachers)
        .where(eq(teachers.emailKey, emailKey(DEMO_TEACHER_EMAIL)));
      const inAWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000);
      await t.database.db.insert(teacherInvitations).values([
        { codeHash: 'demo-minted', createdByTeacherId: demoAccount!.id, expiresAt: inAWeek },
        { codeHash: 'real-minted', createdByTeacherId: administrator.profile._id, expiresAt: inAWeek },
      ]);

      // Only an administrator may remove it: the demo's own teacher is not one here.
      const demoTeacher = await logIn(t, DEMO_TEACHER_EMAIL, DEMO_PASSWORD);
      expect(demoTeacher.status).toBe(200);
      expect((await removeDemo(t, demoTeacher.token)).status).toBe(403);
      expect((await removeDemo(t, teacher.token)).status).toBe(403);

      const removed = await removeDemo(t, administrator.token);
      expect(removed.status, removed.raw).toBe(200);
      expect(removed.body.data).toEqual({
        teachers: 2,
        students: seeded.students,
        classes: 2,
        quizzes: seeded.quizzes,
        attempts: expect.any(Number),
        resources: seeded.resources,
        files: demoKeys.length,
        schoolRemoved: false,
      });
      expect(removed.body.data.attempts).toBeGreaterThan(0);

      // Every demo row and file gone; the demo's sessions end; the real school as it was.
      for (const key of demoKeys) expect(await t.storage.exists(key)).toBe(false);
      expect(await t.storage.exists(realKeys[0]!)).toBe(true);
      expect(
        await t.database.db
          .select({ id: teachers.id })
          .from(teachers)
          .where(inArray(teachers.emailKey, [emailKey(DEMO_TEACHER_EMAIL)])),
      ).toEqual([]);
      expect(
        (await t.call({ method: 'POST', url: '/api/teacher/get-teacher-by-id', headers: bearer(demoTeacher.token) }))
          .status,
      ).toBe(401);
      expect(await rowCounts(t)).toEqual(realRows);
      expect(
        (
          await t.database.db
            .select({ codeHash: teacherInvitations.codeHash })
            .from(teacherInvitations)
            .where(inArray(teacherInvitations.codeHash, ['demo-minted', 'real-minted']))
        ).map((row) => row.codeHash),
      ).toEqual(['real-minted']);
      expect((await logIn(t, teacher.registration.email, teacher.registration.password)).status).toBe(200);
      expect(await schoolStatus(t)).toMatchObject({
        isSetUp: true,
        name: administrator.setup.schoolName,
        hasDemo: false,
        defaultLocale: 'en',
        timeZone: 'UTC',
      });

      // Again: nothing left to remove.
      const again = await removeDemo(t, administrator.token);
      expect(again.body.data).toMatchObject({ teachers: 0, students: 0, classes: 0, files: 0, schoolRemoved: false });
    },
  );

  it('removes a demo-only school whole: the server is back at its first run', SLOW, async () => {
    const t = await freshApp();
    await seedDemo(t.database.db, t.storage);
    const demoAdministrator = await logIn(t, DEMO_TEACHER_EMAIL, DEMO_PASSWORD);
    const removed = await removeDemo(t, demoAdministrator.token);
    expect(removed.status, removed.raw).toBe(200);
    expect(removed.body.data.schoolRemoved).toBe(true);
    expect(await schoolStatus(t)).toEqual({
      isSetUp: false,
      name: null,
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
    expect(await t.database.db.select({ id: schools.id }).from(schools)).toEqual([]);
    expect(await t.database.db.select({ id: students.id }).from(students)).toEqual([]);
    expect(await storageKeysOf(t)).toEqual([]);
  });

  it('refuses, removing nothing, while a demo teacher is the only administrator of real teachers', SLOW, async () => {
    const t = await freshApp();
    await seedDemo(t.database.db, t.storage);
    const demoAdministrator = await logIn(t, DEMO_TEACHER_EMAIL, DEMO_PASSWORD);
    // The school was used for real: the demo's administrator invited a real teacher.
    const invitation = await t.call({
      method: 'POST',
      url: '/api/school/invitations',
      headers: bearer(demoAdministrator.token),
      payload: { note: 'A real teacher' },
    });
    const registered = await t.call({
      method: 'POST',
      url: '/api/teacher/register',
      payload: {
        name: 'Real Teacher',
        subject: 'Art',
        email: 'real.teacher@school.test',
        password: 'a-real-password-123',
        invitation: invitation.body.data.code,
      },
    });
    expect(registered.status, registered.raw).toBe(201);
    const teachersBefore = (await t.database.db.select({ id: teachers.id }).from(teachers)).length;
    const refused = await removeDemo(t, demoAdministrator.token);
    expect([refused.status, refused.body.code]).toEqual([409, 'DEMO_IN_USE']);
    expect((await t.database.db.select({ id: teachers.id }).from(teachers)).length).toBe(teachersBefore);
    expect((await schoolStatus(t)).hasDemo).toBe(true);
  });
});
