import {
  LIVE_GAME_CLOSE_CODES,
  LIVE_GAME_PROTOCOL_VERSION,
  LIVE_GAME_SOCKET_PATH,
  type LiveCloseReason,
} from '#shared/live-game-basics';
import type { LiveAnswerMessage, LiveClientMessage, LiveHostCommandInput, LiveServerMessage } from '#shared/live-games';
import { ROOM_RECONNECT_REASONS, closeReasonIn, roomSocketQuery } from '#shared/rooms';
import { RoomSocket, type RetryNote, type RoomSocketEnd } from '../../lib/room-socket.ts';
import { fetchLiveTicket } from './live-joining-api.ts';
import { applyLiveMessage, emptyLiveState, type LiveState } from './live-state.ts';

/**
 * One page's place in one live game, host or player (decision 066): the game's socket (a room
 * socket of the room transport, lib/room-socket.ts, decision 065) and the game as its messages
 * tell it (live-state.ts). A player's seat is taken back after a lost connection or a reload
 * within a minute (`?resume=`), so a locked phone is the same player; their answer waits in the
 * socket's queue while it reconnects. Framework-free: the screens read it through `subscribe` and
 * `getSnapshot` (useSyncExternalStore).
 */

export type LiveConnection = 'connecting' | 'live' | 'reconnecting' | 'ended';

export type LiveSnapshot = LiveState & {
  connection: LiveConnection;
  /** Why the page is waiting to reconnect. */
  retryNote: RetryNote<LiveCloseReason> | null;
  /** Why the socket gave up for good. */
  end: RoomSocketEnd<LiveCloseReason> | null;
};

/** A close the page comes back from by itself: a lost connection, a restart, an expired token. */
export function reconnectsAfter(code: number): boolean {
  const reason = closeReasonIn(LIVE_GAME_CLOSE_CODES, code);
  return reason === undefined || (ROOM_RECONNECT_REASONS as readonly string[]).includes(reason);
}

const socketUrl = (token: string, resumeId: string | undefined) => {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${LIVE_GAME_SOCKET_PATH}${roomSocketQuery(token, resumeId)}`;
};

/** Where a page keeps its seat across a reload (this tab only). */
const seatKey = (gameId: string) => `studyhall:live-seat:${gameId}`;

function readSeat(gameId: string): string | undefined {
  try {
    return window.sessionStorage.getItem(seatKey(gameId)) ?? undefined;
  } catch {
    return undefined;
  }
}

function keepSeat(gameId: string, seatId: string) {
  try {
    window.sessionStorage.setItem(seatKey(gameId), seatId);
  } catch {
    // Private mode without storage: a reload is then a new seat, the same player all the same.
  }
}

export class LiveSession {
  private state: LiveState = emptyLiveState;
  private connection: LiveConnection = 'connecting';
  private retryNote: RetryNote<LiveCloseReason> | null = null;
  private end: RoomSocketEnd<LiveCloseReason> | null = null;
  private snapshot: LiveSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly socket: RoomSocket<
    LiveClientMessage | { type: 'join'; protocolVersion: number },
    LiveServerMessage,
    LiveCloseReason
  >;
  private disposeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly gameId: string) {
    this.socket = new RoomSocket({
      url: socketUrl,
      token: async () => (await fetchLiveTicket(gameId)).token,
      hello: () => ({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION }),
      closeCodes: LIVE_GAME_CLOSE_CODES,
      reconnects: reconnectsAfter,
      onMessage: (message) => this.handle(message),
      onClose: () => {
        if (this.connection === 'live') this.connection = 'reconnecting';
        this.emit();
      },
      onRetry: (note) => {
        this.connection = this.socket.hasJoined ? 'reconnecting' : 'connecting';
        this.retryNote = note;
        this.emit();
      },
      onEnd: (end) => {
        this.connection = 'ended';
        this.end = end;
        this.emit();
      },
      onNetwork: () => this.emit(),
    });
    this.socket.resumeAs(readSeat(gameId));
    this.snapshot = this.buildSnapshot();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  start() {
    clearTimeout(this.disposeTimer);
    this.socket.start();
  }

  /** The screen went away: close, unless it comes back at once (React's double effects in development). */
  disposeSoon() {
    this.disposeTimer = setTimeout(() => this.socket.close(), 0);
  }

  /** A host's command; false when the socket is down (the host presses again). */
  command(command: LiveHostCommandInput): boolean {
    return this.socket.send(command as LiveClientMessage);
  }

  /** A player's answer: queued while reconnecting, sent once back in the game (the server times it on arrival). */
  answer(questionId: string, value: LiveAnswerMessage['value']) {
    this.socket.send({ type: 'answer', questionId, value }, { queue: true });
  }

  /** Leaves for good (the page's "Leave"). */
  leave() {
    this.socket.send({ type: 'leave' });
    this.socket.close();
  }

  private handle(message: LiveServerMessage) {
    this.state = applyLiveMessage(this.state, message);
    if (message.type === 'seated') {
      this.socket.resumeAs(message.seatId);
      keepSeat(this.gameId, message.seatId);
    }
    if (message.type === 'host-welcome' || message.type === 'player-welcome') {
      this.connection = 'live';
      this.retryNote = null;
      this.socket.markJoined();
    }
    this.emit();
  }

  private buildSnapshot(): LiveSnapshot {
    return { ...this.state, connection: this.connection, retryNote: this.retryNote, end: this.end };
  }

  private emit() {
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }
}
