import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ROOM_CLOSE_CODES, roomSocketQuery, type RoomCloseReason } from '#shared/rooms';
import { patience } from '../testing/patience.ts';
import { roomPresence, type PresenceEntry, type PresenceEvent } from './presence.ts';
import type { PubSub } from './pubsub.ts';
import { createRoomHub, type RoomMember } from './room-hub.ts';
import { registerRoomTransport, toBuffer, type RoomTransport } from './room-socket.ts';
import { createRoomTokens } from './room-tokens.ts';
import { BUS_KINDS, redisBuses, TEST_REDIS_URL } from './test-buses.ts';

/**
 * The room layer end to end (decision 065) with the smallest protocol it can carry, `echo`: a
 * join, `say` (passed to the room), `leave`. Real sockets to a listening server, on the
 * in-process bus and (with TEST_REDIS_URL) on Redis, where two servers are two instances.
 */

const SECRET = 'room-socket-test-secret-that-is-long-enough';
const PATH = '/api/echo/ws';
const LIMITS = { messageMaxBytes: 1024, messagesPerSecond: 20, messageBurst: 30 };
const FRAME_MAX_BYTES = 4096;
const ROOM_SIZE = 3;
const JOIN_TIMEOUT_MS = 1500;
const GRACE_MS = 1500;

type Entry = PresenceEntry & { name: string };
type Said = { kind: 'said'; from: string; text: string };
type Local = { send(message: object): void };
type EchoReason = RoomCloseReason;

const closeMessages = Object.fromEntries(
  Object.keys(ROOM_CLOSE_CODES).map((reason) => [reason, `echo: ${reason}`]),
) as Record<EchoReason, string>;

const tokens = createRoomTokens({
  secret: SECRET,
  kind: 'echo-test',
  isRoomId: (room) => /^[a-z0-9-]{6,64}$/.test(room),
  extra: {},
  lifetimeSeconds: 60,
});

type Server = { app: FastifyInstance; baseUrl: string; signedOut: Set<string> };

