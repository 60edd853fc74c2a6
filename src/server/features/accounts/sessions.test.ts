import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserRole } from '#shared/constants';
import { CLOSE_CODES, CLOSE_MESSAGES, PROTOCOL_VERSION, type MeetingTicket } from '#shared/meetings';
import type { Resource } from '#shared/resources';
import { readsUncached } from '../../cache/read-cache.ts';
import { SIGNED_OUT_MESSAGE, createTokenService } from '../../plugins/auth.ts';
import { ALL_ON, MeetingTestClient } from '../meetings/meeting-test-client.ts';
import { TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { classIdTaughtBy, meetingRoomFor, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { multipartBody, SAMPLE_FILES } from '../../testing/multipart.ts';
import { bearer, createTestApp, startSecondInstance, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { startTwoInstancesOnRedis, type TwoInstances } from '../../testing/two-instances.ts';
import { createAccountsService } from './service.ts';
import { sessionVersionsThrough } from './session-versions.ts';
import { patience } from '../../testing/patience.ts';

/** The limit of this file's slow tests (decision 042). */
const SLOW_TEST = { timeout: patience(60_000) };

/**
 * Sessions (decision 017): changing a password or signing out of all devices ends every
 * older session token of the account, at once, on every instance; the meetings they opened
 * end too. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL; the two-instance
 * scenarios need TEST_REDIS_URL.
 */

type Caller = { call: TestApp['call'] };
type Person = {
  token: string;
  profile: { _id: string };
  registration: { password: string; email: string; rollNumber?: string };
};

const PING_MS = 200;
let t: TestApp;
let baseUrl: string;
/** Every database statement of `t`, for the "no round trip per request" checks. */
let queries: string[] = [];
/** Every raw response body of `t`, checked at the end for password hashes. */
const rawBodies: string[] = [];
const sockets: MeetingTestClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ onQuery: (query) => queries.push(query), realtime: { pingIntervalMs: PING_MS } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

async function call(on: Caller, method: 'GET' | 'POST', url: string, token?: string, payload?: object) {
  const response = await on.call({ method, url, headers: token ? bearer(token) : {}, payload });
  rawBodies.push(response.raw);
  return response;
}

/** A request every role may send (its own task list): 200 while the session lives. */
const tasks = (token: string, on: Caller = t) => call(on, 'GET', '/api/tasks', token);
const profile = (role: UserRole, token: string, on: Caller = t) =>
  call(on, 'POST', `/api/${role}/get-${role}-by-id`, token);

function logIn(role: UserRole, person: Person, password: string, on: Caller = t) {
  const credentials =
    role === 'teacher'
      ? { email: person.registration.email, password }
      : { rollNumber: person.registration.rollNumber, password };
  return call(on, 'POST', `/api/${role}/login`, undefined, credentials);
}

const changePassword = (role: UserRole, token: string, body: object, on: Caller = t) =>
  call(on, 'POST', `/api/${role}/change-password`, token, body);
const logOutEverywhere = (role: UserRole, token: string, on: Caller = t) =>
  call(on, 'POST', `/api/${role}/logout-everywhere`, token);

const signUp = (role: UserRole, on: TestApp = t): Promise<Person> =>
  role === 'teacher' ? signUpTeacher(on) : signUpStudent(on);

/** A second device: another login of the same account. */
async function secondDevice(role: UserRole, person: Person, on: Caller = t): Promise<string> {
  const login = await logIn(role, person, person.registration.password, on);
  expect(login.status).toBe(200);
  return login.body.data as string;
}

describe.each(['teacher', 'student'] as const)('%s sessions', (role) => {
  it('changing the password keeps this device signed in with a fresh token and signs every other session out', async () => {
    const person = await signUp(role);
    const otherDevice = await secondDevice(role, person);
    expect((await tasks(otherDevice)).status).toBe(200);

    const newPassword = 'a-brand-new-passphrase';
    const changed = await changePassword(role, person.token, {
      currentPassword: person.registration.password,
      newPassword,
    });
    expect(changed.status, changed.raw).toBe(200);
    expect(changed.body.message).toMatch(/password was changed/);
    const freshToken = changed.body.data as string;
    expect(decodeJwt(freshToken)).toMatchObject({ sub: person.profile._id, role, sv: 1 });

    // The very next request of either old session is refused, with a message a person understands.
    for (const oldToken of [person.token, otherDevice]) {
      const refused = await tasks(oldToken);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ success: false, code: 'SIGNED_OUT', message: SIGNED_OUT_MESSAGE, data: null });
      expect((await profile(role, oldToken)).status).toBe(401);
    }
    // The device that changed it carries on.
    expect((await tasks(freshToken)).status).toBe(200);
    expect((await profile(role, freshToken)).body.data._id).toBe(person.profile._id);

    // The old password no longer logs in; the new one does, into a session of the new version.
    expect((await logIn(role, person, person.registration.password)).status).toBe(401);
    const login = await logIn(role, person, newPassword);
    expect(login.status).toBe(200);
    expect(decodeJwt(login.body.data as string)).toMatchObject({ sv: 1 });
    expect((await tasks(login.body.data as string)).status).toBe(200);
  });

  it('signing out of all devices ends every session, this one included; logging in again works', async () => {
    const person = await signUp(role);
    const otherDevice = await secondDevice(role, person);
    const bystander = await signUp(role);

    const signedOut = await logOutEverywhere(role, person.token);
    expect(signedOut.status, signedOut.raw).toBe(200);
    expect(signedOut.body).toMatchObject({ success: true, data: null });
    for (const oldToken of [person.token, otherDevice]) {
      expect(await tasks(oldToken)).toMatchObject({ status: 401, body: { message: SIGNED_OUT_MESSAGE } });
    }
    expect((await logOutEverywhere(role, person.token)).status).toBe(401); // nothing left to end
    expect((await tasks(bystander.token)).status).toBe(200); // another account is untouched

    const again = await secondDevice(role, person);
    expect(decodeJwt(again)).toMatchObject({ sv: 1 });
    expect((await tasks(again)).status).toBe(200);
  });

  it('refuses a wrong current password with 400 on that field, and changes nothing', async () => {
    const person = await signUp(role);
    const refused = await changePassword(role, person.token, {
      currentPassword: 'not-my-password',
      newPassword: 'a-brand-new-passphrase',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      success: false,
      code: 'WRONG_CURRENT_PASSWORD',
      message: 'Your current password is not correct',
      data: null,
      errors: [
        { field: 'currentPassword', code: 'WRONG_CURRENT_PASSWORD', message: 'Your current password is not correct' },
      ],
    });
    expect((await tasks(person.token)).status).toBe(200);
    expect((await logIn(role, person, person.registration.password)).status).toBe(200);
    expect((await logIn(role, person, 'a-brand-new-passphrase')).status).toBe(401);
  });

  it.each([
    ['newPassword', { newPassword: 'short' }, 'TOO_SHORT'],
    ['newPassword', { newPassword: ' '.repeat(10) }, 'ONLY_SPACES'],
    ['newPassword', { newPassword: 'x'.repeat(129) }, 'TOO_LONG'],
    ['newPassword', { newPassword: undefined }, 'WRONG_TYPE'],
    ['newPassword', { newPassword: 'SAME' }, 'PASSWORD_UNCHANGED'],
    ['currentPassword', { currentPassword: '' }, 'REQUIRED'],
    ['currentPassword', { currentPassword: 42 }, 'WRONG_TYPE'],
  ])('holds the new password to the registration rules (%s: %j)', async (field, change, code) => {
    const person = await signUp(role);
    const body = { currentPassword: person.registration.password, newPassword: 'a-brand-new-passphrase', ...change };
    if (body.newPassword === 'SAME') body.newPassword = person.registration.password;
    const refused = await changePassword(role, person.token, body);
    expect(refused.status).toBe(400);
    // The message names the field for API users; the code is what clients word.
    expect(refused.body.message).toMatch(new RegExp(`^${field}: `));
    expect(refused.body.errors).toContainEqual(expect.objectContaining({ field, code }));
    expect((await tasks(person.token)).status).toBe(200); // still signed in: nothing changed
  });

  it('takes the account from the token only: anonymous 401, the other role 403, ids in the body refused', async () => {
    const person = await signUp(role);
    const otherRole = role === 'teacher' ? 'student' : 'teacher';
    const other = await signUp(otherRole);
    const victim = await signUp(role);
    const body = { currentPassword: person.registration.password, newPassword: 'a-brand-new-passphrase' };
    const forged = { ...body, _id: victim.profile._id, id: victim.profile._id, role: otherRole };
    expect((await changePassword(role, '', body)).status).toBe(401);
    expect((await logOutEverywhere(role, '')).status).toBe(401);
    expect(
      (await changePassword(role, other.token, { ...body, currentPassword: other.registration.password })).status,
    ).toBe(403);
    expect((await logOutEverywhere(role, other.token)).status).toBe(403);
    expect((await tasks(other.token)).status).toBe(200);

    // Naming another account in the body is refused (fields the route does not read), changing nothing…
    const refused = await changePassword(role, person.token, forged);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual(['_id', 'id', 'role']);
    expect((await logIn(role, person, person.registration.password)).status).toBe(200);
    // …and the token's account is the one changed.
    expect((await changePassword(role, person.token, body)).status).toBe(200);
    // The victim keeps their password and their session.
    expect((await tasks(victim.token)).status).toBe(200);
    expect((await logIn(role, victim, victim.registration.password)).status).toBe(200);
  });
});

describe('a session ended while a change is on its way', () => {
  it('cannot change the password: the write holds only from the version the token was issued under', async () => {
    const person = await signUpStudent(t);
    // The service behind the route, called with a caller whose token was current when checked
    // and has been ended since (another device signed everyone out in between).
    const sessions = sessionVersionsThrough(t.database.db, readsUncached());
    const accounts = createAccountsService(t.database.db, createTokenService(TEST_JWT_SECRET, sessions), sessions);
    const staleCaller = { id: person.profile._id, role: 'student' as const, sessionVersion: 0 };
    expect((await logOutEverywhere('student', person.token)).status).toBe(200);
    await expect(
      accounts.changePassword(staleCaller, {
        currentPassword: person.registration.password,
        newPassword: 'a-brand-new-passphrase',
      }),
    ).rejects.toMatchObject({ statusCode: 401, message: SIGNED_OUT_MESSAGE });
    expect((await logIn('student', person, 'a-brand-new-passphrase')).status).toBe(401);
    expect((await logIn('student', person, person.registration.password)).status).toBe(200);
  });
});

describe('the version check costs no database round trip per request', () => {
  /**
   * The session-version reads of the best of three windows of requests. A loaded machine may make one
   * window read the database on purpose (a Redis reply later than its 250 ms, a missed
   * listen heartbeat: both fall back to the database); a cache that does not keep versions
   * reads it in every window.
   */
  async function statementsOfQuietestWindow(requests: () => Promise<void>): Promise<string[]> {
    let quietest: string[] | undefined;
    for (let window = 0; window < 3 && quietest?.length !== 0; window += 1) {
      queries = [];
      await requests();
      const versionReads = queries.filter((query) => /session_version/.test(query));
      if (!quietest || versionReads.length < quietest.length) quietest = versionReads;
    }
    return quietest!;
  }

  it('reads the version once, then from memory until it changes, and once again after the change', async () => {
    const person = await signUpTeacher(t);
    // Any signed-in route: of its statements, none may read the session version.
    const readLimits = (token: string) => call(t, 'GET', '/api/teacher/upload-limits', token);
    expect((await readLimits(person.token)).status).toBe(200); // warms the version
    const warm = await statementsOfQuietestWindow(async () => {
      for (let request = 0; request < 5; request += 1) expect((await readLimits(person.token)).status).toBe(200);
    });
    expect(warm).toEqual([]);

    const changed = await changePassword('teacher', person.token, {
      currentPassword: person.registration.password,
      newPassword: 'a-brand-new-passphrase',
    });
    const freshToken = changed.body.data as string;
    queries = [];
    expect((await readLimits(person.token)).status).toBe(401);
    expect(queries.filter((query) => /session_version/.test(query))).toHaveLength(1); // the change was announced
    const afterChange = await statementsOfQuietestWindow(async () => {
      for (let request = 0; request < 5; request += 1) expect((await readLimits(freshToken)).status).toBe(200);
      expect((await readLimits(person.token)).status).toBe(401);
    });
    expect(afterChange).toEqual([]);
  });
});

describe('meetings end with the login that opened them', () => {
  const mint = async (token: string, roomId: string) => {
    const response = await call(t, 'POST', `/api/meetings/${roomId}/token`, token);
    expect(response.status, response.raw).toBe(200);
    return response.body.data as MeetingTicket;
  };
  const join = async (ticket: MeetingTicket) => {
    const joined = await MeetingTestClient.join(baseUrl, ticket.token, ticket.roomId);
    sockets.push(joined.client);
    return joined;
  };
  const signedOut = { code: CLOSE_CODES.SIGNED_OUT, reason: CLOSE_MESSAGES.SIGNED_OUT };

  it('closes an open meeting socket with SIGNED_OUT at its next ping after a password change', async () => {
    const person = await signUpStudent(t);
    const bystander = await signUpTeacher(t);
    // A room of the student's class (10A), which the bystander teaches (decision 035).
    const { roomId } = await meetingRoomFor(t, bystander, await classIdTaughtBy(t, bystander, '10A'));
    const them = await join(await mint(person.token, roomId));
    const other = await join(await mint(bystander.token, roomId));
    await them.client.waitFor('participant-joined');

    const changed = await changePassword('student', person.token, {
      currentPassword: person.registration.password,
      newPassword: 'a-brand-new-passphrase',
    });
    expect(changed.status).toBe(200);
    expect(await them.client.closedWithin(PING_MS * 10)).toEqual(signedOut);
    expect(await other.client.waitFor('participant-left')).toMatchObject({ reason: 'left' });
    // The bystander's meeting goes on: a third person still joins and chats.
    const late = await join(await mint(changed.body.data as string, roomId));
    late.client.send({ type: 'chat', text: 'back with my new password' });
    expect(await other.client.waitFor('chat')).toMatchObject({ text: 'back with my new password' });
  });

  it('refuses a meeting token minted before the account signed out everywhere (SIGNED_OUT)', async () => {
    const person = await signUpTeacher(t);
    const ticket = await mint(person.token, (await meetingRoomFor(t, person)).roomId);
    expect((await logOutEverywhere('teacher', person.token)).status).toBe(200);
    const client = await MeetingTestClient.connect(baseUrl, ticket.token);
    sockets.push(client);
    client.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId: ticket.roomId, media: ALL_ON });
    expect(await client.closedWithin()).toEqual(signedOut);
    expect(client.inbox.map((message) => message.type)).toEqual([]); // never seated, not even for a moment
  });
});

