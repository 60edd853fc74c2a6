/**
 * Several Janus servers (decision 037, "Several Janus servers"): two real Janus started from
 * deploy/janus, app instances with real sockets, and, for two instances, a real Redis
 * (TEST_REDIS_URL) holding which server serves each room. Skipped without the janus binary
 * (janus-gateway.test.ts fails instead when JANUS_REQUIRED=1).
 *
 * The participants publish a written SDP offer (sound only, no browser here): enough for Janus to
 * seat them in its room, so its `listparticipants` shows who is on which server. Media itself is
 * tests/e2e/meetings-janus.spec.ts's.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CLOSE_CODES, PROTOCOL_VERSION } from '#shared/meetings';
import { isJanusInstalled, startJanus, type JanusProcess } from '../../../../../scripts/janus.ts';
import {
  ALL_ON,
  accountMeetingToken,
  freshRoomId,
  MeetingTestClient,
  type MeetingPerson,
} from '../meeting-test-client.ts';
import { redisBuses, TEST_REDIS_URL } from '../../../realtime/test-buses.ts';
import { freePort, startServerProcess } from '../../../testing/server-process.ts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { JanusGateway, janusRoomId } from './janus-gateway.ts';
import { createJanusRooms } from './janus-rooms.ts';
import { createRedisRoomServers } from './redis-room-servers.ts';
import type { PubSub } from '../../../realtime/pubsub.ts';
import { createMemoryRoomServers, type RoomServers } from './room-servers.ts';
import { OFFER_SLOTS, publishingOffer } from './janus-testing.ts';
import { patience } from '../../../testing/patience.ts';

/** The limits of this file's slow tests (decision 042). */
const SLOW_TEST = { timeout: patience(30_000) };
const APP_TEST = { timeout: patience(90_000) };

const quietLogger = { info: () => {}, warn: () => {} };
/** Janus's answer to listparticipants for a room it does not hold. */
const NO_SUCH_ROOM = 426;

type Server = { janus: JanusProcess; url: string };

async function startServers(apiSecret: string): Promise<[Server, Server]> {
  const base = 42000 + Math.floor(Math.random() * 80) * 200;
  const start = async (offset: number) => {
    const janus = await startJanus({
      port: await freePort(),
      host: '127.0.0.1',
      apiSecret,
      rtpPortRange: `${base + offset}-${base + offset + 99}`,
    });
    return { janus, url: `${janus.url}/` };
  };
  return Promise.all([start(0), start(100)]);
}

async function connectedGateways(urls: string[], apiSecret: string): Promise<JanusGateway[]> {
  const gateways = urls.map(
    (url) => new JanusGateway({ url, apiSecret, logger: quietLogger, retryDelaysMs: [200, 500, 1000] }),
  );
  await Promise.all(gateways.map((gateway) => gateway.start()));
  await Promise.all(gateways.map((gateway) => gateway.whenStatus('connected')));
  return gateways;
}

/** Our participant ids in a meeting room's Janus room on this server (none: Janus holds no such room). */
async function feedsOn(gateway: JanusGateway, roomId: string): Promise<string[]> {
  try {
    return (await gateway.participantsOf(janusRoomId(roomId))).sort();
  } catch (error) {
    if ((error as { _code?: unknown })._code === NO_SUCH_ROOM) return [];
    throw error;
  }
}

type Instance = { t: TestApp; baseUrl: string; gateways: JanusGateway[] };

/** An app instance whose meetings go through `gateways`, listening on a free port. */
async function startInstance(
  gateways: JanusGateway[],
  shared: { roomServers: RoomServers; pubsub?: PubSub },
): Promise<Instance> {
  const t = await createTestApp({
    realtime: { pubsub: shared.pubsub },
    meetings: { sfu: createJanusRooms(gateways, shared.roomServers), roomSize: 30 },
  });
  return { t, baseUrl: await t.app.listen({ port: 0, host: '127.0.0.1' }), gateways };
}

