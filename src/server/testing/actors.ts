import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { StudentProfile, StudentRegistration, TeacherProfile } from '#shared/accounts';
import { formatJoinCode, type TeacherClass } from '#shared/classes';
import { identityKey } from '#shared/identity';
import type { UserRole } from '#shared/constants';
import type { NewQuizPayload } from '#shared/quizzes';
import { buildNewQuiz, buildSchoolSetup, buildStudentRegistration, buildTeacherAccount } from './factories.ts';
import { teacherIdentityColumns } from '../db/identity-keys.ts';
import { classes, classTeachers, teachers } from '../db/schema.ts';
import { newJoinCode } from '../features/classes/service.ts';
import { hashPassword } from '../features/accounts/passwords.ts';
import { bearer, type TestApp } from './test-app.ts';

/** Registers and logs in an account of a role through the real API. */
async function signUp<Profile>(t: TestApp, role: UserRole, registration: object, credentials: object) {
  const registered = await t.call({ method: 'POST', url: `/api/${role}/register`, payload: registration });
  expect(registered.status, registered.raw).toBe(201);
  const login = await t.call({ method: 'POST', url: `/api/${role}/login`, payload: credentials });
  expect(login.status).toBe(200);
  return { profile: registered.body.data as Profile, token: login.body.data as string };
}

export type SchoolAdministrator = {
  token: string;
  profile: TeacherProfile;
  setup: ReturnType<typeof buildSchoolSetup>;
};

// One per database (a second instance of a test serves the same school).
const administrators = new WeakMap<object, Promise<SchoolAdministrator>>();

/**
 * The administrator who set up the test database's school (decision 030), set up on first
 * use: the teacher who invites every other teacher of the tests.
 */
export function schoolAdministrator(t: TestApp): Promise<SchoolAdministrator> {
  let administrator = administrators.get(t.database.db);
  if (!administrator) {
    administrator = (async () => {
      const setup = buildSchoolSetup();
      const created = await t.call({ method: 'POST', url: '/api/school/setup', payload: setup });
      // A database whose school exists already (migrated from an older version): an administrator of the test's own.
      if (created.status === 409) await insertAdministrator(t, setup);
      else expect(created.status, created.raw).toBe(201);
      const login = await t.call({
        method: 'POST',
        url: '/api/teacher/login',
        payload: { email: setup.email, password: setup.password },
      });
      expect(login.status, login.raw).toBe(200);
      const token = login.body.data as string;
      const profile = await t.call({ method: 'POST', url: '/api/teacher/get-teacher-by-id', headers: bearer(token) });
      return { token, profile: profile.body.data as TeacherProfile, setup };
    })();
    administrators.set(t.database.db, administrator);
  }
  return administrator;
}

async function insertAdministrator(t: TestApp, setup: ReturnType<typeof buildSchoolSetup>) {
  await t.database.db.insert(teachers).values({
    name: setup.name,
    ...teacherIdentityColumns(setup.email),
    subject: setup.subject,
    passwordHash: await hashPassword(setup.password),
    isAdministrator: true,
  });
}

