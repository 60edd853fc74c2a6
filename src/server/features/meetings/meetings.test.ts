import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOSE_CODES,
  CLOSE_MESSAGES,
  GENERATED_ROOM_ID,
  MEETING_LIMITS,
  PROTOCOL_VERSION,
  roomIdSchema,
  type MeetingTicket,
} from '#shared/meetings';
import {
  classTaughtBy,
  meetingRoomFor,
  schoolAdministrator,
  signUpStudent,
  signUpTeacher,
} from '../../testing/actors.ts';
import { meetingRooms } from '../../db/schema.ts';
import { bearer, createTestApp, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { ALL_ON, MeetingTestClient, meetingToken } from './meeting-test-client.ts';
import { createMeetingTokens, MeetingTokenError } from './meeting-tokens.ts';
import { newRoomId } from './service.ts';
import { withForgedSignature } from '../../testing/tamper.ts';

const ICE_SERVERS = [
  { urls: 'stun:stun.school.lan:3478' },
  { urls: ['turn:turn.school.lan:3478'], username: 'studyhall', credential: 'secret' },
];

let t: TestApp;
let baseUrl: string;
type Teacher = Awaited<ReturnType<typeof signUpTeacher>>;
type Student = Awaited<ReturnType<typeof signUpStudent>>;
/** The class's owner and co-teacher; a teacher of another class. */
let teacher: Teacher;
let coTeacher: Teacher;
let otherTeacher: Teacher;
/** A student of the class, one of another class, one removed from the class. */
let student: Student;
let otherStudent: Student;
let removedStudent: Student;
let klass: { id: string; name: string; joinCode: string };
/** A room of the class, opened by its owner. */
let roomId: string;
const clients: MeetingTestClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ meetings: { roomSize: 4, iceServers: ICE_SERVERS } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [teacher, coTeacher, otherTeacher] = await Promise.all([
    signUpTeacher(t, { name: 'Grace Hopper' }),
    signUpTeacher(t, { name: 'Edsger Dijkstra' }),
    signUpTeacher(t, { name: 'Barbara Liskov' }),
  ]);
  klass = await classTaughtBy(t, teacher, [coTeacher]);
  [student, otherStudent, removedStudent] = await Promise.all([
    signUpStudent(t, { name: 'Alan Turing', classCode: klass.joinCode }),
    signUpStudent(t, { name: 'Other Student', class: `Other ${klass.name}` }),
    signUpStudent(t, { name: 'Removed Student', classCode: klass.joinCode }),
  ]);
  const removed = await t.call({
    method: 'DELETE',
    url: `/api/classes/${klass.id}/students/${removedStudent.profile._id}`,
    headers: bearer(teacher.token),
  });
  expect(removed.status, removed.raw).toBe(200);
  roomId = (await meetingRoomFor(t, teacher, klass.id)).roomId;
});
afterAll(() => t.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

const createRoom = (token?: string, payload: object = { classId: klass.id }) =>
  t.call({ method: 'POST', url: '/api/meetings', headers: token ? bearer(token) : {}, payload });

const listRooms = (token?: string) =>
  t.call({ method: 'GET', url: '/api/meetings', headers: token ? bearer(token) : {} });

const mint = (room: string, token?: string) =>
  t.call({ method: 'POST', url: `/api/meetings/${room}/token`, headers: token ? bearer(token) : {} });

async function ticketFor(room: string, token: string): Promise<MeetingTicket> {
  const response = await mint(room, token);
  expect(response.status, response.raw).toBe(200);
  return response.body.data as MeetingTicket;
}

async function connect(token: string) {
  const client = await MeetingTestClient.connect(baseUrl, token);
  clients.push(client);
  return client;
}

const joinMessage = (room: string) => ({
  type: 'join',
  protocolVersion: PROTOCOL_VERSION,
  roomId: room,
  media: ALL_ON,
});

describe('POST /api/meetings', () => {
  it('gives a teacher of the class a new, hard-to-guess room of that class', async () => {
    const first = await createRoom(teacher.token);
    const second = await createRoom(coTeacher.token);
    expect(first.status, first.raw).toBe(201);
    expect(first.body).toMatchObject({ success: true, message: 'Meeting room created' });
    expect(first.body.data).toEqual({
      roomId: expect.any(String),
      class: { _id: klass.id, name: klass.name },
      createdBy: { _id: teacher.profile._id, name: 'Grace Hopper' },
      createdAt: expect.any(String),
    });
    expect(second.body.data.createdBy).toEqual({ _id: coTeacher.profile._id, name: 'Edsger Dijkstra' });
    const ids = [first.body.data.roomId, second.body.data.roomId];
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){4}$/);
      expect(roomIdSchema.safeParse(id).success).toBe(true);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('refuses a class the teacher does not teach (403), no class (400), an unknown one (404): nothing is made', async () => {
    const before = await t.database.db.select().from(meetingRooms);
    const refused = await createRoom(otherTeacher.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You do not teach this class');
    expect((await createRoom(teacher.token, {})).body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [expect.objectContaining({ field: 'classId', code: 'WRONG_TYPE' })],
    });
    expect((await createRoom(teacher.token, { classId: 'maths-7b' })).status).toBe(400);
    expect((await createRoom(teacher.token, { classId: randomUUID() })).status).toBe(404);
    expect(await t.database.db.select().from(meetingRooms)).toHaveLength(before.length);
  });

  it('refuses an archived class (409 CLASS_ARCHIVED), and its rooms stop: no token, not listed', async () => {
    const archived = await classTaughtBy(t, teacher);
    const { roomId: archivedRoom } = await meetingRoomFor(t, teacher, archived.id);
    const archive = await t.call({
      method: 'POST',
      url: `/api/classes/${archived.id}/archive`,
      headers: bearer(teacher.token),
    });
    expect(archive.status, archive.raw).toBe(200);
    expect((await createRoom(teacher.token, { classId: archived.id })).body.code).toBe('CLASS_ARCHIVED');
    expect((await mint(archivedRoom, teacher.token)).body.code).toBe('CLASS_ARCHIVED');
    const listed = (await listRooms(teacher.token)).body.data.map((room: { roomId: string }) => room.roomId);
    expect(listed).not.toContain(archivedRoom);
  });

  it('is for teachers only (403), and for logged-in people (401)', async () => {
    expect((await createRoom(student.token)).status).toBe(403);
    const anonymous = await createRoom();
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, message: 'Please log in to continue' });
  });

  it('draws IDs from the whole alphabet, without collisions', () => {
    const ids = Array.from({ length: 2000 }, () => newRoomId());
    expect(new Set(ids).size).toBe(ids.length);
    const used = new Set(ids.join('').replaceAll('-', ''));
    expect(used.size).toBe(GENERATED_ROOM_ID.alphabet.length);
  });
});