/** The people of a test, closed after it. */
function people() {
  const clients: MeetingTestClient[] = [];
  return {
    async join(instance: Instance, roomId: string, person: MeetingPerson = {}) {
      const token = await accountMeetingToken(instance.t.database, roomId, person);
      const joined = await MeetingTestClient.join(instance.baseUrl, token, roomId);
      clients.push(joined.client);
      return { ...joined, id: joined.welcome.you.id };
    },
    /** Joins and publishes: Janus then lists the person in the room on its server. */
    async joinAndPublish(instance: Instance, roomId: string, person: MeetingPerson = {}) {
      const joined = await this.join(instance, roomId, person);
      joined.client.send({ type: 'sfu-publish', sdp: publishingOffer(), slots: OFFER_SLOTS });
      await joined.client.waitFor('sfu-published');
      return joined;
    },
    async closeAll() {
      const open = clients.splice(0);
      for (const client of open) client.close();
      await Promise.all(open.map((client) => client.closed));
    },
  };
}

/** Where a room's people are: the servers (by index) whose Janus room lists them, and who is listed. */
async function whereIs(gateways: JanusGateway[], roomId: string) {
  const feeds = await Promise.all(gateways.map((gateway) => feedsOn(gateway, roomId)));
  const servers = feeds.flatMap((listed, index) => (listed.length > 0 ? [index] : []));
  return { servers, feeds: feeds.flat().sort() };
}

/** Its media moved to the room's new server: told so, it publishes again, and Janus answers. */
async function expectMoved(person: { client: MeetingTestClient }) {
  await person.client.waitFor('sfu-moving', undefined, 15_000);
  await person.client.waitFor('sfu-moved', undefined, 30_000);
  person.client.send({ type: 'sfu-publish', sdp: publishingOffer(), slots: OFFER_SLOTS });
  await person.client.waitFor('sfu-published', undefined, 15_000);
}

/** A join that is refused: the close code. */
async function refusedJoin(instance: Instance, roomId: string, person: MeetingPerson) {
  const client = await MeetingTestClient.connect(
    instance.baseUrl,
    await accountMeetingToken(instance.t.database, roomId, person),
  );
  client.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
  return (await client.closedWithin(15_000)).code;
}

/** The socket still carries the room: its own chat line comes back. */
async function expectStillIn(client: MeetingTestClient, text: string) {
  expect(client.socket.readyState).toBe(WebSocket.OPEN);
  client.send({ type: 'chat', text });
  expect((await client.waitFor('chat', (message) => message.text === text)).text).toBe(text);
}

