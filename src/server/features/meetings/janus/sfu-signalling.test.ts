/**
 * The meeting socket of an app whose rooms go through Janus (decision 037), with real WebSockets
 * and a real Janus started from deploy/janus (skipped without the binary, as in
 * janus-gateway.test.ts; JANUS_REQUIRED=1 there makes its absence fail). Media itself needs a
 * browser: tests/e2e/meetings-janus.spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES } from '#shared/meetings';
import { isJanusInstalled, startJanus, type JanusProcess } from '../../../../../scripts/janus.ts';
import {
  ALL_ON,
  accountMeetingToken,
  freshRoomId,
  MeetingTestClient,
  type MeetingPerson,
} from '../../../realtime/meeting-test-client.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { freePort } from '../../../testing/server-process.ts';
import { JanusGateway, type JanusLogger } from './janus-gateway.ts';
import { createJanusRooms } from './janus-rooms.ts';

const quietLogger: JanusLogger = { info: () => {}, warn: () => {} };

/** An app whose meetings go through `gateway`, listening on a free port. */
async function appThrough(gateway: JanusGateway) {
  const t = await createTestApp({ meetings: { sfu: createJanusRooms([gateway]), roomSize: 30 } });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, baseUrl };
}

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

  beforeAll(async () => {
    const apiSecret = randomBytes(18).toString('hex');
    janus = await startJanus({ port: await freePort(), host: '127.0.0.1', apiSecret, rtpPortRange: '41000-41099' });
    gateway = new JanusGateway({ url: janus.url, apiSecret, logger: quietLogger });
    await gateway.start();
    await gateway.whenStatus('connected');
    ({ t, baseUrl } = await appThrough(gateway));
  }, 30_000);
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

  it('closes every SFU participant with MEDIA_UNAVAILABLE when Janus goes away', async () => {
    const roomId = freshRoomId();
    const ada = await join(roomId, { name: 'Ada', role: 'teacher' });
    await janus.kill();
    expect((await ada.client.closedWithin(15_000)).code).toBe(CLOSE_CODES.MEDIA_UNAVAILABLE);
  }, 30_000);
});