/** A fresh invitation code, made by the school's administrator. */
export async function inviteTeacher(t: TestApp, note = ''): Promise<string> {
  const { token } = await schoolAdministrator(t);
  const created = await t.call({
    method: 'POST',
    url: '/api/school/invitations',
    headers: bearer(token),
    payload: { note },
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data.code as string;
}

/** A teacher invited by the administrator, registered with the invitation and logged in. */
export async function signUpTeacher(t: TestApp, overrides = {}) {
  const registration = { ...buildTeacherAccount(overrides), invitation: await inviteTeacher(t) };
  const credentials = { email: registration.email, password: registration.password };
  return { registration, ...(await signUp<TeacherProfile>(t, 'teacher', registration, credentials)) };
}

export type TestClass = { id: string; name: string; joinCode: string };

/** POST /api/classes as `teacherToken`'s teacher: the answer, a taken name included. */
const postClass = (t: TestApp, teacherToken: string, name: string) =>
  t.call({ method: 'POST', url: '/api/classes', headers: bearer(teacherToken), payload: { name } });

/** A class made through the API by `teacherToken`'s teacher (its owner), with its join code turned on. */
export async function createClassFor(t: TestApp, teacherToken: string, name = `Class ${randomUUID().slice(0, 8)}`) {
  const created = await postClass(t, teacherToken, name);
  expect(created.status, created.raw).toBe(201);
  const made = created.body.data as TeacherClass;
  return { id: made._id, name: made.name, joinCode: made.joinCode! } satisfies TestClass;
}

/**
 * The join code of the class named `name`, for tests that still speak of classes by name: made
 * through the API by the administrator when the school has none; a class made otherwise (a
 * quiz or resource naming it, until those take a class id) gets its code turned on, as its
 * teacher would with "rotate code".
 */
export async function classCodeNamed(t: TestApp, name: string): Promise<string> {
  const created = await postClass(t, (await schoolAdministrator(t)).token, name);
  if (created.status === 201) return (created.body.data as TeacherClass).joinCode!;
  expect(created.body.code, created.raw).toBe('CLASS_NAME_TAKEN');
  const [found] = await t.database.db
    .select({ id: classes.id, joinCode: classes.joinCode })
    .from(classes)
    .where(eq(classes.nameKey, identityKey(name)));
  if (found!.joinCode) return formatJoinCode(found!.joinCode);
  const joinCode = newJoinCode();
  await t.database.db.update(classes).set({ joinCode }).where(eq(classes.id, found!.id));
  return formatJoinCode(joinCode);
}

/**
 * The id of the class named `name`, taught by `teacher`, for tests that speak of classes by
 * name: made through the API by the teacher when the school has none; an existing one (another
 * teacher's) gets the teacher as a co-teacher, as its owner would add them.
 */
export async function classIdTaughtBy(
  t: TestApp,
  teacher: { token: string; profile: { _id: string } },
  name: string,
): Promise<string> {
  const created = await postClass(t, teacher.token, name);
  if (created.status === 201) return (created.body.data as TeacherClass)._id;
  expect(created.body.code, created.raw).toBe('CLASS_NAME_TAKEN');
  const [found] = await t.database.db
    .select({ id: classes.id })
    .from(classes)
    .where(eq(classes.nameKey, identityKey(name)));
  await t.database.db
    .insert(classTeachers)
    .values({ classId: found!.id, teacherId: teacher.profile._id, isOwner: false })
    .onConflictDoNothing();
  return found!.id;
}

/**
 * An add-quiz body (buildNewQuiz) for the class named `class` (default 10A, as signUpStudent's),
 * taught by `teacher` (classIdTaughtBy): for tests that still speak of classes by name.
 */
export async function quizFor(
  t: TestApp,
  teacher: { token: string; profile: { _id: string } },
  { class: className = '10A', ...overrides }: Partial<NewQuizPayload> & { class?: string } = {},
): Promise<NewQuizPayload> {
  return buildNewQuiz({ ...overrides, classId: await classIdTaughtBy(t, teacher, className) });
}

/**
 * A student registered (through the API) and logged in. `class` names the class to register
 * into (default 10A, see classCodeNamed) unless `classCode` is given.
 */
export async function signUpStudent(
  t: TestApp,
  { class: className = '10A', ...overrides }: Partial<StudentRegistration> & { class?: string } = {},
) {
  const registration = buildStudentRegistration({
    ...overrides,
    classCode: overrides.classCode ?? (await classCodeNamed(t, className)),
  });
  const credentials = { rollNumber: registration.rollNumber, password: registration.password };
  return { registration, ...(await signUp<StudentProfile>(t, 'student', registration, credentials)) };
}

/**
 * A fresh class made by `teacher` (POST /api/classes), with `coTeachers` added: students who
 * register naming it join it, so these teachers teach them (decision 031).
 */
export async function classTaughtBy(
  t: TestApp,
  teacher: { token: string },
  coTeachers: { profile: { _id: string } }[] = [],
): Promise<{ id: string; name: string; joinCode: string }> {
  const name = `Class ${Math.random().toString(36).slice(2, 10)}`;
  const created = await t.call({
    method: 'POST',
    url: '/api/classes',
    headers: bearer(teacher.token),
    payload: { name },
  });
  expect(created.status, created.raw).toBe(201);
  for (const coTeacher of coTeachers) {
    const added = await t.call({
      method: 'POST',
      url: `/api/classes/${created.body.data._id}/teachers`,
      headers: bearer(teacher.token),
      payload: { teacherId: coTeacher.profile._id },
    });
    expect(added.status, added.raw).toBe(200);
  }
  return { id: created.body.data._id as string, name, joinCode: created.body.data.joinCode as string };
}

/**
 * A meeting room (decision 035) opened through the API by `teacher` for `classId` (a class they
 * teach), else for a fresh class of theirs: its room id and class.
 */
export async function meetingRoomFor(t: TestApp, teacher: { token: string }, classId?: string) {
  const target = classId ?? (await createClassFor(t, teacher.token)).id;
  const created = await t.call({
    method: 'POST',
    url: '/api/meetings',
    headers: bearer(teacher.token),
    payload: { classId: target },
  });
  expect(created.status, created.raw).toBe(201);
  return { roomId: created.body.data.roomId as string, classId: target };
}