describe.runIf(isJanusInstalled())('one instance, two Janus servers', SLOW_TEST, () => {
  const apiSecret = randomBytes(18).toString('hex');
  let servers: [Server, Server];
  let instance: Instance;
  const roomServers = createMemoryRoomServers();
  const room = people();

  beforeAll(async () => {
    servers = await startServers(apiSecret);
    const urls = servers.map((server) => server.url);
    instance = await startInstance(await connectedGateways(urls, apiSecret), { roomServers });
  }, patience(90_000));
  afterAll(async () => {
    await instance?.t.close();
    await Promise.all(instance?.gateways.map((gateway) => gateway.close()) ?? []);
    await Promise.all(servers?.map((server) => server.janus.stop()) ?? []);
  });
  afterEach(async () => {
    await room.closeAll();
    // Every room let go: the next test's rooms are chosen among servers with no rooms.
    await expect.poll(() => roomServers.roomsPerServer()).toEqual({});
  });

  it('connects the app, as `npm start` runs it, to every Janus in JANUS_URL', APP_TEST, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'studyhall-several-janus-'));
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      JANUS_URL: servers.map((janus) => janus.janus.url).join(' , '),
      JANUS_API_SECRET: apiSecret,
      // With Redis, the room-to-server record goes there (nothing is written until a meeting).
      ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}),
      LOG_LEVEL: 'info',
    });
    try {
      const connected = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('"msg":"janus connected"'));
      await expect.poll(() => connected().length, { timeout: patience(15_000) }).toBe(2);
      for (const janus of servers) expect(connected().join('\n')).toContain(janus.url);
      expect(server.output()).not.toMatch(/janus unreachable/);
    } finally {
      expect(await server.stop()).toBe(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('puts a room’s people on one server and the next room on the other', async () => {
    const first = freshRoomId();
    const ada = await room.joinAndPublish(instance, first, { name: 'Ada', role: 'teacher' });
    const bob = await room.joinAndPublish(instance, first, { name: 'Bob' });
    expect(await whereIs(instance.gateways, first)).toEqual({ servers: [0], feeds: [ada.id, bob.id].sort() });
    const second = freshRoomId();
    const cy = await room.joinAndPublish(instance, second, { name: 'Cy', role: 'teacher' });
    expect(await whereIs(instance.gateways, second)).toEqual({ servers: [1], feeds: [cy.id] });
  });

  it(
    'moves a room whose Janus dies to the other, with its lock, removals and hands, nobody closed',
    async () => {
      const [onFirst, onSecond] = [freshRoomId(), freshRoomId()];
      const ada = await room.joinAndPublish(instance, onFirst, { name: 'Ada', role: 'teacher' });
      const bob = await room.joinAndPublish(instance, onFirst, { name: 'Bob' });
      const cyUserId = randomUUID();
      const cy = await room.join(instance, onFirst, { name: 'Cy', userId: cyUserId });
      const dee = await room.joinAndPublish(instance, onSecond, { name: 'Dee' });
      expect((await whereIs(instance.gateways, onFirst)).servers).toEqual([0]);
      expect((await whereIs(instance.gateways, onSecond)).servers).toEqual([1]);
      // The teacher runs the room: Bob's hand is up, Cy is removed, the room is locked.
      bob.client.send({ type: 'hand', raised: true });
      await ada.client.waitFor('hand', (message) => message.participantId === bob.id && message.hand !== null);
      ada.client.send({ type: 'remove', participantId: cy.id });
      expect((await cy.client.closedWithin()).code).toBe(CLOSE_CODES.REMOVED);
      await ada.client.waitFor('participant-left', (message) => message.participantId === cy.id);
      ada.client.send({ type: 'lock', locked: true });
      await bob.client.waitFor('room-lock');

      await servers[0].janus.kill();
      // Ada and Bob keep their sockets and seats; their media comes back on the Janus that works.
      for (const person of [ada, bob]) await expectMoved(person);
      expect(await feedsOn(instance.gateways[1]!, onFirst)).toEqual([ada.id, bob.id].sort());
      await expectStillIn(ada.client, 'still here');
      await expectStillIn(dee.client, 'Dee is still here');
      expect(dee.client.received('sfu-moving')).toEqual([]);
      expect(ada.client.received('participant-left')).toEqual([]);

      // The room's state came along: Cy is still out, a newcomer is kept out, and a teacher who
      // joins finds the room locked with Bob's hand up.
      expect(await refusedJoin(instance, onFirst, { name: 'Cy', userId: cyUserId })).toBe(CLOSE_CODES.REMOVED);
      expect(await refusedJoin(instance, onFirst, { name: 'Eve' })).toBe(CLOSE_CODES.ROOM_LOCKED);
      const fay = await room.join(instance, onFirst, { name: 'Fay', role: 'teacher' });
      expect(fay.welcome.locked).toBe(true);
      expect(fay.welcome.participants.find((participant) => participant.id === bob.id)?.hand).not.toBeNull();
    },
    patience(90_000),
  );
});

