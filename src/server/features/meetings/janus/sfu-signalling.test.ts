/**
 * The meeting socket of an app whose rooms go through Janus (decision 037), with real WebSockets
 * and a real Janus started from deploy/janus (skipped without the binary, as in
 * janus-gateway.test.ts; JANUS_REQUIRED=1 there makes its absence fail). Media itself needs a
 * browser: tests/e2e/meetings-janus.spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '#shared/meetings';
import { isJanusInstalled, startJanus, type JanusProcess } from '../../../../../scripts/janus.ts';
import {
  ALL_ON,
  accountMeetingToken,
  freshRoomId,
  MeetingTestClient,
  type MeetingPerson,
} from '../meeting-test-client.ts';
import type { TestApp } from '../../../testing/test-app.ts';
import { freePort } from '../../../testing/server-process.ts';
import { JanusGateway, janusRoomId } from './janus-gateway.ts';
import { appThrough, OFFER_SLOTS, publishingOffer, quietLogger, watchModeration } from './janus-testing.ts';
import { patience } from '../../../testing/patience.ts';

describe('meeting sockets with Janus unreachable', () => {
  let gateway: JanusGateway;
  let t: TestApp;
  let baseUrl: string;
  const clients: MeetingTestClient[] = [];

  beforeAll(async () => {
    gateway = new JanusGateway({
      url: `ws://127.0.0.1:${await freePort()}`,
      apiSecret: randomBytes(18).toString('hex'),
      logger: quietLogger,
      retryDelaysMs: [60_000],
    });
    await gateway.start();
    ({ t, baseUrl } = await appThrough(gateway));
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('closes a join with MEDIA_UNAVAILABLE (the page retries) and takes no seat', async () => {
    const roomId = freshRoomId();
    const client = await MeetingTestClient.connect(baseUrl, await accountMeetingToken(t.database, roomId));
    clients.push(client);
    client.send({ type: 'join', protocolVersion: 2, roomId, media: ALL_ON });
    expect((await client.closedWithin()).code).toBe(CLOSE_CODES.MEDIA_UNAVAILABLE);
  });
});

describe.runIf(isJanusInstalled())('meeting sockets through a real Janus', () => {
  let janus: JanusProcess;
  let gateway: JanusGateway;
  let t: TestApp;
  let baseUrl: string;
  const clients: MeetingTestClient[] = [];
  const apiSecret = randomBytes(18).toString('hex');
  let janusPort: number;
  const startOurJanus = () =>
    startJanus({ port: janusPort, host: '127.0.0.1', apiSecret, rtpPortRange: '41000-41099' });

  beforeAll(async () => {
    janusPort = await freePort();
    janus = await startOurJanus();
    gateway = new JanusGateway({ url: janus.url, apiSecret, logger: quietLogger, retryDelaysMs: [200, 500, 1000] });
    await gateway.start();
    await gateway.whenStatus('connected');
    ({ t, baseUrl } = await appThrough(gateway));
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
    await janus.stop();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  async function join(roomId: string, person: MeetingPerson = {}) {
    const joined = await MeetingTestClient.join(baseUrl, await accountMeetingToken(t.database, roomId, person), roomId);
    clients.push(joined.client);
    return joined;
  }

  it('says the room is an SFU room, and relays nothing browser to browser', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada', role: 'teacher' });
    expect(ada.welcome.topology).toBe('sfu');
    const bob = await join(roomId, { name: 'Bob' });
    await ada.client.waitFor('participant-joined');
    // A mesh offer to Bob is dropped: in an SFU room media reaches others only through Janus.
    ada.client.send({ type: 'offer', to: bob.welcome.you.id, sdp: 'v=0' });
    ada.client.send({ type: 'chat', text: 'after the offer' });
    const chat = await bob.client.waitFor('chat');
    expect(chat.text).toBe('after the offer');
    expect(bob.client.inbox.some((message) => message.type === 'offer')).toBe(false);
  });

  it('closes a participant whose publishing offer Janus refuses, and keeps the others', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada', role: 'teacher' });
    const bob = await join(roomId, { name: 'Bob' });
    await ada.client.waitFor('participant-joined');
    bob.client.send({
      type: 'sfu-publish',
      sdp: 'v=0\r\nnot an offer',
      slots: { audio: '0', camera: '1', screen: '2' },
    });
    expect((await bob.client.closedWithin(15_000)).code).toBe(CLOSE_CODES.MEDIA_UNAVAILABLE);
    expect((await ada.client.waitFor('participant-left')).participantId).toBe(bob.welcome.you.id);
  });

  it(
    'holds a muted person’s sound back at Janus, even when their page ignores the mute',
    async () => {
      const roomId = freshRoomId();
      const ada = await join(roomId, { name: 'Ada', role: 'teacher' });
      const bob = await join(roomId, { name: 'Bob' });
      await ada.client.waitFor('participant-joined');
      const bobId = bob.welcome.you.id;
      const janusRoom = await watchModeration(gateway, roomId, 30);
      bob.client.send({ type: 'sfu-publish', sdp: publishingOffer(), slots: OFFER_SLOTS });
      await bob.client.waitFor('sfu-published');
      const isHeldBack = () => janusRoom.isSoundHeldBack(bobId);
      // Students join muted (decision 038): Janus forwards none of Bob's sound until his microphone is on.
      await expect.poll(isHeldBack, { timeout: patience(10_000) }).toBe(true);
      bob.client.send({ type: 'media-state', state: ALL_ON });
      await expect.poll(isHeldBack, { timeout: patience(10_000) }).toBe(false);

      // The teacher mutes Bob. His page (this client) ignores the message and keeps its microphone on.
      ada.client.send({ type: 'mute', participantId: bobId });
      await bob.client.waitFor('moderated');
      await expect.poll(isHeldBack, { timeout: patience(10_000) }).toBe(true);
      // Everyone sees his microphone off: the room's record, not his page's word.
      await ada.client.waitFor('media-state', (message) => message.from === bobId && !message.state.mic);

      // He turns it on again, as a teacher's mute allows, in everyone's sight: he is heard again.
      bob.client.send({ type: 'media-state', state: ALL_ON });
      await ada.client.waitFor('media-state', (message) => message.from === bobId && message.state.mic);
      await expect.poll(isHeldBack, { timeout: patience(10_000) }).toBe(false);
      await janusRoom.close();
    },
    patience(60_000),
  );

  it(
    'keeps everyone seated when Janus goes away, and brings their media back when it returns',
    async () => {
      const roomId = freshRoomId();
      const ada = await join(roomId, { name: 'Ada', role: 'teacher' });
      const bob = await join(roomId, { name: 'Bob' });
      await ada.client.waitFor('participant-joined');
      await janus.kill();
      for (const person of [ada, bob]) await person.client.waitFor('sfu-moving', undefined, 15_000);
      janus = await startOurJanus();
      for (const person of [ada, bob]) {
        await person.client.waitFor('sfu-moved', undefined, 30_000);
        person.client.send({ type: 'sfu-publish', sdp: publishingOffer(), slots: OFFER_SLOTS });
        await person.client.waitFor('sfu-published', undefined, 15_000);
      }
      // Nobody was closed: the same sockets still carry the room.
      expect([ada, bob].map((person) => person.client.socket.readyState)).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
      expect(ada.client.received('participant-left')).toEqual([]);
      expect((await gateway.participantsOf(janusRoomId(roomId))).sort()).toEqual(
        [ada.welcome.you.id, bob.welcome.you.id].sort(),
      );
    },
    patience(90_000),
  );
});
