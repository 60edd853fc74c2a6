import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teacherInvitations, teachers } from '../../db/schema.ts';
import { inviteTeacher, schoolAdministrator, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildSchoolSetup, buildTeacherRegistration } from '../../testing/factories.ts';
import { bearer, createTestApp, startSecondInstance, type TestApp } from '../../testing/test-app.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Issue 19, points 1 and 2 (decision 030): the school is set up once, with its administrator;
 * teachers join only by invitation; the administrator deactivates, reactivates and promotes
 * teachers, and the school always keeps an active administrator. PGlite and PostgreSQL.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, patience(60_000));
afterAll(() => t.close());

const post = (url: string, payload?: object, token?: string) =>
  t.call({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
const get = (url: string, token?: string) => t.call({ method: 'GET', url, headers: token ? bearer(token) : {} });
const countTeachers = async () => (await t.database.db.select({ id: teachers.id }).from(teachers)).length;

describe('the first run', () => {
  let fresh: TestApp;
  beforeAll(async () => {
    fresh = await createTestApp();
  }, patience(60_000));
  afterAll(() => fresh.close());

  it('asks for the school, sets it up once with its administrator, and refuses a second setup', async () => {
    expect((await fresh.call({ method: 'GET', url: '/api/school' })).body.data).toEqual({
      isSetUp: false,
      name: null,
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });

    // Five at once (two tabs, a double click): exactly one school, one administrator.
    const setups = Array.from({ length: 5 }, () => buildSchoolSetup());
    const answers = await Promise.all(
      setups.map((setup) => fresh.call({ method: 'POST', url: '/api/school/setup', payload: setup })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body.code).toBe('SCHOOL_ALREADY_SET_UP');
    const winner = setups[answers.findIndex((answer) => answer.status === 201)]!;
    const token = answers.find((answer) => answer.status === 201)!.body.data as string;

    const status = await fresh.call({ method: 'GET', url: '/api/school' });
    expect(status.body.data).toEqual({
      isSetUp: true,
      name: winner.schoolName,
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
    const profile = await fresh.call({ method: 'POST', url: '/api/teacher/get-teacher-by-id', headers: bearer(token) });
    expect(profile.body.data).toMatchObject({ email: winner.email, isAdministrator: true });
    const rows = await fresh.database.db.select({ id: teachers.id }).from(teachers);
    expect(rows).toHaveLength(1);
    // The administrator signs in like any teacher.
    const login = await fresh.call({
      method: 'POST',
      url: '/api/teacher/login',
      payload: { email: winner.email, password: winner.password },
    });
    expect(login.status).toBe(200);
  });
});

describe('teachers join by invitation', () => {
  it('refuses a registration without an invitation, or with an unknown one, and creates nothing', async () => {
    await schoolAdministrator(t);
    const before = await countTeachers();
    const { invitation: _unused, ...withoutInvitation } = buildTeacherRegistration('x');
    const missing = await post('/api/teacher/register', withoutInvitation);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toContainEqual({
      field: 'invitation',
      code: 'WRONG_TYPE',
      params: { expected: 'string' },
      message: 'Missing, or not a string',
    });
    const unknown = await post('/api/teacher/register', buildTeacherRegistration('A'.repeat(32)));
    expect([unknown.status, unknown.body.code]).toEqual([404, 'INVITATION_NOT_FOUND']);
    expect(await countTeachers()).toBe(before);
  });

  it('lets an invitation be used once, even by two registrations at the same moment', async () => {
    const code = await inviteTeacher(t, 'For Ms Okafor');
    const check = await post('/api/teacher/invitation', { invitation: code });
    expect(check.status).toBe(200);
    expect(check.body.data.schoolName).toEqual(expect.any(String));

    const before = await countTeachers();
    const [first, second] = await Promise.all([
      post('/api/teacher/register', buildTeacherRegistration(code)),
      post('/api/teacher/register', buildTeacherRegistration(code)),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    expect([first, second].find((answer) => answer.status === 409)!.body.code).toBe('INVITATION_USED');
    expect(await countTeachers()).toBe(before + 1);
    expect((await post('/api/teacher/invitation', { invitation: code })).body.code).toBe('INVITATION_USED');
  });

  it('refuses an expired or revoked invitation with its reason, and lists each with its state, never its code', async () => {
    const { token } = await schoolAdministrator(t);
    const expired = await post('/api/school/invitations', { note: 'Expired one' }, token);
    const revoked = await post('/api/school/invitations', { note: 'Revoked one' }, token);
    const pending = await post('/api/school/invitations', { note: 'Pending one' }, token);
    await t.database.db
      .update(teacherInvitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(teacherInvitations.id, expired.body.data.invitation._id));
    const revoking = await post(`/api/school/invitations/${revoked.body.data.invitation._id}/revoke`, undefined, token);
    expect(revoking.body.data.state).toBe('revoked');
    // Revoking again changes nothing.
    expect((await post(`/api/school/invitations/${revoked.body.data.invitation._id}/revoke`, {}, token)).status).toBe(
      200,
    );

    const before = await countTeachers();
    const withExpired = await post('/api/teacher/register', buildTeacherRegistration(expired.body.data.code));
    expect([withExpired.status, withExpired.body.code]).toEqual([410, 'INVITATION_EXPIRED']);
    const withRevoked = await post('/api/teacher/register', buildTeacherRegistration(revoked.body.data.code));
    expect([withRevoked.status, withRevoked.body.code]).toEqual([410, 'INVITATION_REVOKED']);
    expect(await countTeachers()).toBe(before);

    const listed = await get('/api/school/invitations?limit=100', token);
    const stateOf = (id: string) => listed.body.data.find((item: { _id: string }) => item._id === id)?.state;
    expect(stateOf(expired.body.data.invitation._id)).toBe('expired');
    expect(stateOf(revoked.body.data.invitation._id)).toBe('revoked');
    expect(stateOf(pending.body.data.invitation._id)).toBe('pending');
    for (const code of [expired.body.data.code, revoked.body.data.code, pending.body.data.code]) {
      expect(listed.raw).not.toContain(code);
    }
    // A used invitation says who used it, and cannot be revoked.
    const code = await inviteTeacher(t);
    const registered = await post('/api/teacher/register', buildTeacherRegistration(code, { name: 'Ngozi Adeyemi' }));
    const used = (await get('/api/school/invitations?limit=100', token)).body.data.find(
      (item: { usedBy: { _id: string } | null }) => item.usedBy?._id === registered.body.data._id,
    );
    expect(used).toMatchObject({ state: 'used', usedBy: { name: 'Ngozi Adeyemi' } });
    const revokeUsed = await post(`/api/school/invitations/${used._id}/revoke`, undefined, token);
    expect([revokeUsed.status, revokeUsed.body.code]).toEqual([409, 'INVITATION_USED']);
  });

  it("keeps the staff screen's calls to administrators: another teacher gets 403 and changes nothing", async () => {
    const teacher = await signUpTeacher(t);
    const other = await signUpTeacher(t);
    expect((await get('/api/school/teachers', teacher.token)).status).toBe(403);
    expect((await post('/api/school/invitations', {}, teacher.token)).status).toBe(403);
    const deactivate = await post(`/api/school/teachers/${other.profile._id}/deactivate`, undefined, teacher.token);
    expect([deactivate.status, deactivate.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await get('/api/tasks', other.token)).status).toBe(200);
  });
});

describe("a teacher's colleagues (the co-teacher picker)", () => {
  it('lists the active teachers by name for any teacher: names only, never a deactivated one', async () => {
    const administrator = await schoolAdministrator(t);
    const teacher = await signUpTeacher(t);
    const leaving = await signUpTeacher(t);
    const deactivated = await post(
      `/api/school/teachers/${leaving.profile._id}/deactivate`,
      undefined,
      administrator.token,
    );
    expect(deactivated.status).toBe(200);

    const answer = await get('/api/school/colleagues', teacher.token);
    expect(answer.status).toBe(200);
    const listed = answer.body.data as { _id: string; name: string }[];
    const ids = listed.map((entry) => entry._id);
    expect(ids).toContain(teacher.profile._id);
    expect(ids).toContain(administrator.profile._id);
    expect(ids).not.toContain(leaving.profile._id);
    expect(listed.find((entry) => entry._id === teacher.profile._id)).toEqual({
      _id: teacher.profile._id,
      name: teacher.registration.name,
    });
    expect(answer.raw).not.toContain('@');
  });

  it('is for teachers: a student gets 403, no session 401', async () => {
    const student = await signUpStudent(t);
    expect((await get('/api/school/colleagues', student.token)).status).toBe(403);
    expect((await get('/api/school/colleagues')).status).toBe(401);
  });
});

describe('the administrator and the staff', () => {
  it('deactivates a teacher: every session ends at once, on every instance, and sign-in is refused until reactivated', async () => {
    const { token } = await schoolAdministrator(t);
    const second = await startSecondInstance(t);
    try {
      const teacher = await signUpTeacher(t);
      // Both instances know the session (each keeps the version in memory).
      expect((await get('/api/tasks', teacher.token)).status).toBe(200);
      expect((await second.call({ method: 'GET', url: '/api/tasks', headers: bearer(teacher.token) })).status).toBe(
        200,
      );

      const deactivated = await post(`/api/school/teachers/${teacher.profile._id}/deactivate`, undefined, token);
      expect(deactivated.body.data).toMatchObject({ isActive: false });
      for (const instance of [t, second]) {
        await expect
          .poll(
            async () =>
              (await instance.call({ method: 'GET', url: '/api/tasks', headers: bearer(teacher.token) })).body.code,
            {
              timeout: patience(1_000),
            },
          )
          .toBe('ACCOUNT_DEACTIVATED');
      }
      const credentials = { email: teacher.registration.email, password: teacher.registration.password };
      const refused = await post('/api/teacher/login', credentials);
      expect([refused.status, refused.body.code]).toEqual([401, 'ACCOUNT_DEACTIVATED']);
      // A guesser learns nothing: a wrong password is the usual answer.
      const guessed = await post('/api/teacher/login', { ...credentials, password: 'not-the-password' });
      expect(guessed.body.code).toBe('WRONG_CREDENTIALS');

      await post(`/api/school/teachers/${teacher.profile._id}/reactivate`, undefined, token);
      const login = await post('/api/teacher/login', credentials);
      expect(login.status).toBe(200);
      expect((await second.call({ method: 'GET', url: '/api/tasks', headers: bearer(login.body.data) })).status).toBe(
        200,
      );
      // The sessions that ended stay ended.
      expect((await get('/api/tasks', teacher.token)).body.code).toBe('SIGNED_OUT');
    } finally {
      await second.close();
    }
  });

  it('never leaves the school without an active administrator, and a demotion holds from the next call', async () => {
    const root = await schoolAdministrator(t);
    const staffList = await get('/api/school/teachers?limit=100', root.token);
    const administrators = staffList.body.data.filter(
      (member: { isAdministrator: boolean; isActive: boolean }) => member.isAdministrator && member.isActive,
    );
    // Only the root administrator so far in this file: it can neither step down nor be deactivated.
    expect(administrators.map((member: { _id: string }) => member._id)).toEqual([root.profile._id]);
    for (const change of ['remove-administrator', 'deactivate']) {
      const refused = await post(`/api/school/teachers/${root.profile._id}/${change}`, undefined, root.token);
      expect([refused.status, refused.body.code]).toEqual([409, 'LAST_ADMINISTRATOR']);
    }

    // Two administrators demote each other at the same moment: one of them stays.
    const colleague = await signUpTeacher(t);
    await post(`/api/school/teachers/${colleague.profile._id}/make-administrator`, undefined, root.token);
    const [one, other] = await Promise.all([
      post(`/api/school/teachers/${colleague.profile._id}/remove-administrator`, undefined, root.token),
      post(`/api/school/teachers/${root.profile._id}/remove-administrator`, undefined, colleague.token),
    ]);
    // The other is refused: by the rule (409), or, once the first has committed, because its
    // caller is no administrator any more (403).
    const statuses = [one.status, other.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const remaining = (await t.database.db.select().from(teachers)).filter(
      (row) => row.isAdministrator && row.deactivatedAt === null,
    );
    expect(remaining).toHaveLength(1);

    // Whoever was demoted is refused from the next call on, with the same token.
    const demoted = one.status === 200 ? colleague.token : root.token;
    const stillAdministrator = one.status === 200 ? root.token : colleague.token;
    expect((await get('/api/school/teachers', demoted)).status).toBe(403);
    expect((await get('/api/school/teachers', stillAdministrator)).status).toBe(200);
    // Put the root administrator back, for the tests that follow.
    if (demoted === root.token) {
      await post(`/api/school/teachers/${root.profile._id}/make-administrator`, undefined, colleague.token);
    }
  });

  it('refuses a teacher id that does not exist or is not an id, and a body it does not read', async () => {
    const { token } = await schoolAdministrator(t);
    const missing = await post(`/api/school/teachers/${crypto.randomUUID()}/deactivate`, undefined, token);
    expect([missing.status, missing.body.code]).toEqual([404, 'NOT_FOUND']);
    const notAnId = await post('/api/school/teachers/42/deactivate', undefined, token);
    expect([notAnId.status, notAnId.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const teacher = await signUpTeacher(t);
    const withBody = await post(`/api/school/teachers/${teacher.profile._id}/deactivate`, { id: 'x' }, token);
    expect([withBody.status, withBody.body.code]).toEqual([400, 'UNKNOWN_FIELD']);
    expect((await get('/api/tasks', teacher.token)).status).toBe(200);
  });

  it('renames the school for the administrator only', async () => {
    const { token } = await schoolAdministrator(t);
    const teacher = await signUpTeacher(t);
    expect((await post('/api/school/rename', { name: 'Ecole Saint-Exupéry' }, teacher.token)).status).toBe(403);
    const renamed = await post('/api/school/rename', { name: '  Ecole Saint-Exupéry  ' }, token);
    expect(renamed.body.data).toEqual({
      isSetUp: true,
      name: 'Ecole Saint-Exupéry',
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
    expect((await post('/api/school/rename', { name: '   ' }, token)).status).toBe(400);
  });

  it('sets the school’s time zone for the administrator only, refusing a zone nobody knows', async () => {
    const { token } = await schoolAdministrator(t);
    const teacher = await signUpTeacher(t);
    expect((await post('/api/school/time-zone', { timeZone: 'Asia/Tokyo' }, teacher.token)).status).toBe(403);
    const refused = await post('/api/school/time-zone', { timeZone: 'Mars/Olympus' }, token);
    expect([refused.status, refused.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const set = await post('/api/school/time-zone', { timeZone: 'Asia/Tokyo' }, token);
    expect(set.body.data).toMatchObject({ timeZone: 'Asia/Tokyo' });
    expect((await get('/api/school')).body.data).toMatchObject({ timeZone: 'Asia/Tokyo' });
  });
});