describe('GET /api/meetings', () => {
  it("lists the rooms of the caller's classes, newest first, to its teachers and students only", async () => {
    const newer = await meetingRoomFor(t, coTeacher, klass.id);
    const elsewhere = await meetingRoomFor(t, otherTeacher);
    for (const who of [teacher, coTeacher, student]) {
      const listed = await listRooms(who.token);
      expect(listed.status, listed.raw).toBe(200);
      const ids = listed.body.data.map((room: { roomId: string }) => room.roomId);
      expect(ids).toContain(roomId);
      expect(ids.indexOf(newer.roomId)).toBeLessThan(ids.indexOf(roomId));
      expect(ids).not.toContain(elsewhere.roomId);
      const times = listed.body.data.map((room: { createdAt: string }) => room.createdAt);
      expect(times).toEqual([...times].sort().reverse());
    }
    const own = (await listRooms(student.token)).body.data.find((room: { roomId: string }) => room.roomId === roomId);
    expect(own).toEqual({
      roomId,
      class: { _id: klass.id, name: klass.name },
      createdBy: { _id: teacher.profile._id, name: 'Grace Hopper' },
      createdAt: expect.any(String),
    });
    for (const who of [otherTeacher, otherStudent, removedStudent]) {
      const ids = (await listRooms(who.token)).body.data.map((room: { roomId: string }) => room.roomId);
      expect(ids).not.toContain(roomId);
    }
    expect((await listRooms()).status).toBe(401);
  });
});

