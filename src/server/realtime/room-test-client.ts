import { WebSocket } from 'ws';
import { patience } from '../testing/patience.ts';
import { toBuffer } from './room-socket.ts';

/**
 * Tests only: a person on a room protocol's socket (decision 065) over a real WebSocket, as a
 * browser connects: what it received, in order, and waits for a message or the close.
 */

export type Closed = { code: number; reason: string };

/** How long a message takes to come on a quiet machine; waits allow patience(WAIT_MS). */
const WAIT_MS = 5_000;

type Typed = { type: string };

/** Opens a socket to `baseUrl` (http://host:port) + `path` with a room token (or none) and extra query. */
export async function openRoomSocket(baseUrl: string, path: string, token: string | undefined, extraQuery = '') {
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}${extraQuery}`;
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}${query}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

export class RoomTestClient<Message extends Typed> {
  /** Received and not yet taken by waitFor(), in order. */
  readonly inbox: Message[] = [];
  /** Everything received, in order (taken or not). */
  readonly history: Message[] = [];
  readonly closed: Promise<Closed>;
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(toBuffer(data).toString('utf8')) as Message;
      this.inbox.push(message);
      this.history.push(message);
      this.notify();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.notify();
        resolve({ code, reason: reason.toString() });
      });
    });
    // Refusals surface as closes; errors (a failed upgrade) are read from `closed` too.
    socket.on('error', () => undefined);
  }

  send(message: object | string | Buffer) {
    this.socket.send(typeof message === 'object' && !Buffer.isBuffer(message) ? JSON.stringify(message) : message);
  }

  /** Takes the first message of this type (and matching `where`) from the inbox, waiting for it if needed. */
  async waitFor<Type extends Message['type']>(
    type: Type,
    where: (message: Extract<Message, { type: Type }>) => boolean = () => true,
    timeoutMs = WAIT_MS,
  ): Promise<Extract<Message, { type: Type }>> {
    const limitMs = patience(timeoutMs);
    const deadline = Date.now() + limitMs;
    for (;;) {
      const index = this.inbox.findIndex(
        (message) => message.type === type && where(message as Extract<Message, { type: Type }>),
      );
      if (index >= 0) return this.inbox.splice(index, 1)[0] as Extract<Message, { type: Type }>;
      if (this.socket.readyState === WebSocket.CLOSED) {
        throw new Error(`socket closed while waiting for ${type}; inbox: ${JSON.stringify(this.inbox)}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no ${type} within ${limitMs} ms; inbox: ${JSON.stringify(this.inbox)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages of a type still in the inbox (not taken). */
  received<Type extends Message['type']>(type: Type): Extract<Message, { type: Type }>[] {
    return this.inbox.filter((message): message is Extract<Message, { type: Type }> => message.type === type);
  }

  /** The close, waited for up to patience(quietMs). */
  async closedWithin(quietMs = WAIT_MS): Promise<Closed> {
    const ms = patience(quietMs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not closed within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close() {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close();
    }
  }

  /** Cuts the connection without a closing handshake (a phone that lost its network). */
  drop() {
    this.socket.terminate();
  }

  private notify() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
