import * as buffer from 'lib0/buffer';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { decodeBoardDownload } from '#shared/board-download';
import type * as Pieces from '#shared/board-pieces';
import {
  CLASS_BOARD_CLOSE_CODES,
  CLASS_BOARD_LIMITS,
  CLASS_BOARD_PROTOCOL_VERSION,
  CLASS_BOARD_SOCKET_PATH,
  type BoardClientMessage,
  type BoardCloseReason,
  type BoardPen,
  type BoardPenInput,
  type BoardServerMessage,
  type BoardStroke,
} from '#shared/class-boards';
import { issueClassBoardToken, setClassBoardPen } from '#shared/contract/class-boards';
import { closeReasonIn, ROOM_RECONNECT_REASONS, roomSocketQuery } from '#shared/rooms';
import { call } from '../../lib/api.ts';
import { RoomSocket, type RetryNote, type RoomNetwork } from '../../lib/room-socket.ts';
import * as board from './board-document.ts';
import type {
  BoardCursor,
  BoardEndReason,
  BoardPeer,
  BoardRefusal,
  BoardSession,
  BoardState,
  BoardStatus,
  BoardStrokeInput,
} from './board-model.ts';
import { indexedDbBoardStore, savedBoardKey, type BoardLocalStore, type SavedBoard } from './board-offline.ts';
import { BOARD_MOMENTS, markBoardMoment } from './first-paint.ts';
import { downloadBoard, dropStartedDownload, hasStartedDownload } from './board-download-client.ts';

/**
 * One page's session on a class board (issue 35, decision 069): the board's Yjs document, synced
 * with the server by y-protocols over the room socket (lib/room-socket.ts, decision 065), a copy
 * in the browser (board-offline.ts) for reloads and offline drawing, this person's undo history,
 * and the others' cursors (awareness). Local changes are kept until the server says `saved` and
 * are sent again after a reconnect, as the updates they were (merged up to the message limit),
 * never as one sync step 2 over it. The server is the truth: a refusal (NO_PEN, NOT_A_TEACHER,
 * BOARD_FULL) drops the local copy and syncs it again. Framework-free; screens read it through
 * `subscribe` and `getSnapshot` (use-board-session.ts).
 */

/** Updates applied from the server, and from the browser's copy: neither is sent nor undone. */
const FROM_SERVER = Symbol('from the server');
const FROM_BROWSER = Symbol('from the browser');

/** A Yjs update with nothing in it (no structs, no deletions): the step 2 that only answers a step 1. */
const EMPTY_UPDATE = Y.encodeStateAsUpdate(new Y.Doc());
/** An update's bytes at most in one message: base64 takes 4/3, the JSON around it a little. */
const UPDATE_MAX_BYTES = Math.floor(((CLASS_BOARD_LIMITS.messageMaxBytes - 256) * 3) / 4);
/** Messages awaiting `saved` at once: the server's rate limit (a burst, then 20 a second) is never met. */
const IN_FLIGHT_MAX = 8;
/** Cursor messages at most this often: awareness shares the socket's rate budget with the strokes. */
const CURSOR_INTERVAL_MS = 100;
/**
 * The browser's copy is written this long after the last change (and at once on close, or as the
 * page is hidden); the unsent changes alone are written at once at each (board-offline.ts).
 */
const SAVE_DELAY_MS = 300;
/** The longest wait before the copy is written (a big board's encoding is costly). */
const SAVE_DELAY_MAX_MS = 10_000;
/** A first open writes its copy after this: the first paint comes first. */
const FIRST_COPY_DELAY_MS = 2_000;
/** A first open's download of the stored board gives up after this; the socket then sends the board. */
const DOWNLOAD_TIMEOUT_MS = 60_000;
const SHOW_CURSORS_KEY = 'studyhall:board-cursors';

/** Colours for the others' cursors, one per person (by their id). */
const PEER_COLOURS = ['#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0891b2', '#2563eb', '#7c3aed', '#db2777'];

/**
 * The pieces' code (a file of its own), for the rare change over the message limit: undoing a
 * clear, an erase or a page deletion of many strokes. Loaded when one of those is done, so it is
 * there by the undo.
 */
let piecesModule: typeof Pieces | undefined;
const loadPieces = () => {
  if (piecesModule) return;
  import('#shared/board-pieces').then(
    (loaded) => (piecesModule = loaded),
    () => undefined,
  );
};

