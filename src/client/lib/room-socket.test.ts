import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket as ServerSide } from 'ws';
import { ROOM_CLOSE_CODES, type RoomCloseReason } from '#shared/rooms';
import { ApiError } from './api.ts';
import {
  isFinalTokenRefusal,
  reconnectDelayMs,
  RoomSocket,
  type RetryNote,
  type RoomNetwork,
  type RoomSocketEnd,
} from './room-socket.ts';

/**
 * The page's room socket against a real WebSocket server (ws, in this process): tokens per
 * attempt, the hello first, reconnecting with its back-off, resuming, the send queue, the end.
 */

type Hello = { type: 'hello'; n: number };
type Out = Hello | { type: 'say'; text: string };
type In = { type: string; [key: string]: unknown };

/** A server that records each connection's address and messages, and lets the test close it. */
function startServer() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  const connections: { url: string; socket: ServerSide; received: Out[] }[] = [];
  server.on('connection', (socket, request) => {
    const connection = { url: request.url ?? '', socket, received: [] as Out[] };
    connections.push(connection);
    socket.on('message', (data: Buffer) => connection.received.push(JSON.parse(data.toString('utf8')) as Out));
  });
  const ready = new Promise<number>((resolve) =>
    server.on('listening', () => resolve((server.address() as { port: number }).port)),
  );
  return { server, connections, ready };
}

/** The browser's online state as the test sets it. */
function testNetwork() {
  let isOnline = true;
  let listener: ((isOnline: boolean) => void) | undefined;
  const network: RoomNetwork = {
    isOnline: () => isOnline,
    watch(onChange) {
      listener = onChange;
      return () => (listener = undefined);
    },
  };
  return {
    network,
    set(online: boolean) {
      isOnline = online;
      listener?.(online);
    },
    isWatched: () => listener !== undefined,
  };
}

