/**
 * The room transport (decision 065): what every protocol on it shares with its pages. A room
 * protocol (meetings today; the live game and the class whiteboard next) speaks its own JSON
 * messages over one WebSocket per person; the room layer owns the socket's life: the token in the
 * address, the budgets, presence, the close codes below and reconnection.
 */

/**
 * Close codes of the room layer, the same for every protocol. A protocol adds codes of its own
 * from 4500 (meetings: MEDIA_UNAVAILABLE 4503); 1000–1011 and 4000–4499 are the layer's.
 */
export const ROOM_CLOSE_CODES = {
  /** The person left on purpose (the page sent its protocol's leave). */
  LEFT: 1000,
  /** The server is restarting: reconnect (with a fresh token if this one has expired). */
  GOING_AWAY: 1001,
  /** A frame over the socket's size limit, refused by the WebSocket layer itself. */
  FRAME_TOO_LARGE: 1009,
  SERVER_ERROR: 1011,
  /** The same person joined the room again (another tab or device). */
  REPLACED: 4001,
  BAD_MESSAGE: 4400,
  TOKEN_EXPIRED: 4401,
  FORBIDDEN: 4403,
  JOIN_TIMEOUT: 4408,
  ROOM_FULL: 4409,
  /** The login that minted the token has ended (decision 017): mint a new token, or log in. */
  SIGNED_OUT: 4410,
  /** A message over the protocol's limit, below the socket's frame limit. */
  TOO_LARGE: 4413,
  /** A host locked the room; only hosts (and those in it when it was locked) may join. */
  ROOM_LOCKED: 4423,
  /** Another protocol version: reload the page. */
  CLIENT_TOO_OLD: 4426,
  RATE_LIMITED: 4429,
  /** A host removed this person; they stay out of the room for a while. */
  REMOVED: 4430,
} as const;
export type RoomCloseReason = keyof typeof ROOM_CLOSE_CODES;

/** The reasons after which a page reconnects by itself; a lost connection (1006 and other codes nobody sent) too. */
export const ROOM_RECONNECT_REASONS: readonly RoomCloseReason[] = [
  'GOING_AWAY',
  'SERVER_ERROR',
  'TOKEN_EXPIRED',
  'SIGNED_OUT',
];

/** The reason of a close code in a protocol's table, or undefined for codes the server does not send (1006). */
export function closeReasonIn<Reason extends string>(codes: Record<Reason, number>, code: number): Reason | undefined {
  return (Object.keys(codes) as Reason[]).find((reason) => codes[reason] === code);
}

/**
 * Why a seat was given back: its person left (or closed the page), joined again elsewhere, their
 * connection died (or their instance did), or a host removed them.
 */
export type RoomLeaveReason = 'left' | 'replaced' | 'timeout' | 'removed';

/**
 * Participant ids are random per seat (the server's, never the page's); a page that reconnects
 * within its protocol's grace gives its id back to keep its seat (`?resume=`).
 */
export const PARTICIPANT_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** The socket address of a room protocol: its path, the room token and, when resuming, the seat's id. */
export function roomSocketQuery(token: string, resumeId?: string): string {
  const resume = resumeId === undefined ? '' : `&resume=${encodeURIComponent(resumeId)}`;
  return `?token=${encodeURIComponent(token)}${resume}`;
}
