import { z } from 'zod/mini';
import { bodyObject, classIdField, pagingFields } from './fields.ts';
import { answerValueSchema, QUESTION_LIMITS, QUESTION_TYPES } from './question-types.ts';
import { QUIZ_LIMITS, quizQuestionSchema } from './quizzes.ts';
import {
  LIVE_GAME_LIMITS,
  LIVE_GAME_PROTOCOL_VERSION,
  LIVE_GAME_STATES,
  type LiveCloseReason,
  namedRef,
  studentLiveGameSchema,
} from './live-game-basics.ts';

export * from './live-game-basics.ts';

/**
 * The live game (issue 34, decision 066): a teacher runs one of their quizzes with a class, live;
 * the class plays on their phones. What the REST calls take and give, and the protocol the game
 * speaks on the room transport: the host's commands, the player's answer, the server's events.
 * The server sends codes, never sentences: the pages word them.
 */

/** The question types a game plays; essays (marked by hand) and descriptions (no answer) are skipped. */
export const LIVE_SKIPPED_TYPES = ['essay', 'description'] as const;
export const isPlayedLive = (question: { type: string }) =>
  !(LIVE_SKIPPED_TYPES as readonly string[]).includes(question.type);

// ---- REST ---------------------------------------------------------------------------------

export const questionSecondsField = z
  .number()
  .check(z.int(), z.gte(LIVE_GAME_LIMITS.questionSecondsMin), z.lte(LIVE_GAME_LIMITS.questionSecondsMax));

/** POST /api/live-games: play one of the caller's quizzes live with one of their active classes. */
export const newLiveGameSchema = bodyObject({
  quizId: z.uuid(),
  classId: classIdField(),
  questionSeconds: z._default(questionSecondsField, LIVE_GAME_LIMITS.questionSecondsDefault),
});
export type NewLiveGame = z.input<typeof newLiveGameSchema>;

export const quizLiveGameParamsSchema = z.object({
  id: z.uuid(),
  gameId: z.uuid(),
});
export const finishedGamesQuerySchema = z.object(pagingFields(LIVE_GAME_LIMITS));

/** PUT /api/live-games/{id}/leaderboard: whether the game counts toward the class leaderboard (off by default). */
export const leaderboardChoiceSchema = bodyObject({
  countsTowardLeaderboard: z.boolean(),
});

/** A game as its class's teachers see it (the host's page, their list): never a question or a key. */
export const liveGameSummarySchema = z.strictObject({
  _id: z.string(),
  pin: z.string(),
  state: z.enum(LIVE_GAME_STATES),
  quiz: z.strictObject({ _id: z.string(), title: z.string() }),
  class: namedRef,
  /** The teacher who created it; null once their account is gone. Any teacher of the class hosts it. */
  createdBy: z.nullable(namedRef),
  /** Questions the game plays, and those of the quiz it skips (essays, descriptions). */
  questionCount: z.int(),
  skippedCount: z.int(),
  questionSeconds: z.int(),
  /** The question open or last closed, 0-based; -1 in the lobby. */
  currentIndex: z.int(),
  playerCount: z.int(),
  countsTowardLeaderboard: z.boolean(),
  namesHidden: z.boolean(),
  createdAt: z.iso.datetime(),
  startedAt: z.nullable(z.iso.datetime()),
  endedAt: z.nullable(z.iso.datetime()),
});
export type LiveGameSummary = z.infer<typeof liveGameSummarySchema>;

/** A finished game of a quiz, as its analytics list them. */
export const finishedLiveGameSchema = z.strictObject({
  _id: z.string(),
  class: namedRef,
  createdBy: z.nullable(namedRef),
  startedAt: z.nullable(z.iso.datetime()),
  endedAt: z.iso.datetime(),
  questionCount: z.int(),
  /** Questions that were opened before the game ended. */
  questionsPlayed: z.int(),
  playerCount: z.int(),
  countsTowardLeaderboard: z.boolean(),
});
export type FinishedLiveGame = z.infer<typeof finishedLiveGameSchema>;