describe('RoomSocket', () => {
  let started: ReturnType<typeof startServer>;
  let port: number;
  const sockets: RoomSocket<Out, In, RoomCloseReason>[] = [];

  beforeEach(async () => {
    // ApiError words its code in the active locale: English, the code's own.
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    started = startServer();
    port = await started.ready;
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    for (const client of started.server.clients) client.terminate();
    await new Promise((resolve) => started.server.close(resolve));
  });

  /** A room socket to the test server, recording what it is told. */
  function open(
    options: {
      token?: (context: { attempt: number; hasJoined: boolean }) => Promise<string>;
      delayMs?: number;
      network?: RoomNetwork;
    } = {},
  ) {
    const events = {
      messages: [] as In[],
      closes: [] as number[],
      retries: [] as RetryNote<RoomCloseReason>[],
      ends: [] as RoomSocketEnd<RoomCloseReason>[],
      tokens: [] as { attempt: number; hasJoined: boolean }[],
    };
    let hellos = 0;
    const socket = new RoomSocket<Out, In, RoomCloseReason>({
      url: (token, resumeId) =>
        `ws://127.0.0.1:${port}/room?token=${token}${resumeId === undefined ? '' : `&resume=${resumeId}`}`,
      token: async (context) => {
        events.tokens.push(context);
        return options.token ? options.token(context) : `t${events.tokens.length}`;
      },
      hello: () => ({ type: 'hello', n: ++hellos }),
      closeCodes: ROOM_CLOSE_CODES,
      reconnects: (code) => code === 1006 || code === ROOM_CLOSE_CODES.GOING_AWAY,
      onMessage: (message) => events.messages.push(message),
      onClose: (code) => events.closes.push(code),
      onRetry: (note) => events.retries.push(note),
      onEnd: (end) => events.ends.push(end),
      createSocket: (url) => new NodeWebSocket(url) as unknown as WebSocket,
      network: options.network ?? testNetwork().network,
      delayMs: () => options.delayMs ?? 10,
    });
    sockets.push(socket);
    socket.start();
    return { socket, events };
  }

  const connectionCount = (count: number) => expect.poll(() => started.connections.length).toBe(count);
  const receivedOn = (index: number) => started.connections[index]!.received;

  it('mints a token, says hello first and hands over each message parsed', async () => {
    const { socket, events } = open();
    await connectionCount(1);
    await expect.poll(() => receivedOn(0)).toEqual([{ type: 'hello', n: 1 }]);
    expect(started.connections[0]!.url).toBe('/room?token=t1');
    expect(events.tokens).toEqual([{ attempt: 0, hasJoined: false }]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    started.connections[0]!.socket.send(JSON.stringify({ type: 'welcome', you: 'p-1' }));
    started.connections[0]!.socket.send('not json'); // dropped with a warning, the socket stays
    started.connections[0]!.socket.send(JSON.stringify({ type: 'news' }));
    await expect.poll(() => events.messages).toEqual([{ type: 'welcome', you: 'p-1' }, { type: 'news' }]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    expect(socket.isOpen).toBe(true);
  });

  it('reconnects after a lost connection with a fresh token, and resumes its seat once told it', async () => {
    const { socket, events } = open();
    await connectionCount(1);
    await expect.poll(() => socket.isOpen).toBe(true);
    socket.markJoined();
    socket.resumeAs('seat-of-ada-1');
    started.connections[0]!.socket.terminate(); // the network dropped: 1006 on the page

    await connectionCount(2);
    expect(events.closes).toEqual([1006]);
    expect(events.retries).toEqual(['CONNECTION_LOST']);
    expect(started.connections[1]!.url).toBe('/room?token=t2&resume=seat-of-ada-1');
    expect(events.tokens[1]).toEqual({ attempt: 1, hasJoined: true }); // the first retry since the join
    await expect.poll(() => receivedOn(1)).toEqual([{ type: 'hello', n: 2 }]);

    // A restart (GOING_AWAY) before the join counts attempts up: the back-off grows.
    started.connections[1]!.socket.close(ROOM_CLOSE_CODES.GOING_AWAY);
    await connectionCount(3);
    expect(events.retries).toEqual(['CONNECTION_LOST', 'GOING_AWAY']);
    expect(events.tokens[2]).toEqual({ attempt: 2, hasJoined: true });
    expect(events.ends).toEqual([]);
  });

  it('ends on a close that reconnecting cannot help, naming its reason, and tries no more', async () => {
    const { socket, events } = open();
    await connectionCount(1);
    started.connections[0]!.socket.close(ROOM_CLOSE_CODES.REPLACED);
    await expect
      .poll(() => events.ends)
      .toEqual([{ kind: 'closed', code: ROOM_CLOSE_CODES.REPLACED, reason: 'REPLACED' }]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started.connections).toHaveLength(1);
    expect(socket.send({ type: 'say', text: 'anyone?' })).toBe(false);
  });

  it('retries a token it could not mint, and ends on a refusal retrying cannot change', async () => {
    let attempts = 0;
    const { events } = open({
      token: async () => {
        attempts += 1;
        if (attempts === 1) throw new ApiError('UNREACHABLE');
        throw new ApiError('FORBIDDEN');
      },
    });
    await expect.poll(() => events.ends.map((end) => end.kind)).toEqual(['refused']);
    expect(events.retries).toEqual(['UNREACHABLE']);
    expect((events.ends[0] as { error: ApiError }).error.code).toBe('FORBIDDEN');
    expect(started.connections).toHaveLength(0);
  });

  it('queues what is sent with `queue` while down and sends it, in order, after the next join', async () => {
    const { socket, events } = open({ delayMs: 300 });
    await connectionCount(1);
    await expect.poll(() => socket.isOpen).toBe(true);
    socket.markJoined();
    started.connections[0]!.socket.terminate();
    await expect.poll(() => events.retries).toEqual(['CONNECTION_LOST']);

    expect(socket.send({ type: 'say', text: 'lost' })).toBe(false);
    expect(socket.send({ type: 'say', text: 'first' }, { queue: true })).toBe(true);
    expect(socket.send({ type: 'say', text: 'second' }, { queue: true })).toBe(true);
    await connectionCount(2);
    await expect.poll(() => socket.isOpen).toBe(true);
    // Open but not joined yet: queued messages wait for the protocol's join.
    expect(socket.send({ type: 'say', text: 'third' }, { queue: true })).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receivedOn(1)).toEqual([{ type: 'hello', n: 2 }]);
    socket.markJoined();
    await expect
      .poll(() => receivedOn(1))
      .toEqual([
        { type: 'hello', n: 2 },
        { type: 'say', text: 'first' },
        { type: 'say', text: 'second' },
        { type: 'say', text: 'third' },
      ]);
  });

  it('says OFFLINE while the browser is offline, and tries at once when it is back', async () => {
    const network = testNetwork();
    const { socket, events } = open({ network: network.network, delayMs: 60_000 });
    await connectionCount(1);
    await expect.poll(() => socket.isOpen).toBe(true);
    network.set(false);
    started.connections[0]!.socket.terminate();
    await expect.poll(() => events.retries).toEqual(['OFFLINE']);
    network.set(true); // not a minute later: now
    await connectionCount(2);
  });

  it('closes with the given code when the page leaves, and stops watching the network', async () => {
    const network = testNetwork();
    const { socket, events } = open({ network: network.network });
    await connectionCount(1);
    await expect.poll(() => socket.isOpen).toBe(true);
    const closed = new Promise<number>((resolve) => started.connections[0]!.socket.on('close', resolve));
    socket.close(ROOM_CLOSE_CODES.LEFT);
    expect(await closed).toBe(ROOM_CLOSE_CODES.LEFT);
    expect(network.isWatched()).toBe(false);
    expect(events.closes).toEqual([]); // its own close is not news to the page
  });
});

describe('isFinalTokenRefusal', () => {
  it('ends the socket on a refusal retrying cannot change; retries no connection, time-outs, throttling, faults', () => {
    const final = ['VALIDATION_FAILED', 'NOT_SIGNED_IN', 'SIGNED_OUT', 'FORBIDDEN', 'NOT_FOUND'] as const;
    expect(final.map(isFinalTokenRefusal)).toEqual(Array(final.length).fill(true));
    const passing = [
      'UNREACHABLE',
      'REQUEST_REFUSED',
      'THROTTLED',
      'INTERNAL_ERROR',
      'SERVER_BUSY',
      'UNEXPECTED_ANSWER',
    ] as const;
    expect(passing.map(isFinalTokenRefusal)).toEqual(Array(passing.length).fill(false));
  });
});

describe('reconnectDelayMs', () => {
  const middle = () => 0.5;

  it('doubles from 0.5 s and stops at 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20, 2000].map((attempt) => reconnectDelayMs(attempt, middle))).toEqual([
      500, 1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000,
    ]);
  });

  it('adds jitter of at most 20 % either way', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(400);
    expect(reconnectDelayMs(0, () => 0.999_999)).toBe(600);
    expect(reconnectDelayMs(2, () => 0)).toBe(1600);
    expect(reconnectDelayMs(2, () => 0.25)).toBe(1800);
    expect(reconnectDelayMs(10, () => 0)).toBe(4000);
    expect(reconnectDelayMs(10, () => 0.999_999)).toBe(6000);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const base = Math.min(5000, 500 * 2 ** attempt);
      for (const value of [0, 0.1, 0.37, 0.5, 0.82, 0.999]) {
        const delay = reconnectDelayMs(attempt, () => value);
        expect(delay).toBeGreaterThanOrEqual(base * 0.8);
        expect(delay).toBeLessThanOrEqual(base * 1.2);
        expect(Number.isInteger(delay)).toBe(true);
      }
    }
  });

  it('uses Math.random by default, within the same bounds', () => {
    for (let index = 0; index < 50; index += 1) {
      const delay = reconnectDelayMs(3);
      expect(delay).toBeGreaterThanOrEqual(3200);
      expect(delay).toBeLessThanOrEqual(4800);
    }
  });
});
