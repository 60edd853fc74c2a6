import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { GENERATED_ROOM_ID, type CreatedMeetingRoom, type IceServer, type MeetingTicket } from '#shared/meetings';
import type { Database } from '../../db/client.ts';
import { students, teachers } from '../../db/schema.ts';
import { accountRemoved } from '../../errors.ts';
import type { AuthenticatedUser } from '../../plugins/auth.ts';
import type { MeetingTokens } from './meeting-tokens.ts';

/**
 * A room exists while someone is in it: nothing is stored. A generated ID is what
 * keeps a room private (about 103 random bits, so it cannot be guessed); a typed
 * one ("maths-7b") is as private as the people who know it.
 */
export function createMeetingsService(
  db: Database,
  tokens: MeetingTokens,
  settings: { iceServers: IceServer[]; roomSize: number },
) {
  /** The display name others will see: read now, from the account, never from the request. */
  async function displayName(user: AuthenticatedUser): Promise<string> {
    const table = user.role === 'teacher' ? teachers : students;
    const [account] = await db.select({ name: table.name }).from(table).where(eq(table.id, user.id)).limit(1);
    if (!account) throw accountRemoved();
    return account.name;
  }

  return {
    createRoom(): CreatedMeetingRoom {
      return { roomId: newRoomId() };
    },

    /** A meeting token for this user and room, with what the screen needs to connect. */
    async issueTicket(user: AuthenticatedUser, roomId: string): Promise<MeetingTicket> {
      const name = await displayName(user);
      const { token, expiresAt } = await tokens.issue({
        sub: user.id,
        role: user.role,
        name,
        room: roomId,
        sv: user.sessionVersion,
      });
      return {
        roomId,
        token,
        expiresAt: expiresAt.toISOString(),
        iceServers: settings.iceServers,
        roomSize: settings.roomSize,
      };
    },
  };
}

export type MeetingsService = ReturnType<typeof createMeetingsService>;

/** "k3vq-8d2m-…": groups of the alphabet, drawn without bias (rejection of the top bytes). */
export function newRoomId(): string {
  const { alphabet, groups, groupLength } = GENERATED_ROOM_ID;
  const wanted = groups * groupLength;
  const ceiling = 256 - (256 % alphabet.length);
  const characters: string[] = [];
  while (characters.length < wanted) {
    for (const byte of randomBytes(wanted * 2)) {
      if (byte < ceiling && characters.length < wanted) characters.push(alphabet[byte % alphabet.length]!);
    }
  }
  return Array.from({ length: groups }, (_, group) =>
    characters.slice(group * groupLength, (group + 1) * groupLength).join(''),
  ).join('-');
}