/**
 * How a question's answers spread (decision 066): `counts` by key, the key per type: an option's
 * id (single, multiple: each chosen option), "true" or "false", "<prompt id>><choice id>" for each
 * match, and for a short text or a number the answer as typed (trimmed, spaces collapsed; a number
 * as its value), the most given first, at most distributionTextsMax of them, the rest in `others`.
 * right: earned all of the points; partial: some; wrong: none.
 */
export const distributionSchema = z.strictObject({
  /** Players who could answer it (joined before it opened, not removed). */
  players: z.int(),
  answered: z.int(),
  right: z.int(),
  partial: z.int(),
  wrong: z.int(),
  counts: z.array(z.strictObject({ key: z.string(), count: z.int() })),
  others: z.int(),
});
export type Distribution = z.infer<typeof distributionSchema>;

/** One answer of a player in a report. */
export const reportAnswerSchema = z.strictObject({
  questionId: z.string(),
  value: answerValueSchema,
  points: z.int(),
  /** The part of the question's points the answer earned in the quiz's own scoring, 0 to 1. */
  fraction: z.number(),
  /** From the question's opening to the server's receipt of the answer, pauses aside. */
  elapsedMs: z.int(),
});

/** A finished game's report (the quiz's analytics): per question with its key and distribution, per student. */
export const liveGameReportSchema = z.strictObject({
  game: finishedLiveGameSchema,
  questions: z.array(
    z.strictObject({
      /** With its key: the report is the quiz's author's. */
      question: quizQuestionSchema,
      /** Opened before the game ended (an ended game may not have reached it). */
      played: z.boolean(),
      distribution: distributionSchema,
    }),
  ),
  /** The quiz's questions the game did not play (essays, descriptions), by id and type. */
  skipped: z.array(z.strictObject({ _id: z.string(), type: z.enum(QUESTION_TYPES) })),
  players: z.array(
    z.strictObject({
      student: z.strictObject({ _id: z.string(), name: z.string(), rollNumber: z.string() }),
      score: z.int(),
      /** Competition ranking (1, 1, 3) among players not removed; null for a removed one. */
      rank: z.nullable(z.int()),
      removed: z.boolean(),
      joinedAt: z.iso.datetime(),
      answers: z.array(reportAnswerSchema),
    }),
  ),
});
export type LiveGameReport = z.infer<typeof liveGameReportSchema>;

// ---- The socket: client → server ------------------------------------------------------------

const indexField = z.int().check(z.gte(0), z.lte(QUIZ_LIMITS.questionsMax));
const questionIdField = z.string().check(z.minLength(1), z.maxLength(QUESTION_LIMITS.idMax), z.regex(/^[\w-]+$/));

/** The first message on a socket; who joins, and whether as a host, the room token says. */
export const liveJoinMessageSchema = z.strictObject({
  type: z.literal('join'),
  protocolVersion: z.literal(LIVE_GAME_PROTOCOL_VERSION),
});

/**
 * A host's commands (any teacher of the game's class). Those about one question name its index, so
 * a command sent twice (two tabs, a double click) or late acts once: the stale one is MOVED_ON.
 * skip: close the open question now (its answers count); next: open the question after `from`
 * (the podium after the last); pause keeps the time left, add-time extends the deadline.
 */