type Outgoing = BoardClientMessage | { type: 'join'; protocolVersion: number };

/** A local change not yet acknowledged; `ref` while a message carrying it waits for `saved`. */
type Unsaved = { update: Uint8Array; ref?: number };

export type BoardSessionOptions = {
  classId: string;
  /** The signed-in person: every stroke names them, and the browser's copy is theirs. */
  me: { id: string; name: string };
  /** Tests and non-browser pages: each is the browser's own otherwise. */
  ticket?: (classId: string) => Promise<{ token: string; teacher: boolean }>;
  /** The stored board's download (GET /api/class-boards/:classId/document, its updates framed): a first open's. */
  download?: (classId: string, signal: AbortSignal) => Promise<Uint8Array>;
  /** Whether the page already started that download (no copy here, says the flag): taken at once. */
  isDownloadStarted?: (classId: string) => boolean;
  savePen?: (classId: string, input: BoardPenInput) => Promise<BoardPen>;
  socketUrl?: (token: string) => string;
  createSocket?: (url: string) => WebSocket;
  network?: RoomNetwork;
  delayMs?: (attempt: number) => number;
  store?: BoardLocalStore;
  settings?: Pick<Storage, 'getItem' | 'setItem'>;
};

/** A close the page comes back from by itself: a lost connection, a restart, an expired token. */
export function reconnectsAfter(code: number): boolean {
  const reason = closeReasonIn(CLASS_BOARD_CLOSE_CODES, code);
  return reason === undefined || ROOM_RECONNECT_REASONS.includes(reason);
}

const browserTicket = async (classId: string) => (await call(issueClassBoardToken, { params: { classId } })).data;

const browserSavePen = async (classId: string, input: BoardPenInput): Promise<BoardPen> => {
  const { mode, studentIds } = (await call(setClassBoardPen, { params: { classId }, body: input })).data;
  return { mode, studentIds };
};

