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
import { signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { ALL_ON, MeetingTestClient, meetingToken } from '../../realtime/meeting-test-client.ts';
import { createMeetingTokens, MeetingTokenError } from './meeting-tokens.ts';
import { newRoomId } from './service.ts';

const ICE_SERVERS = [
  { urls: 'stun:stun.school.lan:3478' },
  { urls: ['turn:turn.school.lan:3478'], username: 'studyhall', credential: 'secret' },
];

let t: TestApp;
let baseUrl: string;
type Teacher = Awaited<ReturnType<typeof signUpTeacher>>;
type Student = Awaited<ReturnType<typeof signUpStudent>>;
let teacher: Teacher;
let student: Student;
const clients: MeetingTestClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ meetings: { roomSize: 4, iceServers: ICE_SERVERS } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  teacher = await signUpTeacher(t, { name: 'Grace Hopper' });
  student = await signUpStudent(t, { name: 'Alan Turing' });
});
afterAll(() => t.close());
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

const createRoom = (token?: string) =>
  t.call({ method: 'POST', url: '/api/meetings', headers: token ? bearer(token) : {} });

const mint = (roomId: string, token?: string) =>
  t.call({ method: 'POST', url: `/api/meetings/${roomId}/token`, headers: token ? bearer(token) : {} });

async function ticketFor(roomId: string, token: string): Promise<MeetingTicket> {
  const response = await mint(roomId, token);
  expect(response.status, response.raw).toBe(200);
  return response.body.data as MeetingTicket;
}

async function connect(token: string) {
  const client = await MeetingTestClient.connect(baseUrl, token);
  clients.push(client);
  return client;
}

const joinMessage = (roomId: string) => ({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });

describe('POST /api/meetings', () => {
  it('gives a teacher a new, hard-to-guess room ID', async () => {
    const first = await createRoom(teacher.token);
    const second = await createRoom(teacher.token);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ success: true, message: 'Meeting room created' });
    const ids = [first.body.data.roomId, second.body.data.roomId];
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){4}$/);
      expect(roomIdSchema.safeParse(id).success).toBe(true);
    }
    expect(ids[0]).not.toBe(ids[1]);
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

describe('POST /api/meetings/{roomId}/token', () => {
  it.each([
    ['teacher', () => teacher, 'Grace Hopper'],
    ['student', () => student, 'Alan Turing'],
  ] as const)('mints a 10-minute meeting token for a %s, named from the account', async (role, who, name) => {
    const before = Date.now();
    const ticket = await ticketFor('maths-7b', who().token);
    expect(ticket).toEqual({
      roomId: 'maths-7b',
      token: expect.any(String),
      expiresAt: expect.any(String),
      iceServers: ICE_SERVERS,
      roomSize: 4,
    });
    const lifetime = Date.parse(ticket.expiresAt) - before;
    expect(lifetime).toBeGreaterThan((MEETING_LIMITS.tokenLifetimeSeconds - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual(MEETING_LIMITS.tokenLifetimeSeconds * 1000);
    expect(decodeJwt(ticket.token)).toMatchObject({ sub: who().profile._id, role, name, room: 'maths-7b' });
    expect(decodeProtectedHeader(ticket.token)).toMatchObject({ alg: 'HS256', typ: 'studyhall-meeting+jwt' });
  });

  it('accepts typed room IDs of 6 to 64 letters, digits, - and _', async () => {
    for (const roomId of ['abcdef', 'Class_7B-maths', 'x'.repeat(64)]) {
      expect((await mint(roomId, student.token)).status).toBe(200);
    }
  });

  it.each(['abc', 'x'.repeat(65), 'with%20space', 'caf%C3%A9-room', 'semi%3Bcolon'])(
    'refuses the room ID %s (400)',
    async (roomId) => {
      const response = await mint(roomId, student.token);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/room ID is 6 to 64 letters, digits, - or _/);
    },
  );

  it('needs a login (401)', async () => {
    expect((await mint('maths-7b')).status).toBe(401);
  });
});

describe('meeting tokens at the socket', () => {
  it('lets a minted token join its room, named and placed as the account says', async () => {
    const ticket = await ticketFor('history-9a', teacher.token);
    const { client, welcome } = await MeetingTestClient.join(baseUrl, ticket.token, 'history-9a');
    clients.push(client);
    expect(welcome.you).toMatchObject({ name: 'Grace Hopper', role: 'teacher' });
    expect(welcome.iceServers).toEqual(ICE_SERVERS);
    expect(welcome.roomSize).toBe(4);
  });

  it('refuses a token of another room at the socket (FORBIDDEN)', async () => {
    const ticket = await ticketFor('room-one', student.token);
    const client = await connect(ticket.token);
    client.send(joinMessage('room-two'));
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
    const ticket = await ticketFor('room-one', teacher.token);
    for (const call of [
      { method: 'GET' as const, url: '/api/tasks' },
      { method: 'POST' as const, url: '/api/meetings' },
      { method: 'POST' as const, url: '/api/meetings/room-one/token' },
    ]) {
      const response = await t.call({ ...call, headers: bearer(ticket.token) });
      expect(response.status, call.url).toBe(401);
    }
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
    for (const token of [withSessionKey, `${(await ticketFor('room-one', student.token)).token.slice(0, -2)}AA`]) {
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
