import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import {
  CLOSE_CODES,
  CLOSE_MESSAGES,
  MEETING_LIMITS,
  MEETING_SOCKET_PATH,
  PROTOCOL_VERSION,
  closeReasonOf,
  shouldReconnect,
  type CloseReason,
} from '#shared/meetings';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  ALL_OFF,
  ALL_ON,
  MeetingTestClient,
  freshRoomId,
  accountMeetingToken,
  type MeetingPerson,
} from './meeting-test-client.ts';
import { BUS_KINDS, redisBuses, TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { patience } from '../../testing/patience.ts';
import { meetingRoster } from './meeting-roster.ts';

/** A client's WebSocket text frame (masked, as RFC 6455 requires of clients), under 126 bytes. */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const masked = payload.map((byte, index) => byte ^ mask[index % 4]!);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

/**
 * The signalling hub end to end: real WebSockets to a listening app, on the
 * in-process bus and (with TEST_REDIS_URL) on a real Redis.
 */

const ROOM_SIZE = 3;
// Generous enough that a busy CI machine (server and clients share one event loop here) never trips them.
const JOIN_TIMEOUT_MS = 1500;
const PING_INTERVAL_MS = 1000;

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

describe.each(BUS_KINDS)('signalling on the $kind', ({ isRedis }) => {
  let t: TestApp;
  let baseUrl: string;
  const clients: MeetingTestClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      realtime: {
        // Omitted: the app makes (and closes) an in-process bus of its own.
        pubsub: isRedis ? await buses!.create() : undefined,
        pingIntervalMs: PING_INTERVAL_MS,
      },
      meetings: {
        roomSize: ROOM_SIZE,
        iceServers: [{ urls: 'stun:stun.school.lan:3478' }],
        joinTimeoutMs: JOIN_TIMEOUT_MS,
      },
    });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  /** A meeting token of a made-up person with an account (the socket checks their login is current). */
  const tokenOf = (roomId: string, person: MeetingPerson = {}) => accountMeetingToken(t.database, roomId, person);

  async function join(roomId: string, person: MeetingPerson = {}, media = ALL_ON) {
    const joined = await MeetingTestClient.join(baseUrl, await tokenOf(roomId, person), roomId, media);
    clients.push(joined.client);
    return joined;
  }

  async function connect(roomId: string, person: MeetingPerson = {}) {
    const client = await MeetingTestClient.connect(baseUrl, await tokenOf(roomId, person));
    clients.push(client);
    return client;
  }

  /** Two people in a fresh room, each having seen the other. */
  async function pair() {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada', role: 'teacher' });
    const bob = await join(roomId, { name: 'Bob' });
    await ada.client.waitFor('participant-joined');
    return { roomId, ada, bob };
  }

  /** A chat from one reaches the other: the room still works. */
  async function expectChatFlows(from: MeetingTestClient, to: MeetingTestClient, text = 'still here?') {
    from.send({ type: 'chat', text });
    expect(await to.waitFor('chat', (message) => message.text === text)).toMatchObject({ text });
  }

  it('welcomes a joiner with who is already there (names, roles, media), the ICE servers and the room size', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada', role: 'teacher' }, ALL_ON);
    expect(ada.welcome).toEqual({
      type: 'welcome',
      protocolVersion: PROTOCOL_VERSION,
      roomId,
      you: { id: expect.any(String), name: 'Ada', role: 'teacher', media: ALL_ON, host: true, hand: null },
      participants: [],
      iceServers: [{ urls: 'stun:stun.school.lan:3478' }],
      roomSize: ROOM_SIZE,
      locked: false,
      topology: 'mesh',
    });

    const bob = await join(roomId, { name: 'Bob', role: 'student' }, ALL_OFF);
    expect(bob.welcome.participants).toEqual([ada.welcome.you]);
    expect(bob.welcome.you).toEqual({
      id: expect.any(String),
      name: 'Bob',
      role: 'student',
      media: ALL_OFF,
      host: false,
      hand: null,
    });
    expect(await ada.client.waitFor('participant-joined')).toEqual({
      type: 'participant-joined',
      participant: bob.welcome.you,
    });
    // Nobody is told about themselves, and nothing leaks who is behind an id.
    expect(bob.client.received('participant-joined')).toEqual([]);
    expect(JSON.stringify(bob.welcome)).not.toMatch(/userId|instanceId/);
  });

  it('relays offer, answer and candidate to the addressee only, marked with the sender', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada' });
    const bob = await join(roomId, { name: 'Bob' });
    const cyd = await join(roomId, { name: 'Cyd' });
    const [adaId, bobId] = [ada.welcome.you.id, bob.welcome.you.id];
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 192.168.1.20 54321 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    };

    cyd.client.send({ type: 'offer', to: adaId, sdp: 'v=0 offer' });
    expect(await ada.client.waitFor('offer')).toEqual({ type: 'offer', from: cyd.welcome.you.id, sdp: 'v=0 offer' });
    ada.client.send({ type: 'answer', to: cyd.welcome.you.id, sdp: 'v=0 answer' });
    expect(await cyd.client.waitFor('answer')).toEqual({ type: 'answer', from: adaId, sdp: 'v=0 answer' });
    ada.client.send({ type: 'candidate', to: bobId, candidate });
    expect(await bob.client.waitFor('candidate')).toEqual({ type: 'candidate', from: adaId, candidate });

    // One channel keeps one order: once a later chat has arrived, any stray relay would have too.
    await expectChatFlows(ada.client, bob.client);
    await cyd.client.waitFor('chat');
    expect(bob.client.received('offer')).toEqual([]);
    expect(bob.client.received('answer')).toEqual([]);
    expect(cyd.client.received('candidate')).toEqual([]);
    expect(ada.client.received('offer')).toEqual([]); // nothing comes back to the sender
  });

  it('sends chat to everyone in the room, the sender included, with the name and the time, and to no other room', async () => {
    const { roomId, ada, bob } = await pair();
    const elsewhere = await join(freshRoomId(), { name: 'Eve' });
    const before = Date.now();
    bob.client.send({ type: 'chat', text: '  Hello, class!\nPage 12.  ' });
    const expected = { type: 'chat', from: bob.welcome.you.id, name: 'Bob', text: 'Hello, class!\nPage 12.' };
    const received = await ada.client.waitFor('chat');
    expect(received).toMatchObject(expected);
    expect(Date.parse(received.sentAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await bob.client.waitFor('chat')).toEqual(received);

    // Eve's own room keeps working, and she never saw the other room's chat.
    await expectChatFlows(elsewhere.client, elsewhere.client, 'only us here');
    expect(elsewhere.client.received('chat')).toEqual([]);
    expect(roomId).not.toBe(elsewhere.welcome.roomId);
  });

  it('refuses chat lines beyond the chat budget with an error, keeps the socket, and lets the others chat', async () => {
    const { ada, bob } = await pair();
    for (let line = 0; line < MEETING_LIMITS.chatBurst + 3; line += 1)
      bob.client.send({ type: 'chat', text: `line ${line}` });
    expect(await bob.client.waitFor('error')).toEqual({
      type: 'error',
      code: 'CHAT_TOO_FAST',
      message: 'You are sending chat messages too quickly. Wait a moment.',
    });
    await expectChatFlows(ada.client, bob.client, 'Ada can still talk');
    // Bob saw exactly the lines within his budget, then Ada's; his socket is still open.
    const bobLines = bob.client.received('chat').map((message) => message.text);
    expect(bobLines.slice(0, MEETING_LIMITS.chatBurst)).toEqual(
      Array.from({ length: MEETING_LIMITS.chatBurst }, (_, line) => `line ${line}`),
    );
    expect(bobLines).not.toContain(`line ${MEETING_LIMITS.chatBurst}`);
    bob.client.send({ type: 'media-state', state: { mic: false, camera: false, screen: false } });
    expect((await ada.client.waitFor('media-state')).state.mic).toBe(false);
  });

  it('passes media-state changes to the others, and a later joiner sees the current state', async () => {
    const { roomId, ada, bob } = await pair();
    const cameraOff = { mic: true, camera: false, screen: false };
    bob.client.send({ type: 'media-state', state: cameraOff });
    expect(await ada.client.waitFor('media-state')).toEqual({
      type: 'media-state',
      from: bob.welcome.you.id,
      state: cameraOff,
    });
    const cyd = await join(roomId, { name: 'Cyd' });
    expect(cyd.welcome.participants).toContainEqual({ ...bob.welcome.you, media: cameraOff });
    await expectChatFlows(ada.client, bob.client);
    expect(bob.client.received('media-state')).toEqual([]); // not echoed to the sender
  });

  it('tells the room when someone leaves, by message or by closing the page', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada' });
    const bob = await join(roomId, { name: 'Bob' });
    const cyd = await join(roomId, { name: 'Cyd' });

    bob.client.send({ type: 'leave' });
    expect(await bob.client.closedWithin()).toEqual({ code: CLOSE_CODES.LEFT, reason: CLOSE_MESSAGES.LEFT });
    expect(await ada.client.waitFor('participant-left')).toEqual({
      type: 'participant-left',
      participantId: bob.welcome.you.id,
      reason: 'left',
    });

    cyd.client.socket.terminate(); // a tab closed without goodbye
    expect(await ada.client.waitFor('participant-left')).toMatchObject({ participantId: cyd.welcome.you.id });
  });

  it('refuses the participant over the room size with ROOM_FULL, and seats the next one once someone leaves', async () => {
    const roomId = freshRoomId();
    const seated = [];
    for (let index = 0; index < ROOM_SIZE; index++) seated.push(await join(roomId, { name: `P${index}` }));
    const extra = await connect(roomId, { name: 'Late' });
    extra.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
    expect(await extra.closedWithin()).toEqual({ code: CLOSE_CODES.ROOM_FULL, reason: CLOSE_MESSAGES.ROOM_FULL });
    // Nobody in the room heard of the refused one.
    await expectChatFlows(seated[0]!.client, seated[2]!.client);
    expect(seated[0]!.client.received('participant-joined').map((event) => event.participant.name)).not.toContain(
      'Late',
    );

    seated[1]!.client.send({ type: 'leave' });
    await seated[0]!.client.waitFor('participant-left');
    const next = await join(roomId, { name: 'Next' });
    expect(next.welcome.participants).toHaveLength(ROOM_SIZE - 1);
  });

  it('keeps one seat per person: joining again (another tab) closes the first socket with REPLACED', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada' });
    const person = { name: 'Bob', userId: crypto.randomUUID() };
    const firstTab = await join(roomId, person);
    await ada.client.waitFor('participant-joined');
    const secondTab = await join(roomId, person);

    expect(await firstTab.client.closedWithin()).toEqual({
      code: CLOSE_CODES.REPLACED,
      reason: CLOSE_MESSAGES.REPLACED,
    });
    expect(secondTab.welcome.participants).toEqual([ada.welcome.you]);
    expect(await ada.client.waitFor('participant-left')).toMatchObject({
      participantId: firstTab.welcome.you.id,
      reason: 'replaced',
    });
    expect(await ada.client.waitFor('participant-joined')).toMatchObject({
      participant: { id: secondTab.welcome.you.id, name: 'Bob' },
    });
    // The second tab took the first one's seat rather than another.
    await join(roomId, { name: 'Cyd' });
  });

  it('cuts a socket that stops answering pings, and tells the room', async () => {
    const { ada, bob } = await pair();
    bob.client.socket.pause(); // a frozen tab: reads nothing, answers no ping
    expect(await ada.client.waitFor('participant-left')).toMatchObject({ participantId: bob.welcome.you.id });
    bob.client.socket.resume();
    expect((await bob.client.closedWithin()).code).toBe(1006);
  });

  describe('bad messages close that socket with its reason; the others carry on', () => {
    type Case = {
      label: string;
      /** Joined first (true) or only connected. */
      isJoined: boolean;
      send: (client: MeetingTestClient, roomId: string) => void;
      reason: CloseReason;
    };
    const joinMessage = (roomId: string) => ({
      type: 'join',
      protocolVersion: PROTOCOL_VERSION,
      roomId,
      media: ALL_ON,
    });
    const cases: Case[] = [
      { label: 'text that is not JSON', isJoined: true, send: (c) => c.send('{"type":"chat",'), reason: 'BAD_MESSAGE' },
      { label: 'a binary frame', isJoined: true, send: (c) => c.send(Buffer.from([1, 2, 3])), reason: 'BAD_MESSAGE' },
      {
        label: 'an unknown message type',
        isJoined: true,
        send: (c) => c.send({ type: 'kick' }),
        reason: 'BAD_MESSAGE',
      },
      {
        label: 'an offer without an addressee',
        isJoined: true,
        send: (c) => c.send({ type: 'offer', sdp: 'v=0' }),
        reason: 'BAD_MESSAGE',
      },
      {
        label: 'a message with an extra field',
        isJoined: true,
        send: (c) => c.send({ type: 'chat', text: 'hi', from: 'someone-else' }),
        reason: 'BAD_MESSAGE',
      },
      {
        label: 'a chat over the length limit',
        isJoined: true,
        send: (c) => c.send({ type: 'chat', text: 'x'.repeat(MEETING_LIMITS.chatMaxLength + 1) }),
        reason: 'BAD_MESSAGE',
      },
      {
        label: 'a second join',
        isJoined: true,
        send: (c, roomId) => c.send(joinMessage(roomId)),
        reason: 'BAD_MESSAGE',
      },
      {
        label: 'a message one byte over the size limit (refused by the WebSocket layer before it is gathered)',
        isJoined: true,
        send: (c) => c.send('x'.repeat(MEETING_LIMITS.messageMaxBytes + 1)),
        reason: 'FRAME_TOO_LARGE',
      },
      {
        label: 'a chat message over the size limit',
        isJoined: true,
        send: (c) => c.send({ type: 'chat', text: 'x'.repeat(MEETING_LIMITS.messageMaxBytes) }),
        reason: 'FRAME_TOO_LARGE',
      },
      {
        label: 'a flood of messages',
        isJoined: true,
        send: (c) => {
          for (let index = 0; index < MEETING_LIMITS.messageBurst * 2; index++) {
            c.send({ type: 'candidate', to: 'nobody-at-all', candidate: { candidate: '' } });
          }
        },
        reason: 'RATE_LIMITED',
      },
      {
        label: 'anything but join first',
        isJoined: false,
        send: (c) => c.send({ type: 'leave' }),
        reason: 'BAD_MESSAGE',
      },
      {
        label: 'a join of an older protocol version',
        isJoined: false,
        send: (c, roomId) => c.send({ type: 'join', protocolVersion: PROTOCOL_VERSION - 1, room: roomId }),
        reason: 'CLIENT_TOO_OLD',
      },
      {
        label: 'a join without media state',
        isJoined: false,
        send: (c, roomId) => c.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId }),
        reason: 'BAD_MESSAGE',
      },
      {
        label: "a join of a room other than the token's",
        isJoined: false,
        send: (c) => c.send(joinMessage('another-room')),
        reason: 'FORBIDDEN',
      },
      { label: 'no join in time', isJoined: false, send: () => undefined, reason: 'JOIN_TIMEOUT' },
    ];

    it.each(cases)('$label: $reason', async ({ isJoined, send, reason }) => {
      const { roomId, ada, bob } = await pair();
      let offender: MeetingTestClient;
      let offenderId: string | undefined;
      if (isJoined) {
        const joined = await MeetingTestClient.join(baseUrl, await tokenOf(roomId, { name: 'Mallory' }), roomId);
        offender = joined.client;
        offenderId = joined.welcome.you.id;
      } else {
        offender = await MeetingTestClient.connect(baseUrl, await tokenOf(roomId, { name: 'Mallory' }));
      }
      clients.push(offender);
      send(offender, roomId);

      const closed = await offender.closedWithin();
      expect(closed.code).toBe(CLOSE_CODES[reason]);
      if (reason !== 'FRAME_TOO_LARGE') expect(closed.reason).toBe(CLOSE_MESSAGES[reason]);
      if (offenderId) {
        expect(await ada.client.waitFor('participant-left')).toMatchObject({ participantId: offenderId });
      }
      await expectChatFlows(ada.client, bob.client);
      await expectChatFlows(bob.client, ada.client);
    });

    it('leaves the server healthy and the rooms open to newcomers afterwards', async () => {
      const { roomId, ada } = await pair();
      expect((await t.call({ method: 'GET', url: '/api/health' })).status).toBe(200);
      const cyd = await join(roomId, { name: 'Cyd' });
      expect(cyd.welcome.participants).toHaveLength(2);
      await expectChatFlows(cyd.client, ada.client);
    });
  });

  it('checks the token before the upgrade: a refused socket is closed without a frame of it being read', async () => {
    // A frame sent with the upgrade request, so it is there before any verdict could be: not
    // JSON, so read and parsed it would close the socket with BAD_MESSAGE.
    const token = `${await tokenOf(freshRoomId())}x`;
    const closeCode = await new Promise<number>((resolve, reject) => {
      const socket = net.connect(Number(new URL(baseUrl).port), '127.0.0.1', () => {
        socket.write(
          `GET ${MEETING_SOCKET_PATH}?token=${encodeURIComponent(token)} HTTP/1.1\r\n` +
            'Host: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
        socket.write(maskedTextFrame('{"type":'));
      });
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const headersEnd = received.indexOf('\r\n\r\n');
        // The server's first frame after its 101: a close (0x88) whose payload starts with the code.
        if (headersEnd !== -1 && received.length >= headersEnd + 6) {
          const frame = received.subarray(headersEnd + 4);
          expect(frame[0]).toBe(0x88);
          resolve(frame.readUInt16BE(2));
          socket.destroy();
        }
      });
      socket.on('error', reject);
    });
    expect(closeCode).toBe(CLOSE_CODES.FORBIDDEN);
  });

  it('refuses a socket without a token, or with a forged one, with FORBIDDEN', async () => {
    const roomId = freshRoomId();
    const withoutToken = await MeetingTestClient.connect(baseUrl, undefined);
    const forged = await MeetingTestClient.connect(baseUrl, `${await tokenOf(roomId)}x`);
    for (const client of [withoutToken, forged]) {
      expect(await client.closedWithin()).toEqual({ code: CLOSE_CODES.FORBIDDEN, reason: CLOSE_MESSAGES.FORBIDDEN });
    }
  });
});

