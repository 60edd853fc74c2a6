import { decodeJwt } from 'jose';
import type { UserRole } from '#shared/constants';
import { isRoomId } from '#shared/meetings';

/**
 * The addresses of the meeting screens (SPEC §2): the room-ID entry and the
 * meeting itself, whose query carries the meeting token, the room again
 * (meetingId) and the camera and microphone wished for on arrival.
 */
export const emeetPath = (role: UserRole) => `/dashboard/${role}/emeet`;

export type MeetingArrival = { token?: string | undefined; isCameraWanted: boolean; isMicWanted: boolean };

export function meetPath(role: UserRole, roomId: string, arrival: MeetingArrival): string {
  const query = new URLSearchParams();
  if (arrival.token) query.set('token', arrival.token);
  query.set('meetingId', roomId);
  query.set('webcamEnabled', String(arrival.isCameraWanted));
  query.set('micEnabled', String(arrival.isMicWanted));
  return `/dashboard/${role}/meet/${encodeURIComponent(roomId)}?${query.toString()}`;
}

/** What the meet address asks for. Anything but "false" means on: the SPEC's links say "true". */
export function readMeetingArrival(search: URLSearchParams): MeetingArrival {
  return {
    token: search.get('token') ?? undefined,
    isCameraWanted: search.get('webcamEnabled') !== 'false',
    isMicWanted: search.get('micEnabled') !== 'false',
  };
}

/**
 * The link a teacher sends: it leads students to the room and carries no token,
 * since a meeting token is one person's (whoever opens the link gets their own).
 * A teacher who opens it is taken to the teacher's meet screen by the role guard.
 */
export function inviteLink(origin: string, roomId: string): string {
  return `${origin}${meetPath('student', roomId, { isCameraWanted: true, isMicWanted: true })}`;
}

/**
 * A room ID typed or pasted: a bare ID, or a whole invite or meet link, whose
 * room is read from its path. Undefined when neither holds a valid room ID.
 */
export function roomIdFromInput(input: string): string | undefined {
  const text = input.trim();
  if (isRoomId(text)) return text;
  try {
    const url = new URL(text);
    const match = /\/meet\/([^/?#]+)/.exec(url.pathname);
    const candidate = match ? decodeURIComponent(match[1]!) : url.searchParams.get('meetingId');
    return candidate && isRoomId(candidate) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** The claims the page may read in a meeting token (it cannot check the signature; the server does). */
export type ReadableTokenClaims = { sub: string; room: string; exp: number };

export function readTokenClaims(token: string): ReadableTokenClaims | undefined {
  try {
    const claims = decodeJwt(token);
    if (typeof claims.sub !== 'string' || typeof claims.room !== 'string' || typeof claims.exp !== 'number') {
      return undefined;
    }
    return { sub: claims.sub, room: claims.room, exp: claims.exp };
  } catch {
    return undefined; // not a JWT at all
  }
}

/** Time a token must still have for a join to make it: the socket opens, then `join` is checked. */
const TOKEN_MARGIN_MS = 15_000;

/**
 * Whether the address's token can be used to join as this user, in this room,
 * now. A link copied with someone else's token in it must not seat us as them.
 */
export function isUsableToken(token: string | undefined, userId: string, roomId: string, now = Date.now()): boolean {
  if (!token) return false;
  const claims = readTokenClaims(token);
  return (
    claims !== undefined && claims.sub === userId && claims.room === roomId && claims.exp * 1000 - now > TOKEN_MARGIN_MS
  );
}
