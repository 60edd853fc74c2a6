import type { FastifyBaseLogger } from 'fastify';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import {
  BOARD_CLOSE_MESSAGES,
  boardClientMessageSchema,
  CLASS_BOARD_CLOSE_CODES,
  CLASS_BOARD_LIMITS,
  CLASS_BOARD_PROTOCOL_VERSION,
  CLASS_BOARD_SOCKET_PATH,
  holdsPen,
  type BoardCloseReason,
  type BoardErrorCode,
  type BoardPen,
  type BoardServerMessage,
  type BoardTokenClaims,
} from '#shared/class-boards';
import { encodeStateAsPieces } from '#shared/board-pieces';
import { classBoardSocket } from '#shared/contract/class-boards';
import type { PresenceEntry, PresenceEvent } from '../../realtime/presence.ts';
import { roomPresence } from '../../realtime/presence.ts';
import { createRoomHub, SEAT_REFUSALS, type RoomMember } from '../../realtime/room-hub.ts';
import { socketLimits, type RoomSocket, type RoomTransport, type SocketLimits } from '../../realtime/room-socket.ts';
import { applyBoardUpdate, boardDocFrom, changesNothing, SERVER_ORIGIN } from './board-document.ts';
import type { ClassBoards } from './service.ts';

/**
 * The class board's socket (issue 35, decision 069): y-protocols' sync and awareness on the room
 * transport, the room being the class. Each instance holding someone on a board keeps its Yjs
 * document in memory, loaded from the database (the truth) and kept up by the board's channel:
 * every accepted update is stored first, then published with its number; an instance that sees a
 * number skipped reads what it missed from the database. A person's update is checked against
 * the document (decodable, the schema, their own strokes), the pen and the board's size before it
 * is stored; what is refused reaches nobody. Awareness (cursors, names) is relayed, never stored,
 * each page's own state only, with the name the token gives. Everything of one board on one
 * instance runs in one queue, in order.
 */

type BoardEntry = PresenceEntry & { name: string };

/** What travels on a board's channel. */
type BoardRoomMessage =
  /** An update stored as number `stored` (base64), sent by the seat `from` (no `seq`: that is the presence's). */
  | { kind: 'board-update'; stored: number; update: string; from: string }
  /** `userId`: whose page it is (its client id is theirs on the board while its state lasts). */
  | { kind: 'board-awareness'; data: string; from: string; userId?: string }
  | { kind: 'board-pen'; pen: BoardPen };

type BoardLocal = {
  send(message: BoardServerMessage): void;
  close(reason: BoardCloseReason): void;
  userId: string;
  name: string;
  teacher: boolean;
  /** The welcome has gone: the board's messages are passed on from then. */
  isWelcomed: boolean;
  /** The awareness client of this page (the first it sent as its own). */
  awarenessClient?: number;
  /** Waiting for this page's next sync step 2 (the answer to a step 1 sent after a window of pieces), oldest first. */
  answers: (() => void)[];
  /** Pieces of a first sync still being sent (stopped when the page leaves). */
  isLeaving: boolean;
  /**
   * An update of this page's was refused: the ones it sent after it build on it and are refused
   * with the same code (nothing stored, the socket kept) until the page syncs again (its step 1).
   */
  refused?: BoardErrorCode;
  /** A first sync (the answer to a step 1) is on its way: a further step 1 waits for it. */
  isSyncing: boolean;
  /** The state vector of the last step 1 that came while one was being answered (answered next). */
  nextStep1?: Uint8Array;
};

type BoardMember = RoomMember<BoardEntry, BoardLocal, BoardRoomMessage>;

/** One board on this instance: its document, the awareness states, who is on it, and its queue. */
type LoadedBoard = {
  classId: string;
  doc: Y.Doc | null;
  /** The last stored update the document has (every one up to it). */
  seq: number;
  pen: BoardPen;
  awareness: awarenessProtocol.Awareness;
  /** Whose each awareness client id is (a person's id) while its state lasts: nobody else may send it. */
  awarenessOwners: Map<number, string>;
  members: Set<BoardMember>;
  queue: Promise<void>;
  /** Bus messages already taken in (the hub hands one message to each member). */
  seen: WeakSet<object>;
  isCompacting: boolean;
  /** Appends in flight: the document already has their updates, the database not yet. */
  appending: Set<Promise<unknown>>;
  /** An append in flight was refused (or failed): the document has an update nobody may get. */
  isStale: boolean;
};

