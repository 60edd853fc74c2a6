import { ROOM_CLOSE_CODES, closeReasonIn } from '#shared/rooms';
import { ApiError, isPassingFailure, type FailureCode } from './api.ts';

/**
 * A page's socket to a room protocol of the room transport (decision 065): it mints a token for
 * each attempt, opens the socket, says the protocol's hello (its join) first, hands over each
 * message parsed, and, when the socket closes for a reason that allows it (a lost connection, a
 * restart, an expired token), tries again after 0.5, 1, 2, 4, then every 5 s (±20 %), at once when
 * the browser comes back online. Once the protocol says it has joined, the back-off starts over and
 * messages queued meanwhile are sent; a protocol that resumes gives the seat's id back on
 * reconnecting (`?resume=`). Framework-free; its owner (meetings' MeetingSession) turns its
 * callbacks into a snapshot for the screen.
 */

/** Why the page is waiting to (re)connect: a close's reason, or the network's state. */
export type RetryNote<Reason extends string> = Reason | 'UNREACHABLE' | 'CONNECTION_LOST' | 'OFFLINE';

/** Why the socket gave up: the server's close (its reason, when the protocol names its code), or the token's refusal. */
export type RoomSocketEnd<Reason extends string> =
  { kind: 'closed'; code: number; reason: Reason | undefined } | { kind: 'refused'; error: ApiError };

export type RoomSocketOptions<Out extends object, In, Reason extends string> = {
  /** The socket's address for this token; `resumeId`: the seat to take back. */
  url(token: string, resumeId: string | undefined): string;
  /**
   * A token for this socket; `attempt`: the retries since the last join (0: the page's first
   * socket). A final ApiError refusal ends the socket.
   */
  token(context: { attempt: number; hasJoined: boolean }): Promise<string>;
  /** The protocol's first message on every socket (its join). */
  hello(): Out;
  /** The protocol's close codes: a code names its reason. */
  closeCodes: Record<Reason, number>;
  /** Whether a close with this code is followed by another attempt. */
  reconnects(code: number): boolean;
  onMessage(message: In): void;
  /** The socket closed (before the page tries again or gives up): drop what lived on it. */
  onClose?(code: number): void;
  /** Waiting for the next attempt, and why. */
  onRetry(note: RetryNote<Reason>): void;
  onEnd(end: RoomSocketEnd<Reason>): void;
  /** The browser went online or offline. */
  onNetwork?(): void;
  /** Tests: ws's WebSocket (the browser's API), a network of their own, no jitter. */
  createSocket?: (url: string) => WebSocket;
  network?: RoomNetwork;
  delayMs?: (attempt: number) => number;
};

/** Whether the browser says it is online, and its changes. */
export type RoomNetwork = { isOnline(): boolean; watch(onChange: (isOnline: boolean) => void): () => void };

/** A WebSocket's OPEN. */
const OPEN = 1;
/** Messages queued while (re)connecting, at most; older ones give way. */
const MAX_QUEUED = 100;

/**
 * Whether a failed token request ends the socket: only a refusal retrying cannot change (bad
 * room, session over, not allowed, gone). No connection, time-outs, throttling and a proxy's
 * page during a deploy are retried.
 */
export const isFinalTokenRefusal = (code: FailureCode) => !isPassingFailure(code);

/**
 * How long to wait before reconnecting attempt `attempt` (0-based): 0.5, 1, 2, 4 s, then
 * every 5 s, with ±20 % jitter so a restarted server is not met by everyone at once.
 * Kept short: a restart takes seconds, and while the socket is down nobody can rejoin.
 */
export function reconnectDelayMs(attempt: number, random = Math.random): number {
  const base = Math.min(5_000, 500 * 2 ** attempt);
  return Math.round(base * (0.8 + 0.4 * random()));
}

