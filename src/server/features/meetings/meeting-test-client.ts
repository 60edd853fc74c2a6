import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { UserRole } from '#shared/constants';
import { MEETING_SOCKET_PATH, PROTOCOL_VERSION, type MediaState, type ServerMessage } from '#shared/meetings';
import type { DatabaseHandle } from '../../db/client.ts';
import { studentIdentityColumns, teacherIdentityColumns } from '../../db/identity-keys.ts';
import { students, teachers } from '../../db/schema.ts';
import { createMeetingTokens } from './meeting-tokens.ts';
import { buildStudentRegistration, buildTeacherAccount } from '../../testing/factories.ts';
import { TEST_JWT_SECRET } from '../../testing/test-app.ts';
import { toBuffer } from '../../realtime/room-socket.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Tests only: meeting tokens, and a participant over a real WebSocket as a browser would connect.
 * The socket trusts the room its token names: whether a room exists and who may enter it is
 * decided when a token is minted (decision 035, meetings.test.ts), so the signalling tests mint
 * tokens for rooms of their own here.
 */

const meetingTokens = createMeetingTokens(TEST_JWT_SECRET);

export type MeetingPerson = {
  name?: string;
  role?: UserRole;
  userId?: string;
  lifetimeSeconds?: number;
  /** The session version the token was minted under (decision 017); 0, a new account's. */
  sessionVersion?: number;
  /** Runs the room (decision 038); by default a teacher does, as the token route decides. */
  host?: boolean;
};

/** A meeting token as POST /api/meetings/{room}/token mints it, for a made-up user (see withAccount). */
export async function meetingToken(room: string, person: MeetingPerson = {}): Promise<string> {
  const tokens =
    person.lifetimeSeconds === undefined
      ? meetingTokens
      : createMeetingTokens(TEST_JWT_SECRET, { lifetimeSeconds: person.lifetimeSeconds });
  const { token } = await tokens.issue({
    sub: person.userId ?? randomUUID(),
    role: person.role ?? 'student',
    name: person.name ?? 'Someone',
    room,
    sv: person.sessionVersion ?? 0,
    host: person.host ?? person.role === 'teacher',
  });
  return token;
}

/**
 * The person with an account behind them in `database` (created unless it exists): the
 * socket checks that the login that minted a token is still current, so a made-up user
 * needs a row. Written directly, without an argon2 hash: nobody logs in as them.
 */
export async function withAccount(database: DatabaseHandle, person: MeetingPerson = {}): Promise<MeetingPerson> {
  const userId = person.userId ?? randomUUID();
  const name = person.name ?? 'Someone';
  if ((person.role ?? 'student') === 'teacher') {
    const { email, subject } = buildTeacherAccount();
    await database.db
      .insert(teachers)
      .values({ id: userId, name, ...teacherIdentityColumns(email), subject, passwordHash: 'not-a-hash' })
      .onConflictDoNothing();
  } else {
    const registration = buildStudentRegistration();
    await database.db
      .insert(students)
      .values({
        id: userId,
        name,
        ...studentIdentityColumns(registration),
        parentName: registration.parentName,
        parentEmail: registration.parentEmail,
        passwordHash: 'not-a-hash',
      })
      .onConflictDoNothing();
  }
  return { ...person, userId };
}

/** A meeting token for someone with an account (meeting sockets check the account's session). */
export async function accountMeetingToken(
  database: DatabaseHandle,
  room: string,
  person: MeetingPerson = {},
): Promise<string> {
  return meetingToken(room, await withAccount(database, person));
}

/** A room ID of one's own. */
export const freshRoomId = () => `room-${randomUUID().slice(0, 8)}`;

type Of<Type extends ServerMessage['type']> = Extract<ServerMessage, { type: Type }>;
export type Closed = { code: number; reason: string };

/** How long a message takes to come on a quiet machine; waits allow patience(WAIT_MS). */
const WAIT_MS = 5_000;

export const ALL_OFF: MediaState = { mic: false, camera: false, screen: false };
export const ALL_ON: MediaState = { mic: true, camera: true, screen: false };

export class MeetingTestClient {
  /** Received and not yet taken by waitFor(), in order. */
  readonly inbox: ServerMessage[] = [];
  readonly closed: Promise<Closed>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.inbox.push(JSON.parse(toBuffer(data).toString('utf8')) as ServerMessage);
      this.notify();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.notify();
        resolve({ code, reason: reason.toString() });
      });
    });
    // Refusals surface as closes; errors (a failed upgrade) are read from `closed` too.
    socket.on('error', () => undefined);
  }

  /** Opens a socket to `baseUrl` (http://host:port) with a meeting token (or a raw query). */
  static async connect(baseUrl: string, token: string | undefined): Promise<MeetingTestClient> {
    const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${MEETING_SOCKET_PATH}${query}`);
    const client = new MeetingTestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** Connects and joins; resolves with the welcome. */
  static async join(baseUrl: string, token: string, roomId: string, media: MediaState = ALL_ON) {
    const client = await MeetingTestClient.connect(baseUrl, token);
    client.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media });
    const welcome = await client.waitFor('welcome');
    return { client, welcome };
  }

  send(message: object | string | Buffer) {
    this.socket.send(typeof message === 'object' && !Buffer.isBuffer(message) ? JSON.stringify(message) : message);
  }

  /** Takes the first message of this type (and matching `where`) from the inbox, waiting for it if needed. */
  async waitFor<Type extends ServerMessage['type']>(
    type: Type,
    where: (message: Of<Type>) => boolean = () => true,
    timeoutMs = WAIT_MS,
  ): Promise<Of<Type>> {
    const limitMs = patience(timeoutMs);
    const deadline = Date.now() + limitMs;
    for (;;) {
      const index = this.inbox.findIndex((message) => message.type === type && where(message as Of<Type>));
      if (index >= 0) return this.inbox.splice(index, 1)[0] as Of<Type>;
      if (this.socket.readyState === WebSocket.CLOSED) {
        throw new Error(`socket closed while waiting for ${type}; inbox: ${JSON.stringify(this.inbox)}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no ${type} within ${limitMs} ms; inbox: ${JSON.stringify(this.inbox)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages of a type still in the inbox (not taken). */
  received<Type extends ServerMessage['type']>(type: Type): Of<Type>[] {
    return this.inbox.filter((message): message is Of<Type> => message.type === type);
  }

  /** The close, waited for up to patience(quietMs). */
  async closedWithin(quietMs = WAIT_MS): Promise<Closed> {
    const ms = patience(quietMs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not closed within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close() {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
    }
  }

  private notify() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
