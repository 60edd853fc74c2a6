import { z } from 'zod/mini';
import { bodyObject } from './fields.ts';
import { ROOM_CLOSE_CODES } from './rooms.ts';

/**
 * The class board (issue 35, decision 069): a Yjs document every teacher and student of a class
 * draws on together, kept on the server. Its socket rides the room transport (decision 065) and
 * carries y-protocols' sync and awareness messages, base64 in JSON. What the document may hold
 * (its schema), who may change it (the pen), its limits, and the REST calls' shapes live here; the
 * server sends codes, never sentences.
 */

/** Bumped on any incompatible change of the messages below; the socket closes other versions. */
export const CLASS_BOARD_PROTOCOL_VERSION = 1;

/** The socket's address on the room transport: `?token=` from POST /api/class-boards/{classId}/token. */
export const CLASS_BOARD_SOCKET_PATH = '/api/class-boards/ws';

export const CLASS_BOARD_LIMITS = {
  /**
   * One socket message (JSON text, the Yjs update in base64), under the room transport's 64 KiB
   * frame: above it the socket closes with TOO_LARGE (over the frame, FRAME_TOO_LARGE). A stroke
   * of 50 points is about 0.4 kB of update, 0.6 kB in its message; a page back from offline sends its strokes as the updates it
   * made, one by one, rather than one sync step 2 over the limit.
   */
  messageMaxBytes: 60 * 1024,
  /** An awareness message (a cursor, a name, a tool): small, and never stored. */
  awarenessMaxBytes: 2048,
  /**
   * A board's stored size (snapshot and updates not yet compacted); beyond it, BOARD_FULL. Issue
   * 35's board of 20,000 strokes of 50 points takes ~8.9 MB compacted (~445 bytes a stroke:
   * coordinates of 3 bytes and a type byte, an id and an author), over the first 8 MiB; 12 MiB
   * holds it with a third to spare (~28,000 such strokes) while bounding what a server keeps in
   * memory per board and what a late joiner downloads (a third more in base64).
   */
  boardMaxBytes: 12 * 1024 * 1024,
  /** Updates are folded into one snapshot once this many, or this many bytes, are waiting. */
  compactAfterUpdates: 500,
  compactAfterBytes: 1024 * 1024,
  pagesMax: 50,
  pageNameMax: 80,
  /** Points of one stroke (x, y pairs); a longer line is several strokes. */
  strokePointsMax: 1000,
  strokeWidthMin: 0.5,
  strokeWidthMax: 64,
  /** Coordinates are whole board units (a tenth of a CSS pixel at 100 %), within ± this: 4 bytes each in Yjs. */
  coordinateMax: 100_000,
  /**
   * Messages per socket: strokes come on pen up, cursors (awareness) a few times a second. A
   * burst, then this many a second; beyond it the room layer closes the socket (RATE_LIMITED).
   */
  messageBurst: 60,
  messagesPerSecond: 20,
  /** People on one board at once. */
  roomSize: 200,
  /** Students the teacher may hand the pen to by name. */
  penStudentsMax: 200,
  /** A room token opens the board's socket within this many seconds. */
  tokenLifetimeSeconds: 600,
  /** The first message (join) must arrive within this many milliseconds. */
  joinTimeoutMs: 10_000,
  /**
   * Each instance checks this often that the people on its boards are still of the class: one
   * removed from it is closed with FORBIDDEN (their writes are refused at once by the store).
   */
  membershipCheckMs: 5_000,
} as const;

// ---- The document's schema ------------------------------------------------------------------

/**
 * The document: one root Y.Map `pages`, keyed by page id; each page a Y.Map of `name` (text),
 * `order` (a number: pages are listed by it, and a page moves by taking a number between two
 * others) and `strokes` (a Y.Array of finished strokes, each one immutable value). Erasing a
 * stroke deletes it; clearing a page deletes all its strokes; deleting a page deletes its key.
 * Yjs keeps the tombstones (and each person's UndoManager can bring them back).
 */
export const BOARD_ROOT = 'pages';
export const PAGE_KEYS = ['name', 'order', 'strokes'] as const;
export const BOARD_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

const coordinate = z.int().check(z.gte(-CLASS_BOARD_LIMITS.coordinateMax), z.lte(CLASS_BOARD_LIMITS.coordinateMax));

/** A finished stroke: its author (the server checks it is the sender), colour, width and points [x0, y0, x1, y1, …]. */
export const boardStrokeSchema = z.strictObject({
  id: z.string().check(z.regex(BOARD_ID_PATTERN)),
  author: z.uuid(),
  colour: z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/)),
  width: z.number().check(z.gte(CLASS_BOARD_LIMITS.strokeWidthMin), z.lte(CLASS_BOARD_LIMITS.strokeWidthMax)),
  points: z.array(coordinate).check(
    z.minLength(2),
    z.maxLength(2 * CLASS_BOARD_LIMITS.strokePointsMax),
    z.refine((points) => points.length % 2 === 0),
  ),
});
export type BoardStroke = z.infer<typeof boardStrokeSchema>;

export const boardPageNameSchema = z.string().check(z.minLength(1), z.maxLength(CLASS_BOARD_LIMITS.pageNameMax));
export const boardPageOrderSchema = z.number();

// ---- The pen ----------------------------------------------------------------------------------

/** Who draws: everyone of the class, its teachers only, or its teachers and the students named. */
export const PEN_MODES = ['everyone', 'teachers', 'named'] as const;
export type PenMode = (typeof PEN_MODES)[number];

export const boardPenSchema = z.strictObject({
  mode: z.enum(PEN_MODES),
  /** The students holding the pen in `named` mode (kept in the others, for going back to it). */
  studentIds: z.array(z.string()),
});
export type BoardPen = z.infer<typeof boardPenSchema>;