describe('signed file links (decision 017: they outlive a password change)', () => {
  it('keeps serving a file link listed before the change: its bytes were already the holder’s', async () => {
    const teacher = await signUpTeacher(t);
    const className = `Sessions-${Date.now()}`;
    const classId = await classIdTaughtBy(t, teacher, className);
    const student = await signUpStudent(t, { class: className });
    const { payload, headers } = multipartBody({ classId }, [
      { name: 'notes.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' },
    ]);
    const uploaded = await t.call({
      method: 'POST',
      url: '/api/teacher/upload-resource',
      headers: { ...headers, ...bearer(teacher.token) },
      payload,
    });
    expect(uploaded.status, uploaded.raw).toBe(201);
    const listed = await call(t, 'GET', '/api/get-resources', student.token);
    const link = (listed.body.data as Resource[])[0]!.fileURL;

    expect((await logOutEverywhere('student', student.token)).status).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: link });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(SAMPLE_FILES.pdf())).toBe(true);
  });
});

// Two instances on one database sharing Redis versions: a change on one is refused by the
// other on its very next request, although the other had the old version in memory.
let instances: TwoInstances | undefined;
beforeAll(async () => {
  if (TEST_REDIS_URL) instances = await startTwoInstancesOnRedis();
});
afterAll(() => instances?.close());

