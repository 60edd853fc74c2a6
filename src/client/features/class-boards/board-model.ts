import type { BoardCloseReason, BoardErrorCode, BoardPen, BoardPenInput, BoardStroke } from '#shared/class-boards';
import type { FailureCode } from '../../lib/api.ts';
import type { RetryNote } from '../../lib/room-socket.ts';

/**
 * What the class board's screens see of one page's board session (issue 35, decision 069): the
 * state to paint (pages, strokes, peers, the pen), and the actions. The session (board-session.ts)
 * keeps the Yjs document, syncs it over the room socket, keeps a copy in the browser (offline and
 * reload) and holds this person's undo history; the screens never touch Yjs. Codes only, never
 * sentences: the screens word them.
 */

/** A page of the board, as listed: `pages` is sorted by `order`. */
export type BoardPage = { id: string; name: string; order: number };

/** A stroke as a screen hands it over: the session adds its id and the author (this person). */
export type BoardStrokeInput = Omit<BoardStroke, 'id' | 'author'>;

/** A point on a page, whole board units (CLASS_BOARD_LIMITS.coordinateMax). */
export type BoardCursor = { pageId: string; x: number; y: number };

/** Someone else on the board now (awareness; the server sets their id and name from their token). */
export type BoardPeer = {
  /** Their Yjs client id: unique per open page, so one person on two devices is two peers. */
  clientId: number;
  userId: string;
  name: string;
  teacher: boolean;
  /** Where their pointer is; absent when away or when they (or this person) turned cursors off. */
  cursor?: BoardCursor;
  /** A colour for their cursor and name, the same for the same person on every page. */
  colour: string;
};

/**
 * The socket's side of things:
 * - `connecting`: before the first sync (the local copy may already be painted), or while the
 *   board is fetched again after a refusal dropped the local copy;
 * - `synced`: the board is the server's, and changes go as they are made;
 * - `offline`: the connection was lost; drawing goes on locally and is sent on coming back;
 * - `ended`: for good (see `endReason`); the board stays on screen, read only.
 */
export type BoardStatus = 'connecting' | 'synced' | 'offline' | 'ended';

/**
 * Why the session ended: the server's close reason (REPLACED, FORBIDDEN, SIGNED_OUT, …), a final
 * refusal of the token (NOT_FOUND: no such class or not one of theirs), or LEFT after `close()`.
 */
export type BoardEndReason = BoardCloseReason | FailureCode;

/**
 * A change the server refused, or one too large to send (TOO_LARGE: undoing a clear of many
 * strokes); the board was set back to the server's. `at` tells repeats apart.
 */
export type BoardRefusal = { code: BoardErrorCode | 'TOO_LARGE'; at: number };

export type BoardState = {
  status: BoardStatus;
  endReason?: BoardEndReason;
  /** While `offline` or reconnecting: why (a close reason, UNREACHABLE, CONNECTION_LOST, OFFLINE). */
  retryNote?: RetryNote<BoardCloseReason>;
  /** Whether the board shown came from the server at least once (else only the browser's copy, or nothing yet). */
  hasSynced: boolean;
  /**
   * Whether a whole board is shown: the browser's copy (before the socket syncs) or the server's
   * after its first sync; false while nothing is, or while a late joiner's pieces still arrive.
   */
  isLoaded: boolean;
  /** The board's pages, by `order`. */
  pages: readonly BoardPage[];
  /** Who draws (the server's; null until the first welcome). */
  pen: BoardPen | null;
  /** Whether this person may draw, erase and clear now (the pen, and no refusal since). */
  canDraw: boolean;
  /** Whether this person teaches the class: pages (add, rename, move, delete) and the pen are theirs. */
  isTeacher: boolean;
  me: { id: string; name: string };
  /** The others on the board now (never this page itself). */
  peers: readonly BoardPeer[];
  /** Whether cursors are shown and this page's is sent (this browser's setting). */
  showCursors: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** Every local change the server has acknowledged as stored (durable); false while any waits. */
  savedAll: boolean;
  /** Local changes not yet acknowledged (kept in the browser, resent after a reconnect). */
  unsavedCount: number;
  /** The last refusal of the server (NO_PEN, NOT_A_TEACHER, BOARD_FULL), for a notice. */
  lastRefusal: BoardRefusal | null;
  /** Bumped on every change of anything above or of any page's strokes (useSyncExternalStore). */
  version: number;
};

export interface BoardSession {
  readonly classId: string;

  // ---- Reading -------------------------------------------------------------------------------

  /** The current state: the same object until something changes (useSyncExternalStore's snapshot). */
  getSnapshot(): BoardState;
  /** Calls `listener` after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** A page's strokes in drawing order (the same array until that page changes); [] for no such page. */
  strokesOf(pageId: string): readonly BoardStroke[];

  // ---- Drawing (anyone holding the pen) -------------------------------------------------------

  /**
   * Adds a finished stroke (on pen up) with this person as author; returns its id, or null when
   * it cannot (no pen, no such page, points off the schema: whole units, ±coordinateMax, at most
   * strokePointsMax pairs; a longer line is cut into several strokes by the caller).
   */
  addStroke(pageId: string, stroke: BoardStrokeInput): string | null;
  /** Erases these strokes (anyone's) in one undo step. */
  eraseStrokes(pageId: string, strokeIds: readonly string[]): void;
  /** Deletes every stroke of a page, in one undo step. */
  clearPage(pageId: string): void;

  // ---- Pages (teachers) ---------------------------------------------------------------------

  /** Adds a page at the end; returns its id, or null when not allowed or at pagesMax. */
  addPage(name: string): string | null;
  renamePage(pageId: string, name: string): void;
  /** Moves a page before `beforeId`, or to the end with null. */
  movePage(pageId: string, beforeId: string | null): void;
  /** Deletes a page and its strokes (this person's undo brings it back). */
  deletePage(pageId: string): void;

  // ---- This person's history ------------------------------------------------------------------

  /** Undoes this person's last change (a stroke, an erase, a clear, a page change); others' stay. */
  undo(): void;
  redo(): void;

  // ---- Presence -----------------------------------------------------------------------------

  /** Where this person's pointer is on a page (null: off the board); not sent while cursors are off. */
  setCursor(cursor: BoardCursor | null): void;
  /** Shows others' cursors and sends this one's, or neither; kept in this browser. */
  setShowCursors(show: boolean): void;

  // ---- The pen (teachers) --------------------------------------------------------------------

  /** Hands the pen (PUT /api/class-boards/:classId/pen); everyone, this page too, is told over the socket. */
  setPen(input: BoardPenInput): Promise<BoardPen>;

  /** Leaves the board for good (the screen went away); the browser's copy stays for next time. */
  close(): void;
}

/** What `useBoardSession(classId)` (use-board-session.ts) gives a screen. */
export type UseBoardSessionResult = {
  /** The state, re-rendered on every change. */
  state: BoardState;
  /** The actions and `strokesOf` (stable for the screen's life). */
  session: BoardSession;
};