export const liveHostCommandSchemas = [
  z.strictObject({ type: z.literal('start') }),
  z.strictObject({ type: z.literal('next'), from: indexField }),
  z.strictObject({ type: z.literal('skip'), index: indexField }),
  z.strictObject({ type: z.literal('pause'), index: indexField }),
  z.strictObject({ type: z.literal('resume'), index: indexField }),
  z.strictObject({
    type: z.literal('add-time'),
    index: indexField,
    seconds: z._default(
      z.int().check(z.gte(1), z.lte(LIVE_GAME_LIMITS.addSecondsMax)),
      LIVE_GAME_LIMITS.addSecondsDefault,
    ),
  }),
  z.strictObject({ type: z.literal('end') }),
  z.strictObject({ type: z.literal('remove-player'), studentId: z.uuid() }),
  z.strictObject({ type: z.literal('hide-names'), hidden: z.boolean() }),
  z.strictObject({ type: z.literal('set-question-seconds'), seconds: questionSecondsField }),
] as const;
export const liveHostCommandSchema = z.discriminatedUnion('type', liveHostCommandSchemas);
export type LiveHostCommand = z.infer<typeof liveHostCommandSchema>;
export type LiveHostCommandInput = z.input<typeof liveHostCommandSchema>;
export const LIVE_HOST_COMMANDS = liveHostCommandSchemas.map((schema) => schema.shape.type.def.values[0]!);

/** A player's answer to the open question: its id, and the value as the quiz takes it (AnswerValue). */
export const liveAnswerMessageSchema = z.strictObject({
  type: z.literal('answer'),
  questionId: questionIdField,
  value: answerValueSchema,
});
export type LiveAnswerMessage = z.infer<typeof liveAnswerMessageSchema>;