/** Whether someone may change the board's strokes under this pen (pages are the teachers'). */
export const holdsPen = (pen: BoardPen, user: { id: string; teacher: boolean }) =>
  user.teacher || pen.mode === 'everyone' || (pen.mode === 'named' && pen.studentIds.includes(user.id));

// ---- REST ---------------------------------------------------------------------------------------

export const classBoardParamsSchema = z.object({ classId: z.uuid() });

/** PUT /api/class-boards/{classId}/pen: students not of the class are left out of `studentIds`. */
export const boardPenInputSchema = bodyObject({
  mode: z.enum(PEN_MODES),
  studentIds: z._default(z.array(z.uuid()).check(z.maxLength(CLASS_BOARD_LIMITS.penStudentsMax)), []),
});
export type BoardPenInput = z.input<typeof boardPenInputSchema>;

export const classBoardPenSchema = z.strictObject({ classId: z.string(), ...boardPenSchema.shape });
export type ClassBoardPen = z.infer<typeof classBoardPenSchema>;

/** POST /api/class-boards/{classId}/token: a short-lived room token for the board's socket. */
export const boardTicketSchema = z.strictObject({
  classId: z.string(),
  /** Passed as ?token= to the socket; join before expiresAt. */
  token: z.string(),
  expiresAt: z.iso.datetime(),
  /** A teacher of the class (pages, the pen setting) rather than a student. */
  teacher: z.boolean(),
});
export type BoardTicket = z.infer<typeof boardTicketSchema>;

// ---- The socket -------------------------------------------------------------------------------

/** The board's close codes: the room layer's (an invalid update is BAD_MESSAGE, a large one TOO_LARGE). */
export const CLASS_BOARD_CLOSE_CODES = { ...ROOM_CLOSE_CODES } as const;
export type BoardCloseReason = keyof typeof CLASS_BOARD_CLOSE_CODES;

export const BOARD_CLOSE_MESSAGES: Record<BoardCloseReason, string> = {
  LEFT: 'You left the board.',
  GOING_AWAY: 'The server is restarting.',
  FRAME_TOO_LARGE: 'A message was too large.',
  SERVER_ERROR: 'Something went wrong on the server.',
  REPLACED: 'You opened this board from another page.',
  BAD_MESSAGE: 'A message or an update did not follow the board protocol.',
  TOKEN_EXPIRED: 'The board token has expired.',
  FORBIDDEN: 'This board is not one of your classes.',
  JOIN_TIMEOUT: 'The join message did not arrive in time.',
  ROOM_FULL: 'The board is full.',
  SIGNED_OUT: 'You have been signed out.',
  TOO_LARGE: 'A message was over the size limit.',
  ROOM_LOCKED: 'The board is locked.',
  CLIENT_TOO_OLD: 'This page is out of date: reload it.',
  RATE_LIMITED: 'Too many messages.',
  REMOVED: 'A teacher removed you from the board.',
};

/**
 * Why an update was refused; the socket stays (the page drops its copy and syncs again). The
 * page's updates sent after a refused one (they build on it) are refused with the same code until
 * its next sync step 1. PAGES_FULL: the update would make more than `pagesMax` pages. CLIENT_TAKEN:
 * it adds structs of a Yjs client id someone else used first on the board (tried once more on the
 * board read again from the database: a page's step 2 may hold others' strokes this instance had
 * not heard of yet).
 */
export const BOARD_ERROR_CODES = ['NO_PEN', 'NOT_A_TEACHER', 'BOARD_FULL', 'PAGES_FULL', 'CLIENT_TAKEN'] as const;
export type BoardErrorCode = (typeof BOARD_ERROR_CODES)[number];

const base64 = z.string().check(z.maxLength(CLASS_BOARD_LIMITS.messageMaxBytes), z.regex(/^[A-Za-z0-9+/]*={0,2}$/));

export const boardJoinMessageSchema = z.strictObject({
  type: z.literal('join'),
  protocolVersion: z.int(),
});

export const boardClientMessageSchema = z.discriminatedUnion('type', [
  /** A y-protocols sync message (step 1, step 2 or update); `ref` is echoed by `saved` or `error`. */
  z.strictObject({ type: z.literal('sync'), data: base64, ref: z.optional(z.int().check(z.gte(0))) }),
  /** A y-protocols awareness update of this page's own state (cursor, tool): relayed, never stored. */
  z.strictObject({ type: z.literal('awareness'), data: base64 }),
  z.strictObject({ type: z.literal('leave') }),
]);
export type BoardClientMessage = z.infer<typeof boardClientMessageSchema>;

export const boardServerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('welcome'),
    seatId: z.string(),
    you: z.strictObject({ id: z.string(), name: z.string(), teacher: z.boolean(), canDraw: z.boolean() }),
    pen: boardPenSchema,
  }),
  z.strictObject({ type: z.literal('sync'), data: z.string() }),
  z.strictObject({ type: z.literal('awareness'), data: z.string() }),
  /** The update `ref` is stored (durable): it survives any instance. */
  z.strictObject({ type: z.literal('saved'), ref: z.int() }),
  z.strictObject({ type: z.literal('error'), code: z.enum(BOARD_ERROR_CODES), ref: z.optional(z.int()) }),
  /** The pen changed: who draws, and whether this person does. */
  z.strictObject({ type: z.literal('pen'), pen: boardPenSchema, canDraw: z.boolean() }),
]);
export type BoardServerMessage = z.infer<typeof boardServerMessageSchema>;

/** The board's room tokens carry whether the holder teaches the class. */
export type BoardTokenClaims = {
  sub: string;
  role: 'teacher' | 'student';
  name: string;
  room: string;
  sv: number;
  teacher: boolean;
};
