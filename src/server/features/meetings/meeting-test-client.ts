import { randomUUID } from 'node:crypto';
import type { UserRole } from '#shared/constants';
import { MEETING_SOCKET_PATH, PROTOCOL_VERSION, type MediaState, type ServerMessage } from '#shared/meetings';
import type { DatabaseHandle } from '../../db/client.ts';
import { studentIdentityColumns, teacherIdentityColumns } from '../../db/identity-keys.ts';
import { students, teachers } from '../../db/schema.ts';
import { createMeetingTokens } from './meeting-tokens.ts';
import { buildStudentRegistration, buildTeacherAccount } from '../../testing/factories.ts';
import { TEST_JWT_SECRET } from '../../testing/test-app.ts';
import { openRoomSocket, RoomTestClient } from '../../realtime/room-test-client.ts';

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

export type { Closed } from '../../realtime/room-test-client.ts';

export const ALL_OFF: MediaState = { mic: false, camera: false, screen: false };
export const ALL_ON: MediaState = { mic: true, camera: true, screen: false };

/** A participant on the meeting socket (the room layer's test client, typed for meetings). */
export class MeetingTestClient extends RoomTestClient<ServerMessage> {
  /** Opens a socket to `baseUrl` (http://host:port) with a meeting token (or a raw query). */
  static async connect(baseUrl: string, token: string | undefined): Promise<MeetingTestClient> {
    return new MeetingTestClient(await openRoomSocket(baseUrl, MEETING_SOCKET_PATH, token));
  }

  /** Connects and joins; resolves with the welcome. */
  static async join(baseUrl: string, token: string, roomId: string, media: MediaState = ALL_ON) {
    const client = await MeetingTestClient.connect(baseUrl, token);
    client.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media });
    const welcome = await client.waitFor('welcome');
    return { client, welcome };
  }
}