/** A server with the echo protocol on the room transport; `resumeGraceMs` > 0 keeps seats for a comeback. */
async function startServer(options: { pubsub?: PubSub; resumeGraceMs?: number; pingIntervalMs?: number } = {}) {
  const app = Fastify();
  const signedOut = new Set<string>();
  const transport: RoomTransport = await registerRoomTransport(app, {
    pubsub: options.pubsub,
    pingIntervalMs: options.pingIntervalMs,
    heartbeatMs: 250,
    frameMaxBytes: FRAME_MAX_BYTES,
  });
  const hub = createRoomHub<Entry, Said, Local>({
    pubsub: transport.pubsub,
    presence: roomPresence<Entry>(transport.pubsub, 'echo'),
    log: app.log,
    heartbeatMs: transport.heartbeatMs,
    resumeGraceMs: options.resumeGraceMs,
    deliver(member: RoomMember<Entry, Local, Said>, message: PresenceEvent<Entry> | Said) {
      const { send } = member.local;
      if (message.kind === 'said') send({ type: 'said', from: message.from, text: message.text });
      else if (message.kind === 'joined') send({ type: 'joined', id: message.participant.id });
      else if (message.kind === 'left') send({ type: 'left', id: message.participantId, reason: message.reason });
      else if (message.kind === 'resumed') send({ type: 'resumed', id: message.participant.id });
    },
  });
  transport.route({
    path: PATH,
    config: {},
    upgradeRequired: 'This address is for echo sockets only',
    closeCodes: ROOM_CLOSE_CODES,
    closeMessages,
    authenticate: (token) => tokens.check(token),
    isSessionCurrent: async (claims) => !signedOut.has(claims.sub),
    limits: LIMITS,
    joinTimeoutMs: JOIN_TIMEOUT_MS,
    resumes: true,
    shutDown: () => hub.close(),
    open(socket, claims, { resumeId }) {
      let member: RoomMember<Entry, Local, Said> | undefined;
      return {
        async message(parsed) {
          const message = parsed as { type?: unknown; text?: unknown };
          if (!member) {
            if (message.type !== 'join') return socket.close('BAD_MESSAGE');
            member = hub.admit(
              socket,
              { userId: claims.sub, roomId: claims.room, host: false },
              { send: (out) => socket.send(out) },
              { resumeId },
            );
            const joining = member;
            const outcome = await joining.join({
              data: { name: claims.name },
              limit: ROOM_SIZE,
              seated: ({ entry, others, resumed }) =>
                socket.send({ type: 'welcome', you: entry.id, others: others.map((other) => other.id), resumed }),
            });
            if (outcome === 'joined') return socket.joined();
            return socket.close(outcome === 'full' ? 'ROOM_FULL' : 'GOING_AWAY');
          }
          if (message.type === 'leave') return socket.close('LEFT');
          if (message.type !== 'say' || typeof message.text !== 'string') return socket.close('BAD_MESSAGE');
          await member.publish({ kind: 'said', from: member.id, text: message.text });
        },
        closed(reason) {
          // Gone without a word (a lost connection): the seat waits for a comeback.
          void (reason === undefined ? member?.disconnect() : member?.leave());
        },
      };
    },
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, baseUrl, signedOut };
}

type Inbound = { type: string; [key: string]: unknown };

/** One person's socket, as a page would open it, keeping what it receives. */
class EchoClient {
  readonly inbox: Inbound[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.inbox.push(JSON.parse(toBuffer(data).toString('utf8')) as Inbound));
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on('error', () => undefined);
  }

  static async open(server: Server, token: string | undefined, resumeId?: string) {
    const query = token === undefined ? '' : roomSocketQuery(token, resumeId);
    const client = new EchoClient(new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}${PATH}${query}`));
    await new Promise((resolve, reject) => {
      client.socket.once('open', resolve);
      client.socket.once('error', reject);
    });
    return client;
  }

  /** Opens and joins; resolves with the welcome. */
  static async join(server: Server, token: string, resumeId?: string) {
    const client = await EchoClient.open(server, token, resumeId);
    client.send({ type: 'join' });
    const welcome = await client.waitFor('welcome');
    return { client, welcome: welcome as Inbound & { you: string; others: string[]; resumed: boolean } };
  }

  send(message: object | string | Buffer) {
    this.socket.send(typeof message === 'object' && !Buffer.isBuffer(message) ? JSON.stringify(message) : message);
  }

  async waitFor(type: string, where: (message: Inbound) => boolean = () => true): Promise<Inbound> {
    const deadline = Date.now() + patience(5000);
    for (;;) {
      const index = this.inbox.findIndex((message) => message.type === type && where(message));
      if (index >= 0) return this.inbox.splice(index, 1)[0]!;
      if (Date.now() > deadline) throw new Error(`no ${type}; inbox: ${JSON.stringify(this.inbox)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async closedWithin(ms = 5000) {
    return Promise.race([
      this.closed,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not closed')), patience(ms)).unref()),
    ]);
  }
}

/** A room token of a made-up person for `room`. */
async function tokenFor(room: string, userId: string = randomUUID(), name = 'Someone') {
  return (await tokens.issue({ sub: userId, role: 'student', name, room, sv: 0 })).token;
}

const freshRoom = () => `room-${randomUUID().slice(0, 8)}`;

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

describe.each(BUS_KINDS)('the room transport on the $kind', ({ isRedis }) => {
  const servers: Server[] = [];
  const clients: EchoClient[] = [];
  const start = async (options: { resumeGraceMs?: number; pingIntervalMs?: number } = {}) => {
    const server = await startServer({ ...options, pubsub: isRedis ? await buses!.create() : undefined });
    servers.push(server);
    return server;
  };
  const join = async (server: Server, room: string, userId?: string, resumeId?: string) => {
    const joined = await EchoClient.join(server, await tokenFor(room, userId), resumeId);
    clients.push(joined.client);
    return joined;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    await Promise.all(servers.splice(0).map((server) => server.app.close()));
  });

  it('seats people up to the room size, tells the others who comes and goes, and passes messages around', async () => {
    const server = await start();
    const room = freshRoom();
    const ada = await join(server, room);
    const bob = await join(server, room);
    expect(bob.welcome.others).toEqual([ada.welcome.you]);
    expect(await ada.client.waitFor('joined')).toEqual({ type: 'joined', id: bob.welcome.you });

    bob.client.send({ type: 'say', text: 'hello' });
    expect(await ada.client.waitFor('said')).toEqual({ type: 'said', from: bob.welcome.you, text: 'hello' });
    expect(await bob.client.waitFor('said')).toMatchObject({ text: 'hello' });

    await join(server, room);
    const late = await EchoClient.open(server, await tokenFor(room));
    clients.push(late);
    late.send({ type: 'join' });
    expect((await late.closedWithin()).code).toBe(ROOM_CLOSE_CODES.ROOM_FULL);

    bob.client.send({ type: 'leave' });
    expect(await bob.client.closedWithin()).toEqual({ code: ROOM_CLOSE_CODES.LEFT, reason: 'echo: LEFT' });
    expect(await ada.client.waitFor('left')).toEqual({ type: 'left', id: bob.welcome.you, reason: 'left' });
  });

  it('closes a socket with the code of what it did wrong; the room carries on', async () => {
    const server = await start();
    const room = freshRoom();
    const ada = await join(server, room);
    const cases: [string, (client: EchoClient) => void, RoomCloseReason | 'FRAME_TOO_LARGE'][] = [
      ['not JSON', (client) => client.send('{"type":'), 'BAD_MESSAGE'],
      ['binary', (client) => client.send(Buffer.from([1, 2, 3])), 'BAD_MESSAGE'],
      ['over the protocol limit', (client) => client.send({ type: 'say', text: 'x'.repeat(2000) }), 'TOO_LARGE'],
      ['over the frame limit', (client) => client.send('x'.repeat(FRAME_MAX_BYTES + 1)), 'FRAME_TOO_LARGE'],
      [
        'a flood',
        (client) => {
          for (let index = 0; index < LIMITS.messageBurst * 2; index++) client.send({ type: 'say', text: '.' });
        },
        'RATE_LIMITED',
      ],
    ];
    for (const [label, misbehave, reason] of cases) {
      const { client } = await join(server, room);
      misbehave(client);
      const closed = await client.closedWithin();
      expect(closed.code, label).toBe(ROOM_CLOSE_CODES[reason]);
      if (reason !== 'FRAME_TOO_LARGE') expect(closed.reason, label).toBe(`echo: ${reason}`);
      await ada.client.waitFor('left');
    }
    const silent = await EchoClient.open(server, await tokenFor(room));
    clients.push(silent);
    expect((await silent.closedWithin()).code).toBe(ROOM_CLOSE_CODES.JOIN_TIMEOUT);

    const bob = await join(server, room);
    bob.client.send({ type: 'say', text: 'still here' });
    // (The flood's messages within its burst were passed on, as any are.)
    expect(await ada.client.waitFor('said', (message) => message.text === 'still here')).toMatchObject({
      from: bob.welcome.you,
    });
  });

  it('handles the messages within the budget, in order, before closing a flood (RATE_LIMITED)', async () => {
    const server = await start();
    const room = freshRoom();
    const ada = await join(server, room);
    const flooder = await join(server, room);
    await ada.client.waitFor('joined');
    const sent = LIMITS.messageBurst + 10;
    for (let index = 0; index < sent; index++) flooder.client.send({ type: 'say', text: String(index) });
    const closed = await flooder.client.closedWithin();
    expect(closed).toEqual({ code: ROOM_CLOSE_CODES.RATE_LIMITED, reason: 'echo: RATE_LIMITED' });
    await ada.client.waitFor('left', (message) => message.id === flooder.welcome.you);
    // Every message received before the one over the budget was passed on before the close, in
    // order: the burst less the join (and whatever trickled back into the bucket meanwhile).
    const said = ada.client.inbox.filter((message) => message.type === 'said').map((message) => message.text);
    expect(said.length).toBeGreaterThanOrEqual(LIMITS.messageBurst - 1);
    expect(said.length).toBeLessThan(sent);
    expect(said).toEqual(said.map((_, index) => String(index)));
  });

  it('refuses a socket without a token, with a forged or expired one, and a plain HTTP request', async () => {
    const server = await start();
    const room = freshRoom();
    const expired = await createRoomTokens({
      secret: SECRET,
      kind: 'echo-test',
      isRoomId: () => true,
      extra: {},
      lifetimeSeconds: 60,
      now: () => Date.now() - 120_000,
    }).issue({ sub: randomUUID(), role: 'student', name: 'Old', room, sv: 0 });
    const meetingKind = await createRoomTokens({
      secret: SECRET,
      kind: 'meeting',
      isRoomId: () => true,
      extra: {},
      lifetimeSeconds: 60,
    }).issue({ sub: randomUUID(), role: 'student', name: 'Elsewhere', room, sv: 0 });
    const refusals: [string | undefined, RoomCloseReason][] = [
      [undefined, 'FORBIDDEN'],
      [`${await tokenFor(room)}x`, 'FORBIDDEN'],
      [meetingKind.token, 'FORBIDDEN'],
      [expired.token, 'TOKEN_EXPIRED'],
    ];
    for (const [token, reason] of refusals) {
      const client = await EchoClient.open(server, token);
      clients.push(client);
      expect(await client.closedWithin()).toEqual({ code: ROOM_CLOSE_CODES[reason], reason: `echo: ${reason}` });
    }
    const plain = await fetch(`${server.baseUrl}${PATH}`);
    expect(plain.status).toBe(426);
    expect(await plain.json()).toMatchObject({ code: 'UPGRADE_REQUIRED' });
  });

  it('closes the sockets of a login that ended at the next ping (SIGNED_OUT), and every socket on shutdown', async () => {
    const server = await start({ pingIntervalMs: 200 });
    const room = freshRoom();
    const userId = randomUUID();
    const ada = await join(server, room, userId);
    const bob = await join(server, room);
    server.signedOut.add(userId);
    expect((await ada.client.closedWithin()).code).toBe(ROOM_CLOSE_CODES.SIGNED_OUT);
    expect(await bob.client.waitFor('left')).toMatchObject({ id: ada.welcome.you });

    await server.app.close();
    servers.splice(servers.indexOf(server), 1);
    expect((await bob.client.closedWithin()).code).toBe(ROOM_CLOSE_CODES.GOING_AWAY);
  });

  it('keeps the seat of a socket that dropped for its grace: a comeback with ?resume= is the same participant', async () => {
    const server = await start({ resumeGraceMs: GRACE_MS });
    const room = freshRoom();
    const bobId = randomUUID();
    const ada = await join(server, room);
    const bob = await join(server, room, bobId);
    await ada.client.waitFor('joined');

    bob.client.socket.terminate(); // a phone locked: no goodbye
    // Someone else cannot take Bob's seat with his id: they get a new seat of their own.
    const mallory = await join(server, room, undefined, bob.welcome.you);
    expect(mallory.welcome.resumed).toBe(false);
    expect(mallory.welcome.you).not.toBe(bob.welcome.you);
    const bobAgain = await join(server, room, bobId, bob.welcome.you);
    expect(bobAgain.welcome).toMatchObject({ you: bob.welcome.you, resumed: true });
    expect(bobAgain.welcome.others.sort()).toEqual([ada.welcome.you, mallory.welcome.you].sort());
    expect(await ada.client.waitFor('resumed')).toEqual({ type: 'resumed', id: bob.welcome.you });
    bobAgain.client.send({ type: 'say', text: 'back' });
    expect(await ada.client.waitFor('said')).toEqual({ type: 'said', from: bob.welcome.you, text: 'back' });
    expect(ada.client.inbox.filter((message) => message.type === 'left')).toEqual([]);

    // Without a comeback the seat goes once the grace is over, as a time-out.
    mallory.client.socket.terminate();
    expect(await ada.client.waitFor('left')).toEqual({ type: 'left', id: mallory.welcome.you, reason: 'timeout' });
  });
});

describe.skipIf(!TEST_REDIS_URL)('two instances on one Redis', () => {
  const shared = TEST_REDIS_URL ? redisBuses() : undefined;
  const servers: Server[] = [];
  const clients: EchoClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    await Promise.all(servers.splice(0).map((server) => server.app.close()));
  });
  afterAll(() => shared?.cleanUp());

  async function twoInstances(resumeGraceMs = 0) {
    const first = await startServer({ pubsub: await shared!.create({ entryTtlMs: 1500 }), resumeGraceMs });
    const second = await startServer({ pubsub: await shared!.create({ entryTtlMs: 1500 }), resumeGraceMs });
    servers.push(first, second);
    return [first, second] as const;
  }
  const join = async (server: Server, room: string, userId?: string, resumeId?: string) => {
    const joined = await EchoClient.join(server, await tokenFor(room, userId), resumeId);
    clients.push(joined.client);
    return joined;
  };

  it('carries a room across instances: seats, the size, and every message to everyone', async () => {
    const [first, second] = await twoInstances();
    const room = freshRoom();
    const ada = await join(first, room);
    const bob = await join(second, room);
    const cyd = await join(first, room);
    expect(cyd.welcome.others.sort()).toEqual([ada.welcome.you, bob.welcome.you].sort());
    bob.client.send({ type: 'say', text: 'from the second' });
    for (const person of [ada, cyd, bob]) {
      expect(await person.client.waitFor('said')).toEqual({
        type: 'said',
        from: bob.welcome.you,
        text: 'from the second',
      });
    }
    const late = await EchoClient.open(second, await tokenFor(room));
    clients.push(late);
    late.send({ type: 'join' });
    expect((await late.closedWithin()).code).toBe(ROOM_CLOSE_CODES.ROOM_FULL);
  });

  it('lets a page resume its seat on the other instance; the first one lets it go without a word', async () => {
    const [first, second] = await twoInstances(1500);
    const room = freshRoom();
    const userId = randomUUID();
    const ada = await join(first, room);
    const bob = await join(first, room, userId);
    await ada.client.waitFor('joined');
    bob.client.socket.terminate();
    const again = await join(second, room, userId, bob.welcome.you);
    expect(again.welcome).toMatchObject({ you: bob.welcome.you, resumed: true });
    expect(await ada.client.waitFor('resumed')).toEqual({ type: 'resumed', id: bob.welcome.you });
    // Past the first instance's grace and its seats' time to live: the seat is still Bob's.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(ada.client.inbox.filter((message) => message.type === 'left')).toEqual([]);
    again.client.send({ type: 'say', text: 'back' });
    expect(await ada.client.waitFor('said')).toEqual({ type: 'said', from: bob.welcome.you, text: 'back' });
  });
});