describe('POST /api/meetings/{roomId}/token', () => {
  it.each([
    ['teacher', 'the class’s teacher', () => teacher, 'Grace Hopper', true],
    ['teacher', 'its co-teacher', () => coTeacher, 'Edsger Dijkstra', true],
    ['student', 'a student of the class', () => student, 'Alan Turing', false],
  ] as const)(
    'mints a 10-minute meeting token (%s: %s), named from the account',
    async (role, _who, who, name, host) => {
      const before = Date.now();
      const ticket = await ticketFor(roomId, who().token);
      expect(ticket).toEqual({
        roomId,
        token: expect.any(String),
        expiresAt: expect.any(String),
        iceServers: ICE_SERVERS,
        roomSize: 4,
      });
      const after = Date.now();
      // Issued (in whole seconds) between before and after, however long the request took.
      const lifetimeMs = MEETING_LIMITS.tokenLifetimeSeconds * 1000;
      const expiresAt = Date.parse(ticket.expiresAt);
      expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + lifetimeMs);
      expect(expiresAt).toBeLessThanOrEqual(after + lifetimeMs);
      // host: the class's teachers run its meeting (decision 038).
      expect(decodeJwt(ticket.token)).toMatchObject({ sub: who().profile._id, role, name, room: roomId, host });
      expect(decodeProtectedHeader(ticket.token)).toMatchObject({ alg: 'HS256', typ: 'studyhall-meeting+jwt' });
    },
  );

  it.each([
    ['a teacher of another class', () => otherTeacher],
    ['a student of another class', () => otherStudent],
    ['a student removed from the class', () => removedStudent],
  ])('refuses %s (403)', async (_who, who) => {
    const response = await mint(roomId, who().token);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, data: null });
    expect(response.body.message).toBe('This meeting room belongs to a class you are not in');
  });

  it('refuses a room ID no class has, typed or made up (404)', async () => {
    for (const typed of ['maths-7b', 'Class_7B-maths', 'x'.repeat(64), roomId.toUpperCase()]) {
      const response = await mint(typed, teacher.token);
      expect(response.status, typed).toBe(404);
      expect(response.body.message).toMatch(/No meeting room has this ID/);
    }
  });

  it.each(['abc', 'x'.repeat(65), 'with%20space', 'caf%C3%A9-room', 'semi%3Bcolon'])(
    'refuses the room ID %s (400)',
    async (typed) => {
      const response = await mint(typed, student.token);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'roomId' })]);
      expect(['TOO_SHORT', 'TOO_LONG', 'INVALID_FORMAT']).toContain(response.body.errors[0].code);
    },
  );

  it('needs a login (401)', async () => {
    expect((await mint(roomId)).status).toBe(401);
  });
});