const browserSocketUrl = (token: string) => {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${CLASS_BOARD_SOCKET_PATH}${roomSocketQuery(token)}`;
};

function browserSettings(): Pick<Storage, 'getItem' | 'setItem'> | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** A y-protocols sync message (its type, then its payload). */
function syncMessage(type: number, payload: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, type);
  encoding.writeVarUint8Array(encoder, payload);
  return encoding.toUint8Array(encoder);
}

function colourOf(userId: string): string {
  let hash = 0;
  for (const character of userId) hash = (hash * 31 + character.charCodeAt(0)) | 0;
  return PEER_COLOURS[Math.abs(hash) % PEER_COLOURS.length]!;
}

/** One step of this person's history (what it inserted and deleted). */
type UndoStep = Y.UndoManager['undoStack'][number];
type AwarenessUser = { id?: unknown; name?: unknown; teacher?: unknown };
/** Another page's awareness: only `user` is the server's; the rest is whatever that page sent. */
type AwarenessState = { user?: AwarenessUser; cursor?: unknown };

const isCursor = (value: unknown): value is BoardCursor => {
  const cursor = value as Partial<BoardCursor> | null | undefined;
  return typeof cursor?.pageId === 'string' && Number.isFinite(cursor.x) && Number.isFinite(cursor.y);
};

export class ClassBoardSession implements BoardSession {
  readonly classId: string;
  private readonly me: { id: string; name: string };
  private doc = new Y.Doc();
  private undoManager!: Y.UndoManager;
  /** This page's changes carry this origin: what is sent, and what its undo history holds. */
  private readonly localOrigin = { board: 'this page' };
  /** A document of its own: the server ties this socket's awareness to one client id, whatever happens to the board's. */
  private readonly awareness = new awarenessProtocol.Awareness(new Y.Doc());
  private readonly socket: RoomSocket<Outgoing, BoardServerMessage, BoardCloseReason>;
  private readonly store: BoardLocalStore;
  private readonly storeKey: string;
  private readonly savePen: (classId: string, input: BoardPenInput) => Promise<BoardPen>;
  private readonly download: (classId: string, signal: AbortSignal) => Promise<Uint8Array>;
  private readonly isDownloadStarted: (classId: string) => boolean;
  private readonly downloading = new AbortController();
  /** Settles once a first open's download is in (or failed): the socket's step 1 carries what it brought. */
  private stored: Promise<void> = Promise.resolve();
  /** The current socket's welcome: a step 1 waiting for the download is sent on that socket only. */
  private joinedAs: object | undefined;
  private readonly settings: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  private readonly listeners = new Set<() => void>();

  private unsaved: Unsaved[] = [];
  private nextRef = 1;
  private inFlight = 0;
  private isJoined = false;
  /** The server's board has reached this document on the current socket (its answer to our step 1). */
  private isSyncedNow = false;
  private status: BoardStatus = 'connecting';
  private endReason: BoardEndReason | undefined;
  private retryNote: RetryNote<BoardCloseReason> | undefined;
  private hasSynced = false;
  private isLoaded = false;
  private pen: BoardPen | null = null;
  private canDraw = false;
  private isTeacher = false;
  private showCursors: boolean;
  private lastRefusal: BoardRefusal | null = null;
  private version = 0;
  private snapshot: BoardState;
  private readonly restoresOthers = new WeakMap<UndoStep, boolean>();
  private strokesCache = new Map<string, readonly BoardStroke[]>();
  private cursor: BoardCursor | null = null;
  private cursorTimer: ReturnType<typeof setTimeout> | undefined;
  private cursorSentAt = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** How long the last write of the copy took to encode the board (its next wait grows with it). */
  private lastEncodeMs = 0;
  /** No copy is written before this (Date.now()): a first open's paint comes first. */
  private quietUntil = 0;
  private onDocUpdate: (update: Uint8Array, origin: unknown, doc: Y.Doc, transaction: Y.Transaction) => void = () =>
    undefined;
  private disposeTimer: ReturnType<typeof setTimeout> | undefined;
  private isStarted = false;
  /** The browser's copy has been read (and restored): only then may the session write it. */
  private isCopyRead = false;
  private isClosed = false;

  constructor(options: BoardSessionOptions) {
    this.classId = options.classId;
    this.me = options.me;
    this.store = options.store ?? indexedDbBoardStore();
    this.storeKey = savedBoardKey(options.me.id, options.classId);
    this.savePen = options.savePen ?? browserSavePen;
    this.download = options.download ?? downloadBoard;
    this.isDownloadStarted = options.isDownloadStarted ?? hasStartedDownload;
    this.settings = options.settings ?? browserSettings();
    this.showCursors = this.settings?.getItem(SHOW_CURSORS_KEY) !== 'off';
    this.attachDocument();
    this.awareness.setLocalState(null);
    this.awareness.on('change', () => this.emit());
    this.awareness.on('update', (changes: Record<'added' | 'updated' | 'removed', number[]>, origin: unknown) => {
      if (origin === FROM_SERVER || !changes.updated.concat(changes.added).includes(this.awareness.clientID)) return;
      this.sendAwareness();
    });
    const ticket = options.ticket ?? browserTicket;
    this.socket = new RoomSocket({
      url: options.socketUrl ?? browserSocketUrl,
      token: async () => {
        const issued = await ticket(this.classId);
        this.isTeacher = issued.teacher;
        return issued.token;
      },
      hello: () => ({ type: 'join', protocolVersion: CLASS_BOARD_PROTOCOL_VERSION }),
      closeCodes: CLASS_BOARD_CLOSE_CODES,
      reconnects: reconnectsAfter,
      onMessage: (message) => this.handle(message),
      onClose: () => this.handleSocketGone(),
      onRetry: (note) => {
        this.status = 'offline';
        this.retryNote = note;
        this.emit();
      },
      onEnd: (end) => {
        this.status = 'ended';
        this.endReason = end.kind === 'refused' ? end.error.code : (end.reason ?? 'SERVER_ERROR');
        this.canDraw = false;
        this.emit();
      },
      onNetwork: () => {
        // The browser says the network is gone: the socket is dead whatever it shows (a ping would
        // find out only later), so it goes now: the page says Offline and keeps its changes here.
        if (!navigator.onLine) this.socket.reconnect();
        this.emit();
      },
      ...(options.createSocket ? { createSocket: options.createSocket } : {}),
      ...(options.network ? { network: options.network } : {}),
      ...(options.delayMs ? { delayMs: options.delayMs } : {}),
    });
    this.snapshot = this.buildSnapshot();
  }

  // ---- Life ------------------------------------------------------------------------------------

  /**
   * Paints the browser's copy, or on a first open on this device the stored board downloaded in
   * one answer while the socket connects: its step 1 waits for the download and carries what the
   * page has, so the server sends only what is newer. Resolves once the board is in (the socket
   * goes on). A failed download leaves the whole board to the socket.
   */
  async start(): Promise<void> {
    clearTimeout(this.disposeTimer);
    if (this.isStarted || this.isClosed) return;
    this.isStarted = true;
    markBoardMoment(BOARD_MOMENTS.started);
    // A first open (the page started the download: no copy here, says the flag) takes the download
    // while the copy is looked for, not after: reading IndexedDB took 60-90 ms of the first paint.
    const isFirstOpen = this.isDownloadStarted(this.classId);
    if (isFirstOpen) this.stored = this.loadStoredBoard();
    const saved = await this.store.load(this.storeKey).catch(() => undefined);
    if (this.isClosed) return;
    if (typeof document !== 'undefined') {
      document.addEventListener('visibilitychange', this.saveAsPageGoes);
      window.addEventListener('pagehide', this.saveAsPageGoes);
    }
    this.isCopyRead = true;
    if (saved) {
      dropStartedDownload(this.classId);
      // A copy the flag did not know of: painted from it, the socket bringing the rest, as on any
      // reload; a download already applied stays, and the copy written next is the union.
      if (isFirstOpen && !this.isLoaded) this.downloading.abort();
      this.restore(saved);
      if (isFirstOpen) this.saveSoon();
    }
    // The socket connects meanwhile; its step 1 waits for the download (welcome below).
    if (!isFirstOpen && this.doc.store.clients.size === 0) this.stored = this.loadStoredBoard();
    this.socket.start();
    await this.stored;
  }

  /** The stored board in one download, applied as the server's (neither sent back nor undone). */
  private async loadStoredBoard() {
    const timer = setTimeout(() => this.downloading.abort(), DOWNLOAD_TIMEOUT_MS);
    try {
      const body = await this.download(this.classId, this.downloading.signal);
      if (this.isClosed) return;
      markBoardMoment(BOARD_MOMENTS.downloaded);
      const updates = decodeBoardDownload(body);
      // Anything here before it (the browser's copy, read meanwhile) is kept in the copy written next.
      const isAlone = this.doc.store.clients.size === 0;
      for (const update of updates) this.applyNotLocal(update, FROM_SERVER);
      markBoardMoment(BOARD_MOMENTS.applied);
      this.isLoaded = true;
      // Written once the page is painted; a board downloaded as one update is its own copy (nothing to encode).
      this.quietUntil = Date.now() + FIRST_COPY_DELAY_MS;
      this.saveSoon(updates.length === 1 && isAlone ? updates[0] : undefined);
      this.emit();
    } catch {
      // Offline, refused or cut: the socket's sync brings the whole board instead.
    } finally {
      clearTimeout(timer);
    }
  }

  /** The screen went away: close, unless it comes back at once (React's double effects in development). */
  disposeSoon() {
    this.disposeTimer = setTimeout(() => this.close(), 0);
  }

  close() {
    if (this.isClosed) return;
    this.isClosed = true;
    this.downloading.abort();
    if (typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', this.saveAsPageGoes);
      window.removeEventListener('pagehide', this.saveAsPageGoes);
    }
    clearTimeout(this.cursorTimer);
    this.socket.send({ type: 'leave' });
    this.socket.close();
    this.status = 'ended';
    this.endReason = 'LEFT';
    void this.saveNow();
    this.awareness.destroy();
    this.undoManager.destroy();
    this.emit();
  }

  // ---- Reading ---------------------------------------------------------------------------------

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = () => this.snapshot;

  strokesOf = (pageId: string): readonly BoardStroke[] => {
    let strokes = this.strokesCache.get(pageId);
    if (!strokes) {
      strokes = board.strokesArrayOf(this.doc, pageId)?.toArray() ?? [];
      this.strokesCache.set(pageId, strokes);
    }
    return strokes;
  };

  // ---- Drawing ---------------------------------------------------------------------------------

  addStroke(pageId: string, input: BoardStrokeInput): string | null {
    if (!this.canChange()) return null;
    const stroke = board.strokeOf(input, this.me.id);
    if (!stroke || !board.addStroke(this.doc, pageId, stroke, this.localOrigin)) return null;
    return stroke.id;
  }

  eraseStrokes(pageId: string, strokeIds: readonly string[]) {
    loadPieces();
    if (this.canChange()) board.eraseStrokes(this.doc, pageId, strokeIds, this.localOrigin);
  }

  clearPage(pageId: string) {
    loadPieces();
    if (this.canChange()) board.clearPage(this.doc, pageId, this.localOrigin);
  }

  // ---- Pages -----------------------------------------------------------------------------------

  addPage(name: string): string | null {
    return this.canChangePages() ? board.addPage(this.doc, name, this.localOrigin) : null;
  }

  renamePage(pageId: string, name: string) {
    if (this.canChangePages()) board.renamePage(this.doc, pageId, name, this.localOrigin);
  }

  movePage(pageId: string, beforeId: string | null) {
    if (this.canChangePages()) board.movePage(this.doc, pageId, beforeId, this.localOrigin);
  }

  deletePage(pageId: string) {
    loadPieces();
    if (this.canChangePages()) board.deletePage(this.doc, pageId, this.localOrigin);
  }

  // ---- Undo ------------------------------------------------------------------------------------

  undo() {
    if (this.canUndo()) this.undoManager.undo();
  }

  redo() {
    if (this.canRedo()) this.undoManager.redo();
  }

  private canUndo() {
    return this.canStep(this.undoManager.undoStack.at(-1));
  }

  private canRedo() {
    return this.canStep(this.undoManager.redoStack.at(-1));
  }

  private canStep(step: UndoStep | undefined) {
    if (step === undefined || !this.canChange()) return false;
    // A teacher's update may add anyone's strokes (decision 069): their undo of a clear, an erase
    // or a page deletion brings everyone's back. A student's may add only their own.
    if (this.isTeacher) return true;
    // A step's deleted content never changes: looked at once, not at every snapshot.
    let restoresOthers = this.restoresOthers.get(step);
    if (restoresOthers === undefined) {
      restoresOthers = board.restoresOthersStrokes(this.doc, step, this.me.id);
      this.restoresOthers.set(step, restoresOthers);
    }
    return !restoresOthers;
  }

  // ---- Presence --------------------------------------------------------------------------------

  setCursor(cursor: BoardCursor | null) {
    this.cursor = cursor;
    if (!this.showCursors || this.isClosed) return;
    // At most one message per interval; the last position wins.
    const wait = this.cursorSentAt + CURSOR_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.cursorTimer ??= setTimeout(() => {
        this.cursorTimer = undefined;
        this.setCursor(this.cursor);
      }, wait);
      return;
    }
    this.cursorSentAt = Date.now();
    this.awareness.setLocalStateField('cursor', cursor);
  }

  setShowCursors(show: boolean) {
    if (show === this.showCursors) return;
    this.showCursors = show;
    try {
      this.settings?.setItem(SHOW_CURSORS_KEY, show ? 'on' : 'off');
    } catch {
      // Storage full or refused: the setting lasts this page only.
    }
    clearTimeout(this.cursorTimer);
    this.cursorTimer = undefined;
    // Off: the others stop seeing this cursor at once.
    this.awareness.setLocalStateField('cursor', show ? this.cursor : null);
    this.emit();
  }

  // ---- The pen ---------------------------------------------------------------------------------

  async setPen(input: BoardPenInput): Promise<BoardPen> {
    // The socket's `pen` message tells every page, this one too; the answer is for the caller.
    return this.savePen(this.classId, input);
  }

  // ---- The document ----------------------------------------------------------------------------

  private canChange() {
    return this.canDraw && !this.isClosed && this.status !== 'ended';
  }

  private canChangePages() {
    return this.canChange() && this.isTeacher;
  }

  /** Listens to a (new) document: local changes kept and sent, every change shown, this person's history. */
  private attachDocument() {
    this.undoManager = new Y.UndoManager(board.pagesOf(this.doc), {
      trackedOrigins: new Set([this.localOrigin]),
      // Every action is its own step (two strokes drawn fast are two undos).
      captureTimeout: 0,
    });
    this.undoManager.on('stack-item-added', () => this.emit());
    this.undoManager.on('stack-item-popped', () => this.emit());
    const doc = this.doc;
    this.onDocUpdate = (update: Uint8Array, origin: unknown, _doc: Y.Doc, transaction: Y.Transaction) => {
      if (doc !== this.doc) return;
      if (origin === this.localOrigin || origin === this.undoManager) {
        for (const piece of this.piecesOf(update, transaction)) this.unsaved.push({ update: piece });
        // At once: a reload or a closed tab before the copy's next write keeps it.
        this.saveUnsavedNow();
        this.flush();
      }
      this.strokesCache.clear();
      this.saveSoon();
      this.emit();
    };
    doc.on('update', this.onDocUpdate);
  }

  /**
   * Applies what the server or the browser's copy brings without the update listener: Yjs encodes
   * every transaction again for 'update' listeners, and only local changes need their bytes (a
   * board of 20,000 strokes took ~0.3 s to encode back as it was applied). The caller emits.
   */
  private applyNotLocal(update: Uint8Array, origin: typeof FROM_SERVER | typeof FROM_BROWSER) {
    this.doc.off('update', this.onDocUpdate);
    try {
      Y.applyUpdate(this.doc, update, origin);
    } finally {
      this.doc.on('update', this.onDocUpdate);
    }
    this.strokesCache.clear();
  }

  /**
   * A local change as updates each under the message limit: itself, or (undoing a clear or a page
   * deletion of many strokes) its structs in causally ordered pieces (board-pieces.ts: each builds
   * only on what the server has or an earlier piece brings), then its deletions. Every struct of a
   * local change is this page's client's, made since the transaction began. Without the pieces'
   * code (not loaded yet), the change stays whole and flush() gives up on it as before.
   */
  private piecesOf(update: Uint8Array, transaction: Y.Transaction): Uint8Array[] {
    if (update.byteLength <= UPDATE_MAX_BYTES || !piecesModule) return [update];
    const structs = piecesModule.encodeStateAsPieces(
      this.doc,
      Y.encodeStateVector(transaction.beforeState),
      UPDATE_MAX_BYTES,
    );
    // The last piece is the deletions of the whole document: this change's own instead.
    structs.pop();
    const deletions = Y.diffUpdate(update, Y.encodeStateVector(this.doc));
    return [...structs, deletions].filter((piece) => !board.isEmptyUpdate(piece));
  }

  /** The server refused a change: its board is the truth, so this page starts again from it. */
  private dropLocalCopy() {
    this.undoManager.destroy();
    this.doc.destroy();
    this.doc = new Y.Doc();
    this.unsaved = [];
    this.inFlight = 0;
    this.strokesCache.clear();
    this.attachDocument();
    this.saveUnsavedNow();
    this.saveSoon();
    if (this.isJoined) {
      // Not the server's board until its answer comes (the screens show it fetched again).
      this.isSyncedNow = false;
      this.status = 'connecting';
      this.sendSync(syncMessage(syncProtocol.messageYjsSyncStep1, Y.encodeStateVector(this.doc)));
    }
    this.emit();
  }

  private restore(saved: SavedBoard) {
    this.applyNotLocal(saved.state, FROM_BROWSER);
    // The unsent changes may be newer than the state (written at once, the state later).
    for (const update of saved.unsaved) this.applyNotLocal(update, FROM_BROWSER);
    this.isLoaded = true;
    this.unsaved = saved.unsaved.map((update) => ({ update }));
    this.pen = saved.pen;
    this.canDraw = saved.canDraw;
    this.isTeacher = saved.teacher;
    this.emit();
  }

  /**
   * Writes the copy in a moment (changes in a burst are one write). Encoding a big board takes the
   * main thread a while (~0.3 s at 20,000 strokes), so the wait grows with the last encoding's cost:
   * the copy never takes more than about a tenth of the page's time, whoever draws. `state`: the
   * whole board already encoded (the download), written as it is.
   */
  private saveSoon(state?: Uint8Array) {
    clearTimeout(this.saveTimer);
    const delayMs = Math.min(SAVE_DELAY_MAX_MS, Math.max(SAVE_DELAY_MS, 10 * this.lastEncodeMs));
    this.saveTimer = setTimeout(() => void this.saveNow(state), Math.max(delayMs, this.quietUntil - Date.now()));
  }

  private saveUnsavedNow() {
    void this.store.saveUnsaved(
      this.storeKey,
      this.unsaved.map((change) => change.update),
    );
  }

  /** The page is going (a reload, a closed tab, another app): the copy is written now, not in a moment. */
  private readonly saveAsPageGoes = (event: Event) => {
    if (this.saveTimer === undefined) return;
    if (event.type === 'pagehide' || document.visibilityState === 'hidden') void this.saveNow();
  };

  private saveNow(encoded?: Uint8Array): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    // Before the copy is read (a page closed at once, a download applied first), writing would
    // replace it and its unsent strokes.
    if (!this.isCopyRead) return Promise.resolve();
    let state = encoded;
    if (!state) {
      const started = performance.now();
      state = Y.encodeStateAsUpdate(this.doc);
      this.lastEncodeMs = performance.now() - started;
    }
    return this.store.save(this.storeKey, {
      state,
      unsaved: this.unsaved.map((change) => change.update),
      pen: this.pen,
      canDraw: this.canDraw,
      teacher: this.isTeacher,
    });
  }

  /** Whether the browser's copy holds everything (tests, and a page about to go). */
  async flushToBrowser() {
    await this.saveNow();
  }

  // ---- The socket ------------------------------------------------------------------------------

  private handle(message: BoardServerMessage) {
    switch (message.type) {
      case 'welcome':
        this.isJoined = true;
        this.isTeacher = message.you.teacher;
        this.pen = message.pen;
        this.canDraw = message.you.canDraw;
        this.retryNote = undefined;
        this.socket.markJoined();
        // What this page has (the download's board once in): the server answers with what it lacks (a step 2).
        this.syncOnceStored();
        // Present to the others at once (their list of who is here), with the cursor when it is shown.
        this.awareness.setLocalState({ cursor: this.showCursors ? this.cursor : null });
        break;
      case 'sync':
        this.receiveSync(buffer.fromBase64(message.data));
        break;
      case 'awareness':
        awarenessProtocol.applyAwarenessUpdate(this.awareness, buffer.fromBase64(message.data), FROM_SERVER);
        break;
      case 'saved':
        this.acknowledge(message.ref);
        break;
      case 'error':
        this.lastRefusal = { code: message.code, at: Date.now() };
        if (message.code === 'NO_PEN') this.canDraw = false;
        // The changes sent after a refused one are refused too: the copy is dropped once, not at each.
        if (message.ref === undefined || this.unsaved.some((change) => change.ref === message.ref))
          this.dropLocalCopy();
        break;
      case 'pen':
        this.pen = message.pen;
        this.canDraw = message.canDraw;
        this.saveSoon();
        break;
    }
    this.emit();
  }

  private syncOnceStored() {
    const joined = {};
    this.joinedAs = joined;
    void this.stored.then(() => {
      if (!this.isJoined || this.joinedAs !== joined || this.isClosed) return;
      this.sendSync(syncMessage(syncProtocol.messageYjsSyncStep1, Y.encodeStateVector(this.doc)));
    });
  }

  private receiveSync(data: Uint8Array) {
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    const payload = decoding.readVarUint8Array(decoder);
    if (type === syncProtocol.messageYjsSyncStep1) return this.answerServerState(payload);
    // An empty answer (the download had it all: no structs, no deletions) changes nothing: no copy to write again.
    if (!(payload.byteLength === 2 && payload[0] === 0 && payload[1] === 0)) {
      this.applyNotLocal(payload, FROM_SERVER);
      this.saveSoon();
    }
    if (type === syncProtocol.messageYjsSyncStep2 && !this.isSyncedNow) {
      this.isSyncedNow = true;
      this.hasSynced = true;
      this.isLoaded = true;
      this.status = 'synced';
      this.flush();
    }
  }

  /**
   * The server's state vector: what it lacks of this page's is the unsaved changes, sent as the
   * updates they were (flush), never as one step 2 that could pass the message limit. Anything
   * else it lacks (a server restored from a backup) goes as an update when small enough. Every
   * step 1 is answered with a step 2 as y-protocols pages do, one with nothing in it: the server
   * sends a late joiner's pieces a window at a time and the next window once this page has
   * answered the step 1 after the last (decision 069); unanswered, each waited 10 s.
   */
  private answerServerState(stateVector: Uint8Array) {
    this.sendSync(syncMessage(syncProtocol.messageYjsSyncStep2, EMPTY_UPDATE));
    if (this.unsaved.length > 0 || !this.canDraw) return;
    const missing = Y.encodeStateAsUpdate(this.doc, stateVector);
    if (board.isEmptyUpdate(missing) || missing.byteLength > UPDATE_MAX_BYTES) return;
    this.unsaved.push({ update: missing });
    this.flush();
  }

  /**
   * Sends unsaved changes not yet on their way, merging neighbours up to the message limit, with
   * a few messages at most awaiting `saved`. Only once synced on this socket: the updates then
   * build on what the server has.
   */
  private flush() {
    if (!this.isJoined || !this.isSyncedNow) return;
    let index = this.unsaved.findIndex((change) => change.ref === undefined);
    while (index >= 0 && index < this.unsaved.length && this.inFlight < IN_FLIGHT_MAX) {
      const batch: Unsaved[] = [this.unsaved[index]!];
      let size = batch[0]!.update.byteLength;
      if (size > UPDATE_MAX_BYTES) {
        // One change over the message limit (undoing a large clear): the server would close the socket.
        this.lastRefusal = { code: 'TOO_LARGE', at: Date.now() };
        return this.dropLocalCopy();
      }
      for (let next = index + 1; next < this.unsaved.length; next++) {
        const candidate = this.unsaved[next]!;
        if (size + candidate.update.byteLength > UPDATE_MAX_BYTES) break;
        batch.push(candidate);
        size += candidate.update.byteLength;
      }
      const update = batch.length === 1 ? batch[0]!.update : Y.mergeUpdates(batch.map((change) => change.update));
      const ref = this.sendSync(syncMessage(syncProtocol.messageYjsUpdate, update));
      if (ref === undefined) return;
      for (const change of batch) change.ref = ref;
      this.inFlight += 1;
      index += batch.length;
    }
  }

  private sendSync(data: Uint8Array): number | undefined {
    const ref = this.nextRef++;
    return this.socket.send({ type: 'sync', data: buffer.toBase64(data), ref }) ? ref : undefined;
  }

  private acknowledge(ref: number) {
    const before = this.unsaved.length;
    this.unsaved = this.unsaved.filter((change) => change.ref !== ref);
    if (this.unsaved.length === before) return;
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.saveSoon();
    this.flush();
  }

  private sendAwareness() {
    if (!this.isJoined) return;
    const update = awarenessProtocol.encodeAwarenessUpdate(this.awareness, [this.awareness.clientID]);
    this.socket.send({ type: 'awareness', data: buffer.toBase64(update) });
  }

  /** The socket closed: what was on its way is sent again on the next; the others' cursors go. */
  private handleSocketGone() {
    this.isJoined = false;
    this.isSyncedNow = false;
    this.inFlight = 0;
    for (const change of this.unsaved) delete change.ref;
    const others = [...this.awareness.getStates().keys()].filter((client) => client !== this.awareness.clientID);
    awarenessProtocol.removeAwarenessStates(this.awareness, others, FROM_SERVER);
    if (this.status !== 'ended') this.status = 'offline';
    this.emit();
  }

  // ---- The snapshot ----------------------------------------------------------------------------

  private peers(): BoardPeer[] {
    const peers: BoardPeer[] = [];
    for (const [clientId, state] of this.awareness.getStates() as Map<number, AwarenessState>) {
      const user = state.user;
      if (clientId === this.awareness.clientID || typeof user?.id !== 'string') continue;
      const cursor = this.showCursors && isCursor(state.cursor) ? state.cursor : undefined;
      peers.push({
        clientId,
        userId: user.id,
        name: typeof user.name === 'string' ? user.name : '',
        teacher: user.teacher === true,
        colour: colourOf(user.id),
        ...(cursor ? { cursor } : {}),
      });
    }
    return peers;
  }

  private buildSnapshot(): BoardState {
    return {
      status: this.status,
      ...(this.endReason ? { endReason: this.endReason } : {}),
      ...(this.retryNote && this.status === 'offline' ? { retryNote: this.retryNote } : {}),
      hasSynced: this.hasSynced,
      isLoaded: this.isLoaded,
      pages: board.listPages(this.doc),
      pen: this.pen,
      canDraw: this.canChange(),
      isTeacher: this.isTeacher,
      me: this.me,
      peers: this.peers(),
      showCursors: this.showCursors,
      canUndo: this.canUndo(),
      canRedo: this.canRedo(),
      savedAll: this.unsaved.length === 0,
      unsavedCount: this.unsaved.length,
      lastRefusal: this.lastRefusal,
      version: this.version,
    };
  }

  private emit() {
    this.version += 1;
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }
}