/** What a sync message leaves to do outside the board's queue: its append's commit, the acknowledgement, the broadcast. */
type Storing = { done: Promise<void> };

export type BoardSocketOptions = {
  boards: ClassBoards;
  authenticate(token: string): Promise<BoardTokenClaims | 'TOKEN_EXPIRED' | 'FORBIDDEN'>;
  isSessionCurrent(claims: BoardTokenClaims): Promise<boolean>;
  log: FastifyBaseLogger;
  roomSize?: number;
  joinTimeoutMs?: number;
  limits?: Partial<SocketLimits>;
};

export type BoardSocket = {
  /** The pen changed (PUT …/pen): every instance tells its members on that board. */
  penChanged(classId: string, pen: BoardPen): Promise<void>;
};

/**
 * The first sync of a board larger than a message goes in pieces of Yjs updates (decision 069):
 * each piece at most this much before base64 and JSON (a socket message is at most 60 KiB).
 */
const PIECE_BYTES = Math.floor((CLASS_BOARD_LIMITS.messageMaxBytes * 3) / 4) - 4 * 1024;
/**
 * Pieces are sent a window at a time, each window followed by a sync step 1 whose answer (every
 * y-protocols page answers step 1 with a step 2) says the page has read the window: at most two
 * windows are on their way, well under the room socket's 4 MB send backlog, whatever the page's link.
 */
const PIECE_WINDOW_BYTES = 1024 * 1024;
/** A page that does not answer a window's step 1 within this long gets the next one anyway. */
const PIECE_ANSWER_TIMEOUT_MS = 10_000;

const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

const canDraw = (board: LoadedBoard, local: BoardLocal) =>
  holdsPen(board.pen, { id: local.userId, teacher: local.teacher });

/**
 * A page's own awareness update, as the server passes it on: one client, the one this page uses,
 * its state an object (or null: gone) whose `user` is who the token says. Undefined when it is not that.
 */
function ownAwareness(data: Uint8Array, local: BoardLocal): { client: number; update: Uint8Array } | undefined {
  try {
    const decoder = decoding.createDecoder(data);
    if (decoding.readVarUint(decoder) !== 1) return undefined;
    const client = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const state = JSON.parse(decoding.readVarString(decoder)) as unknown;
    if (decoding.hasContent(decoder)) return undefined;
    if (local.awarenessClient !== undefined && local.awarenessClient !== client) return undefined;
    if (state !== null && (typeof state !== 'object' || Array.isArray(state))) return undefined;
    const user = { id: local.userId, name: local.name, teacher: local.teacher };
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, 1);
    encoding.writeVarUint(encoder, client);
    encoding.writeVarUint(encoder, clock);
    encoding.writeVarString(encoder, JSON.stringify(state === null ? null : { ...state, user }));
    return { client, update: encoding.toUint8Array(encoder) };
  } catch {
    return undefined;
  }
}

