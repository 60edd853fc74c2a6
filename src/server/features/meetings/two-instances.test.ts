import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, PROTOCOL_VERSION } from '#shared/meetings';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  ALL_OFF,
  ALL_ON,
  MeetingTestClient,
  freshRoomId,
  accountMeetingToken,
  type MeetingPerson,
} from './meeting-test-client.ts';
import { redisBuses, TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { meetingRoster } from './meeting-roster.ts';

/**
 * Two app instances (two buildApp()s, each with its own database and its own
 * Redis connections) on one Redis namespace, as behind a load balancer: people
 * connected to different instances meet in one room.
 */

const ROOM_SIZE = 2;
// A seat lives 1.5 s without a heartbeat; the instances beat every 250 ms (CI stalls do not expire the living).
const ENTRY_TTL_MS = 1500;
const HEARTBEAT_MS = 250;

describe.skipIf(!TEST_REDIS_URL)('two app instances on one Redis', () => {
  const buses = TEST_REDIS_URL ? redisBuses() : undefined;
  let first: { t: TestApp; baseUrl: string };
  let second: { t: TestApp; baseUrl: string };
  const clients: MeetingTestClient[] = [];

  async function startInstance() {
    const pubsub = await buses!.create({ entryTtlMs: ENTRY_TTL_MS });
    const t = await createTestApp({
      realtime: { pubsub, heartbeatMs: HEARTBEAT_MS },
      meetings: { roomSize: ROOM_SIZE },
    });
    return { t, baseUrl: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
  }

  beforeAll(async () => {
    [first, second] = await Promise.all([startInstance(), startInstance()]);
  });
  afterAll(async () => {
    await Promise.all([first?.t.close(), second?.t.close()]);
    await buses?.cleanUp();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  /** Each instance has its own database: the person's account is made where they connect. */
  const tokenOn = (instance: { t: TestApp }, roomId: string, person: MeetingPerson) =>
    accountMeetingToken(instance.t.database, roomId, person);

  async function join(instance: { t: TestApp; baseUrl: string }, roomId: string, person: MeetingPerson) {
    const joined = await MeetingTestClient.join(instance.baseUrl, await tokenOn(instance, roomId, person), roomId);
    clients.push(joined.client);
    return joined;
  }

  it('lets a participant on each instance meet the other: join, relayed offer, chat, media state, leave', async () => {
    const roomId = freshRoomId();
    const ada = await join(first, roomId, { name: 'Ada', role: 'teacher' });
    const bob = await join(second, roomId, { name: 'Bob' });

    expect(bob.welcome.participants).toEqual([ada.welcome.you]);
    expect(await ada.client.waitFor('participant-joined')).toMatchObject({ participant: bob.welcome.you });

    bob.client.send({ type: 'offer', to: ada.welcome.you.id, sdp: 'v=0 from the other instance' });
    expect(await ada.client.waitFor('offer')).toEqual({
      type: 'offer',
      from: bob.welcome.you.id,
      sdp: 'v=0 from the other instance',
    });
    ada.client.send({ type: 'answer', to: bob.welcome.you.id, sdp: 'v=0 back' });
    expect(await bob.client.waitFor('answer')).toMatchObject({ from: ada.welcome.you.id, sdp: 'v=0 back' });

    ada.client.send({ type: 'chat', text: 'Can you hear me?' });
    expect(await bob.client.waitFor('chat')).toMatchObject({ name: 'Ada', text: 'Can you hear me?' });

    bob.client.send({ type: 'media-state', state: ALL_OFF });
    expect(await ada.client.waitFor('media-state')).toEqual({
      type: 'media-state',
      from: bob.welcome.you.id,
      state: ALL_OFF,
    });

    bob.client.send({ type: 'leave' });
    expect(await ada.client.waitFor('participant-left')).toMatchObject({
      participantId: bob.welcome.you.id,
      reason: 'left',
    });
  });

  it('holds the room size across instances', async () => {
    const roomId = freshRoomId();
    await join(first, roomId, { name: 'Ada' });
    await join(second, roomId, { name: 'Bob' });
    for (const instance of [first, second]) {
      const late = await MeetingTestClient.connect(instance.baseUrl, await tokenOn(instance, roomId, { name: 'Late' }));
      clients.push(late);
      late.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
      expect((await late.closedWithin()).code).toBe(CLOSE_CODES.ROOM_FULL);
    }
  });

  it('keeps one seat per person across instances: the first socket is closed with REPLACED', async () => {
    const roomId = freshRoomId();
    const person = { name: 'Bob', userId: randomUUID() };
    const ada = await join(first, roomId, { name: 'Ada' });
    const onFirst = await join(first, roomId, person);
    await ada.client.waitFor('participant-joined');
    const onSecond = await join(second, roomId, person);
    expect((await onFirst.client.closedWithin()).code).toBe(CLOSE_CODES.REPLACED);
    expect(onSecond.welcome.participants).toEqual([ada.welcome.you]);
    expect(await ada.client.waitFor('participant-left')).toMatchObject({ reason: 'replaced' });
  });

  it('frees the seats of an instance that died, and tells the room', async () => {
    const roomId = freshRoomId();
    const ada = await join(first, roomId, { name: 'Ada' });
    // A third instance seats someone, then stops for good without a word (no release, no heartbeat).
    const dead = await buses!.create({ entryTtlMs: ENTRY_TTL_MS });
    const ghost = {
      id: 'ghost-participant',
      name: 'Ghost',
      role: 'student' as const,
      media: ALL_ON,
      host: false,
      hand: null,
    };
    await meetingRoster(dead).claim(roomId, { ...ghost, userId: randomUUID(), instanceId: 'dead' }, ROOM_SIZE);
    await dead.close();
    expect(await ada.client.waitFor('participant-joined')).toMatchObject({ participant: ghost });

    expect(await ada.client.waitFor('participant-left')).toEqual({
      type: 'participant-left',
      participantId: ghost.id,
      reason: 'timeout',
    });
    // Ada's own seat was kept alive by her instance's heartbeat meanwhile: the room has one free seat.
    const bob = await join(second, roomId, { name: 'Bob' });
    expect(bob.welcome.participants).toEqual([ada.welcome.you]);
  });
});