describe('the message budget over time', () => {
  // Small numbers so the test shows both halves of the token bucket: the burst and the refill.
  const BURST = 10;
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ meetings: { socketLimits: { messageBurst: BURST, messagesPerSecond: 50 } } });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('lets a participant go on at the sustained rate, and closes one that floods past the burst', async () => {
    const roomId = freshRoomId();
    const ada = await MeetingTestClient.join(
      baseUrl,
      await accountMeetingToken(t.database, roomId, { name: 'Ada' }),
      roomId,
    );
    const bob = await MeetingTestClient.join(
      baseUrl,
      await accountMeetingToken(t.database, roomId, { name: 'Bob' }),
      roomId,
    );
    try {
      const candidate = { type: 'candidate', to: ada.welcome.you.id, candidate: { candidate: '' } } as const;
      // 3 x 8 messages (plus the join) is more than a burst, but the budget refills in between.
      for (let round = 0; round < 3; round++) {
        for (let message = 0; message < BURST - 2; message++) bob.client.send(candidate);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      bob.client.send({ type: 'chat', text: 'still here' });
      expect(await ada.client.waitFor('chat')).toMatchObject({ text: 'still here' });

      for (let message = 0; message <= BURST; message++) bob.client.send(candidate);
      const closed = await bob.client.closedWithin();
      expect(closed).toEqual({ code: CLOSE_CODES.RATE_LIMITED, reason: CLOSE_MESSAGES.RATE_LIMITED });
    } finally {
      ada.client.close();
      bob.client.close();
    }
  });
});