const browserNetwork: RoomNetwork = {
  isOnline: () => navigator.onLine,
  watch(onChange) {
    const online = () => onChange(true);
    const offline = () => onChange(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  },
};

export class RoomSocket<Out extends object, In, Reason extends string> {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private joinedOnce = false;
  private isJoined = false;
  private isStarted = false;
  private isEnded = false;
  private resumeId: string | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private stopWatching: (() => void) | undefined;
  private queue: Out[] = [];
  private readonly network: RoomNetwork;

  constructor(private readonly options: RoomSocketOptions<Out, In, Reason>) {
    this.network = options.network ?? browserNetwork;
  }

  /** Whether the protocol has joined on some socket of this page (a reconnect is a rejoin). */
  get hasJoined() {
    return this.joinedOnce;
  }

  get isOpen() {
    return this.socket?.readyState === OPEN;
  }

  start() {
    if (this.isStarted || this.isEnded) return;
    this.isStarted = true;
    this.stopWatching = this.network.watch((isOnline) => {
      this.options.onNetwork?.();
      // Back online: try now rather than at the end of the back-off.
      if (isOnline && this.retryTimer !== undefined) {
        clearTimeout(this.retryTimer);
        void this.connect();
      }
    });
    void this.connect();
  }

  /** The protocol joined on this socket: the back-off starts over, and queued messages go. */
  markJoined() {
    this.attempt = 0;
    this.joinedOnce = true;
    this.isJoined = true;
    const queued = this.queue;
    this.queue = [];
    for (const message of queued) this.send(message);
  }

  /** The seat to take back on the next sockets (a protocol that resumes); undefined: a new seat each time. */
  resumeAs(seatId: string | undefined) {
    this.resumeId = seatId;
  }

  /**
   * Sends now when the socket is open; otherwise false, or, with `queue`, true and it is sent
   * once the protocol has joined again.
   */
  send(message: Out, options: { queue?: boolean } = {}): boolean {
    if (this.isEnded) return false;
    const canSendNow = this.isOpen && (!options.queue || this.isJoined);
    if (canSendNow) {
      this.socket!.send(JSON.stringify(message));
      return true;
    }
    if (!options.queue) return false;
    this.queue.push(message);
    if (this.queue.length > MAX_QUEUED) this.queue.shift();
    return true;
  }

  /** Drops the current socket as if the connection were lost: the page reconnects. */
  reconnect() {
    this.socket?.close();
  }

  /** Ends for good: no more attempts; the open socket is closed with `code` (1000 by default). */
  close(code: number = ROOM_CLOSE_CODES.LEFT) {
    if (this.isEnded) return;
    this.isEnded = true;
    this.finishUp();
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= OPEN) socket.close(code);
  }

  private finishUp() {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.stopWatching?.();
    this.queue = [];
  }

  private async connect() {
    this.retryTimer = undefined;
    if (this.isEnded) return;
    let token: string;
    try {
      token = await this.options.token({ attempt: this.attempt, hasJoined: this.joinedOnce });
    } catch (error) {
      if (this.isEnded) return;
      if (error instanceof ApiError && isFinalTokenRefusal(error.code)) return this.end({ kind: 'refused', error });
      return this.retryLater('UNREACHABLE');
    }
    if (this.isEnded) return;
    const url = this.options.url(token, this.resumeId);
    const socket = this.options.createSocket ? this.options.createSocket(url) : new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      if (socket === this.socket) socket.send(JSON.stringify(this.options.hello()));
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket || typeof event.data !== 'string') return;
      try {
        this.options.onMessage(JSON.parse(event.data) as In);
      } catch (error) {
        console.warn('A room message could not be handled', error);
      }
    };
    socket.onclose = (event) => {
      if (socket === this.socket) this.handleClose(event.code);
    };
  }

  private handleClose(code: number) {
    this.socket = null;
    this.isJoined = false;
    this.options.onClose?.(code);
    if (this.isEnded) return;
    const reason = closeReasonIn(this.options.closeCodes, code);
    if (this.options.reconnects(code)) return this.retryLater(reason ?? 'CONNECTION_LOST');
    this.end({ kind: 'closed', code, reason });
  }

  private retryLater(note: RetryNote<Reason>) {
    clearTimeout(this.retryTimer);
    const delay = (this.options.delayMs ?? reconnectDelayMs)(this.attempt);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.attempt += 1;
    this.options.onRetry(this.network.isOnline() ? note : 'OFFLINE');
  }

  private end(end: RoomSocketEnd<Reason>) {
    this.isEnded = true;
    this.finishUp();
    this.options.onEnd(end);
  }
}