/** Every message after `join`, host's or player's: the role decides which are accepted. */
export const liveClientMessageSchema = z.discriminatedUnion('type', [
  ...liveHostCommandSchemas,
  liveAnswerMessageSchema,
  z.strictObject({ type: z.literal('leave') }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

// ---- The socket: server → client -----------------------------------------------------------

/**
 * Why the server refused one message (the socket stays open). The page words the code; these are
 * never sentences (decision 066).
 */
export const LIVE_GAME_ERROR_CODES = [
  /** A host's command from someone who is not a teacher of the game's class. */
  'NOT_A_HOST',
  /** An answer from someone who has not joined the game (or a teacher). */
  'NOT_A_PLAYER',
  /** No such game, or not one of the caller's classes (the same answer, so a PIN tells nothing). */
  'GAME_NOT_FOUND',
  'GAME_ENDED',
  /** A host removed this player. */
  'PLAYER_REMOVED',
  /** The command does not apply in the game's state (pause with no question open, start twice…). */
  'WRONG_STATE',
  /** The command names a question the game has left (sent twice, or late). */
  'MOVED_ON',
  /** The question time can change only in the lobby. */
  'GAME_STARTED',
  /** An answer to a question that is not open (closed, not yet open, or another one). */
  'QUESTION_NOT_OPEN',
  /** An answer that arrived after the question's deadline. */
  'TIME_UP',
  'GAME_PAUSED',
  /** The first answer counts: a second one is refused. */
  'ALREADY_ANSWERED',
  /** The player joined while this question was open: they play from the next one. */
  'JOINED_DURING_QUESTION',
  /** The value is not an answer to this question (wrong type, an option it does not have). */
  'INVALID_ANSWER',
] as const;
export type LiveGameErrorCode = (typeof LIVE_GAME_ERROR_CODES)[number];

/**
 * The close frame's reason per close code (for logs and API users; pages word the code itself).
 * At most 123 bytes each.
 */
export const LIVE_CLOSE_MESSAGES: Record<LiveCloseReason, string> = {
  LEFT: 'You left the game.',
  GOING_AWAY: 'The server is restarting.',
  FRAME_TOO_LARGE: 'A message was too large.',
  SERVER_ERROR: 'Something went wrong on the server.',
  REPLACED: 'You joined this game from another page.',
  BAD_MESSAGE: 'A message did not follow the live game protocol.',
  TOKEN_EXPIRED: 'The game token has expired.',
  FORBIDDEN: 'This game is not one of your classes.',
  JOIN_TIMEOUT: 'The join message did not arrive in time.',
  ROOM_FULL: 'The game is full.',
  SIGNED_OUT: 'You have been signed out.',
  TOO_LARGE: 'A message was over the size limit.',
  ROOM_LOCKED: 'The game is locked.',
  CLIENT_TOO_OLD: 'This page is out of date: reload it.',
  RATE_LIMITED: 'Too many messages.',
  REMOVED: 'A teacher removed you from the game.',
  GAME_ENDED: 'The game is over.',
};

/** What a room token for a game proves: who, which game, and whether as a host (a teacher of its class). */
export type LiveTokenClaims = {
  sub: string;
  name: string;
  role: 'teacher' | 'student';
  room: string;
  /** The session version of the login that minted it (decision 017). */
  sv: number;
  host: boolean;
};

const playerRefSchema = z.strictObject({ _id: z.string(), name: z.string() });

/** A player on the leaderboard or the podium; `name` null while the host hides names. */
export const rankedPlayerSchema = z.strictObject({
  _id: z.string(),
  name: z.nullable(z.string()),
  score: z.int(),
  rank: z.int(),
  /** The rank before the last question; null for a player who had not played yet. */
  previousRank: z.nullable(z.int()),
  streak: z.int(),
});
export type RankedPlayer = z.infer<typeof rankedPlayerSchema>;

/** The open question as players receive it: its content without any key, and the server's times. */
export const openedQuestionSchema = z.strictObject({
  index: z.int(),
  count: z.int(),
  question: quizQuestionSchema,
  openedAt: z.iso.datetime(),
  deadline: z.iso.datetime(),
  /** The question's time T of the scoring rule, in ms (added time aside). */
  durationMs: z.int(),
  /** The server's clock when this was sent: a page measures its own clock's offset with it. */
  serverTime: z.iso.datetime(),
});
export type OpenedQuestion = z.infer<typeof openedQuestionSchema>;

/** right: all of the points; partial: some; wrong: none; none: no answer. */
export const LIVE_OUTCOMES = ['right', 'partial', 'wrong', 'none'] as const;
export type LiveOutcome = (typeof LIVE_OUTCOMES)[number];

/** A player's own result at a question's close. */
export const playerResultSchema = z.strictObject({
  index: z.int(),
  questionId: z.string(),
  outcome: z.enum(LIVE_OUTCOMES),
  points: z.int(),
  score: z.int(),
  streak: z.int(),
  rank: z.int(),
  players: z.int(),
});
export type PlayerResult = z.infer<typeof playerResultSchema>;

/** A player's final score and rank among the players not removed. */
export const finalResultSchema = z.strictObject({
  score: z.int(),
  rank: z.int(),
  players: z.int(),
});

/** A closed question: its key, and how its answers spread. */
export const closedQuestionSchema = z.strictObject({
  index: z.int(),
  count: z.int(),
  question: quizQuestionSchema,
  distribution: distributionSchema,
});

const pausedSchema = z.strictObject({ index: z.int(), remainingMs: z.int() });

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  /** To a host who joins (or comes back): the game as it stands, the roster, the open question if any. */
  z.strictObject({
    type: z.literal('host-welcome'),
    game: liveGameSummarySchema,
    players: z.array(playerRefSchema),
    question: z.nullable(openedQuestionSchema),
    paused: z.nullable(pausedSchema),
    answered: z.int(),
    /** Of the open question: the players who may answer it (not those who joined during it); 0 when none is open. */
    answering: z.int(),
    /** Between questions: the one last closed, with its key, its distribution and the top five. */
    closed: z.nullable(z.extend(closedQuestionSchema, { top: z.array(rankedPlayerSchema) })),
    /** Once ended: the podium. */
    podium: z.nullable(z.array(rankedPlayerSchema)),
  }),
  /** To a player who joins (or comes back, same score): where the game is and what they may do. */
  z.strictObject({
    type: z.literal('player-welcome'),
    game: studentLiveGameSchema,
    you: z.strictObject({
      _id: z.string(),
      score: z.int(),
      streak: z.int(),
      /** The first question they play: joined after the start, the one after the question then. */
      firstIndex: z.int(),
    }),
    question: z.nullable(openedQuestionSchema),
    paused: z.nullable(pausedSchema),
    /** They answered the open question already. */
    answered: z.boolean(),
    /** Their result of the question last closed, when the game stands between questions. */
    result: z.nullable(playerResultSchema),
    /** Once ended: their final score and rank. */
    final: z.nullable(finalResultSchema),
  }),
  /**
   * First on every socket, before the welcome: this socket's seat in the room. A page that loses
   * its connection comes back with `?resume=<seatId>` and is the same seat (decision 065).
   */
  z.strictObject({ type: z.literal('seated'), seatId: z.string() }),
  /** Hosts: someone joined the lobby or the game. */
  z.strictObject({ type: z.literal('player-joined'), player: playerRefSchema, playerCount: z.int() }),
  /** Hosts: a player was removed. */
  z.strictObject({ type: z.literal('player-removed'), playerId: z.string(), playerCount: z.int() }),
  /** Everyone: the next question, without its key. */
  z.strictObject({ type: z.literal('question-opened'), ...openedQuestionSchema.shape }),
  /** The player whose answer was stored: it counts, its points come at the close. */
  z.strictObject({ type: z.literal('answer-accepted'), questionId: z.string() }),
  /** Hosts: "18 of 27". */
  z.strictObject({
    type: z.literal('answer-count'),
    index: z.int(),
    answered: z.int(),
    players: z.int(),
  }),
  /** Everyone: the question closed; its key and the distribution of the answers. */
  z.strictObject({ type: z.literal('question-closed'), ...closedQuestionSchema.shape }),
  /** Each player of the question: their own result. */
  z.strictObject({ type: z.literal('your-result'), ...playerResultSchema.shape }),
  /** Hosts, after each close: the top five with who moved. */
  z.strictObject({ type: z.literal('leaderboard'), index: z.int(), top: z.array(rankedPlayerSchema) }),
  z.strictObject({ type: z.literal('paused'), ...pausedSchema.shape }),
  z.strictObject({
    type: z.literal('resumed'),
    index: z.int(),
    deadline: z.iso.datetime(),
    remainingMs: z.int(),
    serverTime: z.iso.datetime(),
  }),
  z.strictObject({
    type: z.literal('time-added'),
    index: z.int(),
    deadline: z.iso.datetime(),
    remainingMs: z.int(),
    serverTime: z.iso.datetime(),
  }),
  z.strictObject({ type: z.literal('names-hidden'), hidden: z.boolean() }),
  z.strictObject({ type: z.literal('question-seconds'), seconds: z.int() }),
  /** The player a host removed; the room layer then closes their socket (REMOVED). */
  z.strictObject({ type: z.literal('removed') }),
  /** Everyone: the game is over; the podium (names null while hidden). */
  z.strictObject({ type: z.literal('ended'), podium: z.array(rankedPlayerSchema), players: z.int() }),
  /** Each player: their final score and rank. */
  z.strictObject({ type: z.literal('your-final'), ...finalResultSchema.shape }),
  z.strictObject({ type: z.literal('error'), code: z.enum(LIVE_GAME_ERROR_CODES) }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

/**
 * Where a message goes, in the room of the game: its hosts (teachers of the class on the host
 * page), everyone in it, or one player (by student id: every socket of theirs).
 */
export type LiveDelivery =
  | { to: 'hosts'; message: LiveServerMessage }
  | { to: 'everyone'; message: LiveServerMessage }
  | { to: 'player'; studentId: string; message: LiveServerMessage };

/**
 * The scoring rule (decision 066): `fraction` of the points of the quiz's own scoring (0 to 1),
 * scaled by speed: all at once, half at the end of the question's time T. t is measured by the
 * server from the question's opening, pauses aside, and held within 0 to T (added time scores as T).
 */
export function livePoints(fraction: number, elapsedMs: number, durationMs: number): number {
  const share = Math.min(1, Math.max(0, fraction));
  const t = Math.min(durationMs, Math.max(0, elapsedMs));
  return Math.round(LIVE_GAME_LIMITS.pointsMax * share * (1 - t / (2 * durationMs)));
}