describe.runIf(isJanusInstalled() && TEST_REDIS_URL)('two instances sharing two Janus servers through Redis', () => {
  const apiSecret = randomBytes(18).toString('hex');
  const buses = TEST_REDIS_URL ? redisBuses() : undefined;
  let servers: [Server, Server];
  /** `first` lists the servers in one order, `second` in the other: alone, each would choose its own. */
  let first: Instance;
  let second: Instance;
  const stores: RoomServers[] = [];
  const room = people();

  async function instanceOn(urls: string[]) {
    const roomServers = await createRedisRoomServers({ url: TEST_REDIS_URL!, namespace: buses!.namespace });
    stores.push(roomServers);
    return startInstance(await connectedGateways(urls, apiSecret), { roomServers, pubsub: await buses!.create() });
  }

  beforeAll(async () => {
    servers = await startServers(apiSecret);
    const urls = servers.map((server) => server.url);
    [first, second] = await Promise.all([instanceOn(urls), instanceOn([...urls].reverse())]);
  }, patience(90_000));
  afterAll(async () => {
    await Promise.all([first, second].map((instance) => instance?.t.close()));
    await Promise.all(
      [first, second].flatMap((instance) => instance?.gateways.map((gateway) => gateway.close()) ?? []),
    );
    await Promise.all(stores.map((store) => store.close()));
    await buses?.cleanUp();
    await Promise.all(servers?.map((server) => server.janus.stop()) ?? []);
  });
  afterEach(async () => {
    await room.closeAll();
    // Every room let go: the next test's rooms are chosen among servers with no rooms.
    await expect.poll(() => stores[0]!.roomsPerServer()).toEqual({});
  });

  it('seats people who join one room through different instances in one Janus room', async () => {
    const roomId = freshRoomId();
    const ada = await room.joinAndPublish(first, roomId, { name: 'Ada', role: 'teacher' });
    const bob = await room.joinAndPublish(second, roomId, { name: 'Bob' });
    const cy = await room.joinAndPublish(second, roomId, { name: 'Cy' });
    expect(await whereIs(first.gateways, roomId)).toEqual({ servers: [0], feeds: [ada.id, bob.id, cy.id].sort() });
    // The next room goes to the other server, whichever instance starts it.
    const other = freshRoomId();
    const dee = await room.joinAndPublish(first, other, { name: 'Dee' });
    expect(await whereIs(first.gateways, other)).toEqual({ servers: [1], feeds: [dee.id] });
  });

  it('agrees on one server when a room’s first people join both instances at the same moment', async () => {
    for (let round = 0; round < 4; round++) {
      const roomId = freshRoomId();
      const [ada, bob] = await Promise.all([
        room.joinAndPublish(first, roomId, { name: 'Ada' }),
        room.joinAndPublish(second, roomId, { name: 'Bob' }),
      ]);
      const where = await whereIs(first.gateways, roomId);
      expect(where.servers).toHaveLength(1);
      expect(where.feeds).toEqual([ada.id, bob.id].sort());
    }
  });

  it(
    'moves, on both instances, only the people of the rooms on a Janus that dies, nobody closed',
    async () => {
      const [onFirst, onSecond] = [freshRoomId(), freshRoomId()];
      const ada = await room.joinAndPublish(first, onFirst, { name: 'Ada' });
      const bob = await room.joinAndPublish(second, onFirst, { name: 'Bob' });
      const cy = await room.joinAndPublish(first, onSecond, { name: 'Cy' });
      const dee = await room.joinAndPublish(second, onSecond, { name: 'Dee' });
      expect((await whereIs(first.gateways, onFirst)).servers).toEqual([0]);
      expect((await whereIs(first.gateways, onSecond)).servers).toEqual([1]);

      await servers[0].janus.kill();
      // Their room, held through both instances, moves once both have let the dead Janus go.
      await Promise.all([ada, bob].map((person) => expectMoved(person)));
      expect(await feedsOn(first.gateways[1]!, onFirst)).toEqual([ada.id, bob.id].sort());
      await expectStillIn(ada.client, 'Ada is still here');
      await expectStillIn(bob.client, 'Bob is still here');
      await expectStillIn(cy.client, 'Cy is still here');
      await expectStillIn(dee.client, 'Dee is still here');
      expect([...cy.client.received('sfu-moving'), ...dee.client.received('sfu-moving')]).toEqual([]);
    },
    patience(90_000),
  );
});