describe('shutting down', () => {
  it.each(BUS_KINDS)('closes every socket with GOING_AWAY and gives the seats back ($kind)', async ({ isRedis }) => {
    const pubsub = isRedis ? await buses!.create() : undefined;
    const t = await createTestApp({ realtime: { pubsub }, meetings: { roomSize: 2 } });
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const roomId = freshRoomId();
    const joined = await MeetingTestClient.join(baseUrl, await accountMeetingToken(t.database, roomId), roomId);
    const waiting = await MeetingTestClient.connect(baseUrl, await accountMeetingToken(t.database, roomId));

    const started = Date.now();
    await t.close();
    expect(Date.now() - started).toBeLessThan(patience(2000)); // no wait for the sockets' goodbyes
    for (const client of [joined.client, waiting]) {
      expect(await client.closedWithin()).toEqual({
        code: CLOSE_CODES.GOING_AWAY,
        reason: CLOSE_MESSAGES.GOING_AWAY,
      });
    }
    if (pubsub) {
      // The seat went back to the shared roster: the room is empty for the other instances.
      const claim = await meetingRoster(pubsub).claim(
        roomId,
        {
          id: 'probe-participant',
          name: 'Probe',
          role: 'student',
          media: ALL_OFF,
          host: false,
          hand: null,
          userId: 'probe',
          instanceId: 'x',
        },
        2,
      );
      expect(claim).toMatchObject({ outcome: 'joined', others: [] });
    }
  });
});

describe('close codes', () => {
  it('fit a close frame (123 bytes) and are recognised by the page', () => {
    for (const reason of Object.keys(CLOSE_CODES) as CloseReason[]) {
      expect(Buffer.byteLength(CLOSE_MESSAGES[reason])).toBeLessThanOrEqual(123);
      expect(closeReasonOf(CLOSE_CODES[reason])).toBe(reason);
    }
    expect(new Set(Object.values(CLOSE_CODES)).size).toBe(Object.keys(CLOSE_CODES).length);
  });

  it('say when the page should reconnect by itself', () => {
    expect(shouldReconnect(1006)).toBe(true); // connection lost
    expect(shouldReconnect(CLOSE_CODES.GOING_AWAY)).toBe(true);
    expect(shouldReconnect(CLOSE_CODES.TOKEN_EXPIRED)).toBe(true);
    expect(shouldReconnect(CLOSE_CODES.SIGNED_OUT)).toBe(true); // a new token with the session held now, or the login
    expect(shouldReconnect(CLOSE_CODES.ROOM_FULL)).toBe(false);
    expect(shouldReconnect(CLOSE_CODES.REPLACED)).toBe(false);
    expect(shouldReconnect(CLOSE_CODES.LEFT)).toBe(false);
  });
});
