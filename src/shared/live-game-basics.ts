import { z } from 'zod/mini';
import { ROOM_CLOSE_CODES } from './rooms.ts';

/**
 * What a page needs of the live game (issue 34, decision 066) before it needs the game's
 * questions: the limits, the states, the socket's address, version and close codes, and the
 * student's and the token's calls. Apart from live-games.ts so that the student's dashboard (its
 * "Join" banner) and the socket's session do not download the quiz schemas with them.
 */

/** Bumped on any incompatible change of the messages below; the socket closes other versions. */
export const LIVE_GAME_PROTOCOL_VERSION = 2;

export const LIVE_GAME_LIMITS = {
  /** The game PIN: digits, unique among the games not ended. */
  pinLength: 6,
  /** Seconds a question stays open (the host may change it before the start). */
  questionSecondsDefault: 20,
  questionSecondsMin: 5,
  questionSecondsMax: 240,
  /** The host's "add time": the usual step, and the most one command adds. */
  addSecondsDefault: 10,
  addSecondsMax: 60,
  /** Adding time never leaves more than this to answer. */
  remainingSecondsMax: 240,
  /** A right answer given at once: the scoring rule's scale (decision 066). */
  pointsMax: 1000,
  /** The leaderboard between questions, and the podium at the end. */
  leaderboardSize: 5,
  podiumSize: 3,
  /** Typed answers (short text, numbers) listed one by one in a distribution; the rest are counted together. */
  distributionTextsMax: 10,
  /** A game not ended and without a host's command this long is abandoned: it ends, and its PIN is free again. */
  idleHours: 6,
  /** One socket message, in bytes: the largest answer (a typed text of 200 characters, or ten matches) is about 1 kB. */
  messageMaxBytes: 4096,
  /**
   * Messages per socket: a burst, then this many a second; beyond it the room layer closes the
   * socket (RATE_LIMITED). A player sends one answer a question; a host may press "+10 s" a dozen
   * times in a row, which must not cut the projector off.
   */
  messageBurst: 30,
  messagesPerSecond: 2,
  /** Active games a teacher's or a student's list shows at most. */
  listedGames: 20,
  /** A quiz's finished games, paged. */
  pageSizeDefault: 20,
  pageSizeMax: 50,
  /** A room token opens the game's socket within this many seconds. */
  tokenLifetimeSeconds: 600,
  /** People in one game's room at once (players and hosts): a hall. */
  roomSize: 500,
  /** How long a player's seat waits for their page to come back (a locked phone, a reload). */
  resumeGraceMs: 60_000,
  /** The first message (join) must arrive within this many milliseconds. */
  joinTimeoutMs: 10_000,
} as const;

export const LIVE_GAME_STATES = ['lobby', 'question-open', 'question-closed', 'paused', 'ended'] as const;
export type LiveGameState = (typeof LIVE_GAME_STATES)[number];

const PIN_PATTERN = new RegExp(`^\\d{${LIVE_GAME_LIMITS.pinLength}}$`);
export const livePinSchema = z.string().check(z.trim(), z.regex(PIN_PATTERN));

export const liveGameIdParamsSchema = z.object({ id: z.uuid() });

export const livePinParamsSchema = z.object({ pin: livePinSchema });

export const namedRef = z.strictObject({ _id: z.string(), name: z.string() });

/** A game as a student of its class sees it before joining (the dashboard's "Live game in 10-A: Join"). */
export const studentLiveGameSchema = z.strictObject({
  _id: z.string(),
  state: z.enum(LIVE_GAME_STATES),
  quiz: z.strictObject({ title: z.string() }),
  class: namedRef,
  questionCount: z.int(),
  currentIndex: z.int(),
});
export type StudentLiveGame = z.infer<typeof studentLiveGameSchema>;

/**
 * The game's own close codes, above the room layer's (decision 065 gives each protocol 4500 and
 * up). A removed player is the room layer's REMOVED; a student of another class, its FORBIDDEN.
 */
export const LIVE_GAME_CLOSE_CODES = {
  /** The room layer's codes, every protocol's (src/shared/rooms.ts, decision 065). */
  ...ROOM_CLOSE_CODES,
  /** The game is over (ended, or abandoned): do not reconnect. */
  GAME_ENDED: 4510,
} as const;
export type LiveCloseReason = keyof typeof LIVE_GAME_CLOSE_CODES;

/** The game's socket on the room transport (decision 065): `?token=` from POST /api/live-games/{id}/token. */
export const LIVE_GAME_SOCKET_PATH = '/api/live-games/ws';

/** POST /api/live-games/{id}/token: a short-lived room token for the game's socket, and the role it gives. */
export const liveTicketSchema = z.strictObject({
  gameId: z.string(),
  /** Passed as ?token= to the socket; join before expiresAt. */
  token: z.string(),
  expiresAt: z.iso.datetime(),
  /** A teacher of the game's class: the host's page; a student of it: a player. */
  host: z.boolean(),
});
export type LiveTicket = z.infer<typeof liveTicketSchema>;