describe.skipIf(!TEST_REDIS_URL)('two instances sharing Redis versions', () => {
  it.each(['teacher', 'student'] as const)(
    'a %s password change on one instance is refused by the other on its very next request',
    async (role) => {
      const { first, second } = instances!;
      const person = await signUp(role, first);
      const otherDevice = await secondDevice(role, person, first);
      // Both instances have the current version in memory now.
      for (const token of [person.token, otherDevice]) {
        expect((await tasks(token, first)).status).toBe(200);
        expect((await tasks(token, second)).status).toBe(200);
      }
      const changed = await changePassword(
        role,
        person.token,
        { currentPassword: person.registration.password, newPassword: 'a-brand-new-passphrase' },
        first,
      );
      expect(changed.status).toBe(200);
      expect(await tasks(otherDevice, second)).toMatchObject({
        status: 401,
        body: { message: SIGNED_OUT_MESSAGE },
      });
      expect((await tasks(person.token, second)).status).toBe(401);
      expect((await tasks(changed.body.data as string, second)).status).toBe(200);
    },
  );

  it('signing out everywhere on the second instance is refused by the first at once', async () => {
    const { first, second } = instances!;
    const person = await signUp('student', first);
    const otherDevice = await secondDevice('student', person, first);
    expect((await tasks(otherDevice, first)).status).toBe(200);
    expect((await logOutEverywhere('student', person.token, second)).status).toBe(200);
    expect((await tasks(otherDevice, first)).status).toBe(401);
    expect((await tasks(person.token, first)).status).toBe(401);
  });
});