describe('meeting tokens at the socket', () => {
  it('lets a minted token join its room, named and placed as the account says', async () => {
    const ticket = await ticketFor(roomId, teacher.token);
    const { client, welcome } = await MeetingTestClient.join(baseUrl, ticket.token, roomId);
    clients.push(client);
    expect(welcome.you).toMatchObject({ name: 'Grace Hopper', role: 'teacher' });
    expect(welcome.iceServers).toEqual(ICE_SERVERS);
    expect(welcome.roomSize).toBe(4);
  });

  it('refuses a token of another room at the socket (FORBIDDEN)', async () => {
    const ticket = await ticketFor(roomId, student.token);
    const client = await connect(ticket.token);
    client.send(joinMessage((await meetingRoomFor(t, teacher, klass.id)).roomId));
    expect(await client.closedWithin()).toEqual({ code: CLOSE_CODES.FORBIDDEN, reason: CLOSE_MESSAGES.FORBIDDEN });
  });

  it('refuses an expired token with TOKEN_EXPIRED', async () => {
    const expired = await meetingToken('room-one', { lifetimeSeconds: -60 });
    const client = await connect(expired);
    expect(await client.closedWithin()).toEqual({
      code: CLOSE_CODES.TOKEN_EXPIRED,
      reason: CLOSE_MESSAGES.TOKEN_EXPIRED,
    });
  });

  it('refuses a session token used as a meeting token (FORBIDDEN)', async () => {
    const client = await connect(student.token);
    client.send(joinMessage('room-one'));
    expect((await client.closedWithin()).code).toBe(CLOSE_CODES.FORBIDDEN);
  });

  it('refuses a meeting token used as a session token (401)', async () => {
    const ticket = await ticketFor(roomId, teacher.token);
    for (const call of [
      { method: 'GET' as const, url: '/api/tasks' },
      { method: 'POST' as const, url: '/api/meetings' },
      { method: 'POST' as const, url: `/api/meetings/${roomId}/token` },
    ]) {
      const response = await t.call({ ...call, headers: bearer(ticket.token) });
      expect(response.status, call.url).toBe(401);
    }
  });

  it('takes a host away with their deactivation: their next host action closes the socket, and changes nothing', async () => {
    const [owner, retiring] = await Promise.all([signUpTeacher(t), signUpTeacher(t)]);
    const taught = await classTaughtBy(t, owner, [retiring]);
    const [pupil, latecomer] = await Promise.all([
      signUpStudent(t, { classCode: taught.joinCode }),
      signUpStudent(t, { classCode: taught.joinCode }),
    ]);
    const room = (await meetingRoomFor(t, owner, taught.id)).roomId;
    const host = await MeetingTestClient.join(baseUrl, (await ticketFor(room, retiring.token)).token, room);
    const seated = await MeetingTestClient.join(baseUrl, (await ticketFor(room, pupil.token)).token, room);
    clients.push(host.client, seated.client);
    expect(host.welcome.you.host).toBe(true);

    const administrator = await schoolAdministrator(t);
    const deactivated = await t.call({
      method: 'POST',
      url: `/api/school/teachers/${retiring.profile._id}/deactivate`,
      headers: bearer(administrator.token),
    });
    expect(deactivated.status, deactivated.raw).toBe(200);
    // Before the socket's next session check (a ping away), the deactivated teacher tries to lock the room.
    host.client.send({ type: 'lock', locked: true });
    expect(await host.client.closedWithin()).toEqual({
      code: CLOSE_CODES.SIGNED_OUT,
      reason: CLOSE_MESSAGES.SIGNED_OUT,
    });
    expect(seated.client.received('room-lock')).toEqual([]);
    // The room is not locked: a student still gets in.
    const late = await MeetingTestClient.join(baseUrl, (await ticketFor(room, latecomer.token)).token, room);
    clients.push(late.client);
    expect(late.welcome.locked).toBe(false);
  });

  it('refuses a meeting token signed with the session key, or without its audience (FORBIDDEN)', async () => {
    const claims = { role: 'student', name: 'Mallory', room: 'room-one' };
    const sessionKey = new TextEncoder().encode(TEST_JWT_SECRET);
    const withSessionKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'studyhall-meeting+jwt' })
      .setSubject(student.profile._id)
      .setIssuer('studyhall')
      .setAudience('studyhall:meeting')
      .setExpirationTime('5m')
      .sign(sessionKey);
    for (const token of [withSessionKey, withForgedSignature((await ticketFor(roomId, student.token)).token)]) {
      const client = await connect(token);
      expect((await client.closedWithin()).code).toBe(CLOSE_CODES.FORBIDDEN);
    }
  });
});

describe('createMeetingTokens', () => {
  const claims = {
    sub: '5c025607-e0df-4d86-8398-fa54308adaa5',
    role: 'student',
    name: 'Ada',
    room: 'room-one',
    sv: 0,
    host: false,
  } as const;

  it('verifies what it issued, and nothing issued under another secret', async () => {
    const tokens = createMeetingTokens(TEST_JWT_SECRET);
    const { token } = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const other = createMeetingTokens(`${TEST_JWT_SECRET}-other`);
    await expect(other.verify(token)).rejects.toEqual(new MeetingTokenError('invalid'));
  });

  it('tells an expired token from an invalid one', async () => {
    let now = Date.parse('2026-11-21T10:00:00Z');
    const tokens = createMeetingTokens(TEST_JWT_SECRET, { now: () => now });
    const { token, expiresAt } = await tokens.issue(claims);
    expect(expiresAt.toISOString()).toBe('2026-11-21T10:10:00.000Z');
    now += 9 * 60 * 1000;
    await expect(tokens.verify(token)).resolves.toEqual(claims);
    now += 2 * 60 * 1000;
    await expect(tokens.verify(token)).rejects.toMatchObject({ reason: 'expired' });
    await expect(tokens.verify('not.a.token')).rejects.toMatchObject({ reason: 'invalid' });
  });
});