export function registerClassBoardSocket(transport: RoomTransport, options: BoardSocketOptions): BoardSocket {
  const { boards: store, log } = options;
  const loaded = new Map<string, LoadedBoard>();

  const hub = createRoomHub<BoardEntry, BoardRoomMessage, BoardLocal>({
    pubsub: transport.pubsub,
    presence: roomPresence<BoardEntry>(transport.pubsub, 'board'),
    log,
    heartbeatMs: transport.heartbeatMs,
    deliver(member, message: PresenceEvent<BoardEntry> | BoardRoomMessage) {
      // Who is here is the awareness's (names, cursors); seats only keep one per person.
      if (message.kind !== 'board-update' && message.kind !== 'board-awareness' && message.kind !== 'board-pen') return;
      const board = loaded.get(member.identity.roomId);
      if (!board || board.seen.has(message)) return;
      board.seen.add(message);
      run(board, () => take(board, message)).catch(() => undefined);
    },
  });

  function boardOf(classId: string): LoadedBoard {
    let board = loaded.get(classId);
    if (!board) {
      // The awareness has a document of its own: reloading the board's keeps everyone's cursors.
      const awareness = new awarenessProtocol.Awareness(new Y.Doc());
      awareness.setLocalState(null);
      board = {
        classId,
        doc: null,
        seq: 0,
        pen: { mode: 'teachers', studentIds: [] },
        awareness,
        awarenessOwners: new Map(),
        members: new Set(),
        queue: Promise.resolve(),
        seen: new WeakSet(),
        isCompacting: false,
        appending: new Set(),
        isStale: false,
      };
      loaded.set(classId, board);
    }
    return board;
  }

  /**
   * Runs `task` after the board's earlier ones. A failure (the database) is the caller's (its
   * socket closes with SERVER_ERROR); the document is read again from the database next time.
   */
  function run<T>(board: LoadedBoard, task: () => Promise<T>): Promise<T> {
    const next = board.queue.then(task);
    board.queue = next.then(
      () => undefined,
      (error: unknown) => {
        log.warn({ err: error, classId: board.classId }, 'class board: a task failed; the document is reloaded');
        forget(board);
      },
    );
    return next;
  }

  function forget(board: LoadedBoard) {
    board.doc?.destroy();
    board.doc = null;
  }

  /**
   * Waits for the appends in flight, then drops the document if one of them was refused: before
   * the document is sent to anyone (a step 1's answer), so that it holds only what is stored or
   * will be.
   */
  async function settleAppends(board: LoadedBoard) {
    await Promise.allSettled([...board.appending]);
    if (!board.isStale) return;
    board.isStale = false;
    forget(board);
  }

  async function documentOf(board: LoadedBoard): Promise<Y.Doc> {
    if (board.doc) return board.doc;
    const stored = await store.load(board.classId);
    board.doc = boardDocFrom(stored.updates);
    board.seq = stored.seq;
    board.pen = stored.pen;
    return board.doc;
  }

  /**
   * Reads what the document lacks since its last number (a bus message missed, another
   * instance's commit) and passes what was new to the document to the board's members: they
   * missed it too. (An update of this instance's own sender is in the document already: the
   * caller passes on the message's update as ever.)
   */
  async function catchUp(board: LoadedBoard, doc: Y.Doc) {
    const stored = await store.since(board.classId, board.seq);
    const before = Y.encodeStateVector(doc);
    for (const update of stored.updates) Y.applyUpdate(doc, update, SERVER_ORIGIN);
    board.seq = Math.max(board.seq, stored.seq);
    board.pen = stored.pen;
    if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null) return forget(board);
    if (stored.updates.length === 0) return;
    // What is new of the stored updates (not of the document: it may hold an append's still in
    // flight); in pieces under a message when larger (a snapshot read after a compaction).
    const missed = Y.diffUpdate(Y.mergeUpdates(stored.updates), before);
    const messages = (missed.byteLength <= PIECE_BYTES ? [missed] : encodeStateAsPieces(doc, before, PIECE_BYTES)).map(
      (piece) => syncMessage(syncProtocol.messageYjsUpdate, piece),
    );
    for (const member of welcomed(board)) for (const data of messages) member.local.send({ type: 'sync', data });
  }

  const welcomed = (board: LoadedBoard, except?: string) =>
    [...board.members].filter((member) => member.local.isWelcomed && member.id !== except);

  /** One message of the board's channel, once per instance, in the board's order. */
  async function take(board: LoadedBoard, message: BoardRoomMessage) {
    if (message.kind === 'board-pen') {
      board.pen = message.pen;
      for (const member of welcomed(board)) {
        member.local.send({ type: 'pen', pen: message.pen, canDraw: canDraw(board, member.local) });
      }
      return;
    }
    if (message.kind === 'board-awareness') {
      const update = fromBase64(message.data);
      if (message.userId) ownAwarenessClient(board, update, message.userId);
      awarenessProtocol.applyAwarenessUpdate(board.awareness, update, 'bus');
      for (const member of welcomed(board, message.from)) member.local.send({ type: 'awareness', data: message.data });
      return;
    }
    if (board.doc && message.stored > board.seq) {
      if (message.stored === board.seq + 1) {
        Y.applyUpdate(board.doc, fromBase64(message.update), SERVER_ORIGIN);
        board.seq = message.stored;
      } else {
        await catchUp(board, board.doc);
      }
    }
    const data = syncMessage(syncProtocol.messageYjsUpdate, fromBase64(message.update));
    for (const member of welcomed(board, message.from)) member.local.send({ type: 'sync', data });
  }

  /** A y-protocols sync message (its type, then the update or state vector), base64. */
  function syncMessage(type: number, payload: Uint8Array): string {
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, type);
    encoding.writeVarUint8Array(encoder, payload);
    return toBase64(encoding.toUint8Array(encoder));
  }

  /**
   * The member's update: checked and applied to the document in the board's queue, then appended
   * while the queue goes on (`done`), so that the updates of others arriving meanwhile are appended
   * with it in one transaction (decision 069); once stored, acknowledged and published in the
   * order of the numbers. Refused, the document is read again.
   */
  async function receiveUpdate(
    board: LoadedBoard,
    member: BoardMember,
    update: Uint8Array,
    ref: number | undefined,
    isRetry = false,
  ): Promise<Storing | void> {
    const { local } = member;
    const refuse = (code: BoardErrorCode) => {
      local.refused = code;
      local.send({ type: 'error', code, ...(ref === undefined ? {} : { ref }) });
    };
    const saved = () => {
      if (ref !== undefined) local.send({ type: 'saved', ref });
    };
    let doc = await documentOf(board);
    if (local.refused !== undefined) {
      // The page's updates after a refused one build on it: refused alike (the page drops its
      // copy and sends a step 1), rather than found pending and the socket closed.
      const nothing = changesNothing(doc, update);
      if (nothing === undefined) return local.close('BAD_MESSAGE');
      return nothing ? saved() : refuse(local.refused);
    }
    if (!canDraw(board, local)) {
      // Without the pen a page may only confirm what the board has (its sync step 2): checked without applying it.
      const nothing = changesNothing(doc, update);
      if (nothing === undefined) return local.close('BAD_MESSAGE');
      return nothing ? saved() : refuse('NO_PEN');
    }
    const writer = { id: local.userId, teacher: local.teacher };
    let outcome = applyBoardUpdate(doc, update, writer);
    if (!outcome.ok && outcome.problem === 'PENDING') {
      // It may build on an update this instance has not heard of yet: once more on the stored board.
      forget(board);
      doc = await documentOf(board);
      outcome = applyBoardUpdate(doc, update, writer);
    }
    if (!outcome.ok) {
      if (outcome.corrupted) forget(board);
      if (outcome.problem === 'PAGES_FULL') return refuse('PAGES_FULL');
      log.info({ classId: board.classId, problem: outcome.problem }, 'class board: an update was refused');
      return local.close('BAD_MESSAGE');
    }
    if (outcome.change === 'none') return saved();
    if (outcome.change === 'pages' && !local.teacher) {
      forget(board);
      return refuse('NOT_A_TEACHER');
    }
    const { diff, change } = outcome;
    const append = () => {
      const appending = store.append(board.classId, writer, diff, change).then(
        (appended) => {
          if ('refused' in appended) board.isStale = true;
          return appended;
        },
        (error: unknown) => {
          board.isStale = true;
          throw error;
        },
      );
      board.appending.add(appending);
      const done = () => board.appending.delete(appending);
      appending.then(done, done);
      return appending;
    };
    // Appended now (in the queue's order), stored, acknowledged and published in the order of the numbers.
    const appending = append();
    return {
      done: (async () => {
        let appended = await appending;
        if ('refused' in appended && appended.refused === 'BOARD_FULL') {
          // Deleted strokes take room until a compaction: one, then once more.
          await store.compact(board.classId);
          appended = await append();
        }
        if ('refused' in appended && appended.refused === 'CLIENT_TAKEN' && !isRetry) {
          // Another person's client id: the page's step 2 may hold their strokes, stored by another
          // instance and not heard of here yet. Once more on the board read again from the database,
          // where what is new to it no longer holds them; refused if it still does.
          const again = await run(board, async () => {
            forget(board);
            return receiveUpdate(board, member, update, ref, true);
          });
          if (again) await again.done;
          return;
        }
        if ('refused' in appended) {
          const { refused } = appended;
          return run(board, async () => {
            forget(board);
            if (refused === 'GONE') return local.close('FORBIDDEN');
            return refuse(refused);
          });
        }
        saved();
        // Published as the batch answers, in the order of the numbers; this instance takes it in as
        // every other does, from the board's channel (take), in its queue.
        const published = hub.broadcast(board.classId, {
          kind: 'board-update',
          stored: appended.seq,
          update: toBase64(diff),
          from: member.id,
        });
        if (appended.compactDue) compactSoon(board);
        await published;
      })().catch(async (error: unknown) => {
        // The database: the document is read again, the socket closes (SERVER_ERROR).
        await run(board, async () => forget(board));
        throw error;
      }),
    };
  }

  function compactSoon(board: LoadedBoard) {
    if (board.isCompacting) return;
    board.isCompacting = true;
    store
      .compact(board.classId)
      .catch((error: unknown) => log.warn({ err: error, classId: board.classId }, 'class board: compaction failed'))
      .finally(() => (board.isCompacting = false));
  }

  /** A sync message of the member's: step 1 answered with what it lacks, step 2 and updates checked. */
  async function receiveSync(
    board: LoadedBoard,
    member: BoardMember,
    data: Uint8Array,
    ref: number | undefined,
  ): Promise<Storing | void> {
    let type: number;
    let payload: Uint8Array;
    try {
      const decoder = decoding.createDecoder(data);
      type = decoding.readVarUint(decoder);
      payload = decoding.readVarUint8Array(decoder);
    } catch {
      return member.local.close('BAD_MESSAGE');
    }
    if (type === syncProtocol.messageYjsSyncStep1) {
      const { local } = member;
      // The page starts again from the board: its earlier refusal is behind it.
      local.refused = undefined;
      // One first sync at a time per page: a step 1 while one is on its way is answered after it
      // (the last of them only), so that a page cannot have the board encoded again and again.
      if (local.isSyncing) {
        local.nextStep1 = payload;
        return;
      }
      return answerStep1(board, local, payload);
    }
    if (type !== syncProtocol.messageYjsSyncStep2 && type !== syncProtocol.messageYjsUpdate) {
      return member.local.close('BAD_MESSAGE');
    }
    return receiveUpdate(board, member, payload, ref);
  }

  /**
   * The answer to a page's step 1, in the board's queue: what it lacks, in one step 2 or, larger
   * than a message, in pieces sent outside the queue (nobody's strokes wait for them; later
   * updates reach the page as they come). The page's next step 1 waiting meanwhile is answered
   * once the pieces have gone.
   */
  async function answerStep1(board: LoadedBoard, local: BoardLocal, stateVector: Uint8Array) {
    await settleAppends(board);
    const doc = await documentOf(board);
    let pieces: Uint8Array[];
    try {
      pieces = encodeStateAsPieces(doc, stateVector, PIECE_BYTES);
    } catch {
      return local.close('BAD_MESSAGE');
    }
    // Within one message: the step 2 Yjs makes (the same document as the pieces).
    if (pieces.length <= 2) {
      const missing = Y.encodeStateAsUpdate(doc, stateVector);
      return local.send({ type: 'sync', data: syncMessage(syncProtocol.messageYjsSyncStep2, missing) });
    }
    const messages = pieces.map((piece, index) =>
      syncMessage(
        index === pieces.length - 1 ? syncProtocol.messageYjsSyncStep2 : syncProtocol.messageYjsUpdate,
        piece,
      ),
    );
    local.isSyncing = true;
    void sendPieces(board, local, messages).finally(() => {
      local.isSyncing = false;
      const next = local.nextStep1;
      local.nextStep1 = undefined;
      if (next && !local.isLeaving) {
        run(board, () => answerStep1(board, local, next)).catch(() => local.close('SERVER_ERROR'));
      }
    });
  }

  /** A first sync's pieces, a window at a time, each window's end marked by a step 1 the page answers. */
  async function sendPieces(board: LoadedBoard, local: BoardLocal, pieces: string[]) {
    const answered: Promise<void>[] = [];
    let windowBytes = 0;
    for (const data of pieces) {
      if (local.isLeaving) return;
      local.send({ type: 'sync', data });
      windowBytes += data.length;
      if (windowBytes < PIECE_WINDOW_BYTES) continue;
      windowBytes = 0;
      answered.push(
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, PIECE_ANSWER_TIMEOUT_MS);
          timer.unref();
          local.answers.push(() => {
            clearTimeout(timer);
            resolve();
          });
        }),
      );
      const stateVector = board.doc ? Y.encodeStateVector(board.doc) : new Uint8Array([0]);
      local.send({ type: 'sync', data: syncMessage(syncProtocol.messageYjsSyncStep1, stateVector) });
      // The window before the last one read: at most two windows on their way.
      if (answered.length >= 2) await answered[answered.length - 2];
    }
    // The first sync is over once the page has read it all (or its answers timed out).
    await Promise.all(answered);
  }

  /**
   * Takes note of whose an awareness update's client id is (`userId`), or, its state gone, that it
   * is nobody's. False when it is someone else's (a page's own state under another's client id).
   */
  function ownAwarenessClient(board: LoadedBoard, update: Uint8Array, userId: string): boolean {
    const decoder = decoding.createDecoder(update);
    decoding.readVarUint(decoder);
    const client = decoding.readVarUint(decoder);
    decoding.readVarUint(decoder);
    const owner = board.awarenessOwners.get(client);
    if (owner !== undefined && owner !== userId) return false;
    if (decoding.readVarString(decoder) === 'null') board.awarenessOwners.delete(client);
    else board.awarenessOwners.set(client, userId);
    return true;
  }

  async function receiveAwareness(board: LoadedBoard, member: BoardMember, data: Uint8Array) {
    if (data.byteLength > CLASS_BOARD_LIMITS.awarenessMaxBytes) return member.local.close('TOO_LARGE');
    const own = ownAwareness(data, member.local);
    // Not one page's own state, or under a client id another person's page uses.
    if (!own || !ownAwarenessClient(board, own.update, member.local.userId)) return member.local.close('BAD_MESSAGE');
    member.local.awarenessClient = own.client;
    awarenessProtocol.applyAwarenessUpdate(board.awareness, own.update, member.id);
    await hub.broadcast(board.classId, {
      kind: 'board-awareness',
      data: toBase64(own.update),
      from: member.id,
      userId: member.local.userId,
    });
  }

  /** The member has gone: its cursor goes for everyone; the board leaves memory once nobody is on it here. */
  async function leaveBoard(board: LoadedBoard, member: BoardMember) {
    board.members.delete(member);
    const client = member.local.awarenessClient;
    if (client !== undefined && board.awareness.states.has(client)) {
      awarenessProtocol.removeAwarenessStates(board.awareness, [client], member.id);
      board.awarenessOwners.delete(client);
      const gone = awarenessProtocol.encodeAwarenessUpdate(board.awareness, [client]);
      await hub.broadcast(board.classId, {
        kind: 'board-awareness',
        data: toBase64(gone),
        from: member.id,
        userId: member.local.userId,
      });
    }
    if (board.members.size === 0 && loaded.get(board.classId) === board) {
      loaded.delete(board.classId);
      forget(board);
      board.awareness.destroy();
    }
  }

  /**
   * Someone removed from the class (or its class deleted) is closed with FORBIDDEN: every few
   * seconds, one query per board this instance holds people on. The class's routes are not told
   * of the board, and a removal on another instance would not be either.
   */
  let isCheckingMembers = false;
  const membershipTimer = setInterval(() => {
    if (isCheckingMembers) return;
    isCheckingMembers = true;
    checkMembers()
      .catch((error: unknown) => log.warn({ err: error }, 'class board: the membership check failed'))
      .finally(() => (isCheckingMembers = false));
  }, store.limits.membershipCheckMs);
  membershipTimer.unref();

  async function checkMembers() {
    for (const board of [...loaded.values()]) {
      const members = [...board.members].filter((member) => !member.local.isLeaving);
      if (members.length === 0) continue;
      const people = members.map((member) => ({ id: member.local.userId, teacher: member.local.teacher }));
      const still = await store.stillOfClass(board.classId, people);
      for (const member of members) {
        if (still.has(member.local.userId)) continue;
        log.info({ classId: board.classId }, 'class board: a member was removed from the class; closed');
        member.local.close('FORBIDDEN');
      }
    }
  }

  transport.route<BoardTokenClaims, BoardCloseReason>({
    path: CLASS_BOARD_SOCKET_PATH,
    // The room token in the address is the credential, checked before the upgrade (decision 065).
    config: { policy: { caller: 'board-token', touches: ['class-board'] }, endpoint: classBoardSocket },
    upgradeRequired: 'This address is for class board sockets only',
    closeCodes: CLASS_BOARD_CLOSE_CODES,
    closeMessages: BOARD_CLOSE_MESSAGES,
    authenticate: options.authenticate,
    isSessionCurrent: options.isSessionCurrent,
    limits: socketLimits(CLASS_BOARD_LIMITS, options.limits),
    joinTimeoutMs: options.joinTimeoutMs ?? CLASS_BOARD_LIMITS.joinTimeoutMs,
    open: (socket, claims) => openBoardSocket(socket, claims),
    shutDown: () => {
      clearInterval(membershipTimer);
      return hub.close();
    },
  });

  function openBoardSocket(socket: RoomSocket<BoardCloseReason>, claims: BoardTokenClaims) {
    const classId = claims.room;
    // Only a teacher teaches, whatever a token says; the store checks the class at every update.
    const local: BoardLocal = {
      send: (message) => socket.send(message),
      close: (reason) => socket.close(reason),
      userId: claims.sub,
      name: claims.name,
      teacher: claims.teacher && claims.role === 'teacher',
      isWelcomed: false,
      answers: [],
      isLeaving: false,
      isSyncing: false,
    };
    let member: BoardMember | undefined;
    let board: LoadedBoard | undefined;

    async function handleJoin(parsed: unknown) {
      const join = parsed as { type?: unknown; protocolVersion?: unknown } | null;
      if (join?.type !== 'join') return socket.close('BAD_MESSAGE');
      if (join.protocolVersion !== CLASS_BOARD_PROTOCOL_VERSION) return socket.close('CLIENT_TOO_OLD');
      // A room token lasts minutes and opens any number of sockets: someone removed from the class
      // since it was issued gets nothing of the board (the sweep would close them only later).
      const person = { id: claims.sub, teacher: local.teacher };
      if (!(await store.stillOfClass(classId, [person])).has(person.id)) return socket.close('FORBIDDEN');
      const joining = hub.admit(socket, { userId: claims.sub, roomId: classId, host: local.teacher }, local);
      member = joining;
      const here = boardOf(classId);
      board = here;
      here.members.add(joining);
      const seat = await joining.join({
        data: { name: claims.name },
        limit: options.roomSize ?? CLASS_BOARD_LIMITS.roomSize,
        // In the board's queue: every update taken in before it is in the state it sends, every later one follows it.
        seated: ({ entry }) =>
          void run(here, async () => {
            // A failure here is logged by the queue; the page is closed and reconnects.
            const doc = await documentOf(here).catch((error: unknown) => {
              socket.close('SERVER_ERROR');
              throw error;
            });
            if (joining.hasLeft) return;
            socket.send({
              type: 'welcome',
              seatId: entry.id,
              you: { id: claims.sub, name: claims.name, teacher: local.teacher, canDraw: canDraw(here, local) },
              pen: here.pen,
            } satisfies BoardServerMessage);
            socket.send({
              type: 'sync',
              data: syncMessage(syncProtocol.messageYjsSyncStep1, Y.encodeStateVector(doc)),
            });
            const others = [...here.awareness.getStates().keys()];
            if (others.length > 0) {
              const states = awarenessProtocol.encodeAwarenessUpdate(here.awareness, others);
              socket.send({ type: 'awareness', data: toBase64(states) });
            }
            local.isWelcomed = true;
            socket.joined();
          }),
      });
      if (seat !== 'joined') return socket.close(SEAT_REFUSALS[seat]);
    }

    async function handleMessage(parsed: unknown) {
      const message = boardClientMessageSchema.safeParse(parsed);
      if (!message.success || !board || !member) return socket.close('BAD_MESSAGE');
      const current = message.data;
      if (current.type === 'leave') return socket.close('LEFT');
      const data = fromBase64(current.data);
      // A sync step 2 answers the oldest step 1 sent after a window of pieces: the page has read that far.
      if (current.type === 'sync' && data[0] === syncProtocol.messageYjsSyncStep2) local.answers.shift()?.();
      const [here, who] = [board, member];
      // In the board's queue, then its append outside it, awaited: this socket's next message waits
      // for both (the layer reads one at a time), so a page has one update in flight at a time.
      const storing = await run(here, () =>
        current.type === 'sync' ? receiveSync(here, who, data, current.ref) : receiveAwareness(here, who, data),
      );
      if (storing) await storing.done;
    }

    return {
      message: (parsed: unknown) => (member ? handleMessage(parsed) : handleJoin(parsed)),
      closed: () => {
        local.isLeaving = true;
        for (const answer of local.answers.splice(0)) answer();
        const [here, who] = [board, member];
        if (!here || !who) return;
        void who
          .leave()
          .then(() => run(here, () => leaveBoard(here, who)))
          .catch(() => undefined);
      },
    };
  }

  return {
    penChanged: (classId, pen) => hub.broadcast(classId, { kind: 'board-pen', pen }),
  };
}