// Without shared versions the other instance still learns of the change, from the database's
// own notice (issue 17: removed-accounts.test.ts), a moment later rather than on its very next
// request as with Redis above.
describe('two instances without shared versions', () => {
  it('lets the other instance refuse the old token once the database has announced the change', SLOW_TEST, async () => {
    const one = await createTestApp();
    const other = await startSecondInstance(one);
    try {
      const person = await signUpTeacher(one);
      expect((await tasks(person.token, other)).status).toBe(200);
      const changed = await changePassword(
        'teacher',
        person.token,
        { currentPassword: person.registration.password, newPassword: 'a-brand-new-passphrase' },
        one,
      );
      expect(changed.status).toBe(200);
      expect((await tasks(person.token, one)).status).toBe(401);
      await expect.poll(async () => (await tasks(person.token, other)).status, { timeout: patience(1_000) }).toBe(401);
    } finally {
      await other.close();
      await one.close();
    }
  });
});

describe('every response of this file', () => {
  it('carries no password hash and no password', () => {
    expect(rawBodies.length).toBeGreaterThan(50);
    for (const body of rawBodies) {
      expect(body).not.toMatch(/\$argon2/);
      expect(body).not.toMatch(/a-brand-new-passphrase/);
      expect(body).not.toMatch(/"(password|passwordHash|currentPassword|newPassword)"\s*:/);
    }
  });
});
