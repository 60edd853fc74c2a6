import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, CLOSE_MESSAGES, MEETING_LIMITS, PROTOCOL_VERSION, shouldReconnect } from '#shared/meetings';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  ALL_ON,
  MeetingTestClient,
  accountMeetingToken,
  freshRoomId,
  withAccount,
  type MeetingPerson,
} from './meeting-test-client.ts';
import { BUS_KINDS, redisBuses, TEST_REDIS_URL } from '../../realtime/test-buses.ts';

/**
 * The teacher runs the room (decision 038), end to end over real WebSockets: on the
 * in-process bus and (with TEST_REDIS_URL) on Redis, and across two app instances.
 */

type Instance = { t: TestApp; baseUrl: string };

/** Joins, and the people already there have seen the newcomer. */
function joiner(clients: MeetingTestClient[]) {
  return async (instance: Instance, roomId: string, person: MeetingPerson, others: MeetingTestClient[] = []) => {
    const token = await accountMeetingToken(instance.t.database, roomId, person);
    const joined = await MeetingTestClient.join(instance.baseUrl, token, roomId, ALL_ON);
    clients.push(joined.client);
    for (const other of others) {
      await other.waitFor('participant-joined', (message) => message.participant.id === joined.welcome.you.id);
    }
    return { ...joined, token };
  };
}

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

describe.each(BUS_KINDS)('moderation on the $kind', ({ isRedis }) => {
  let instance: Instance;
  const clients: MeetingTestClient[] = [];
  const join = joiner(clients);

  beforeAll(async () => {
    const t = await createTestApp({
      realtime: { pubsub: isRedis ? await buses!.create() : undefined },
      meetings: { roomSize: 6 },
    });
    instance = { t, baseUrl: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
  });
  afterAll(() => instance.t.close());
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  /** A teacher (host) and two students in a fresh room. */
  async function classroom() {
    const roomId = freshRoomId();
    const teacher = await join(instance, roomId, { name: 'Ms Ada', role: 'teacher' });
    const bob = await join(instance, roomId, { name: 'Bob' }, [teacher.client]);
    const cy = await join(instance, roomId, { name: 'Cy' }, [teacher.client, bob.client]);
    return { roomId, teacher, bob, cy };
  }

  it('marks hosts in the welcome and seats a student muted whatever the page asked', async () => {
    const { teacher, bob } = await classroom();
    expect(teacher.welcome.you).toMatchObject({ host: true, hand: null, media: ALL_ON });
    expect(bob.welcome.you).toMatchObject({ host: false, hand: null, media: { ...ALL_ON, mic: false } });
    expect(bob.welcome.participants).toEqual([teacher.welcome.you]);
    expect(teacher.welcome.locked).toBe(false);
  });

  it('tells only the target of a mute or a stopped camera, and a mute-all reaches every student but not hosts', async () => {
    const { teacher, bob, cy } = await classroom();
    const coTeacher = await join(instance, teacher.welcome.roomId, { name: 'Mr Co', role: 'teacher' }, [
      teacher.client,
      bob.client,
      cy.client,
    ]);
    teacher.client.send({ type: 'mute', participantId: bob.welcome.you.id });
    expect(await bob.client.waitFor('moderated')).toEqual({ type: 'moderated', action: 'mute', by: 'Ms Ada' });
    teacher.client.send({ type: 'stop-camera', participantId: cy.welcome.you.id });
    expect(await cy.client.waitFor('moderated')).toEqual({ type: 'moderated', action: 'stop-camera', by: 'Ms Ada' });
    teacher.client.send({ type: 'mute-all' });
    expect(await bob.client.waitFor('moderated')).toMatchObject({ action: 'mute' });
    expect(await cy.client.waitFor('moderated')).toMatchObject({ action: 'mute' });
    // A chat after the moderation has gone round: nothing more arrived anywhere.
    teacher.client.send({ type: 'chat', text: 'done' });
    for (const client of [teacher.client, bob.client, cy.client, coTeacher.client]) await client.waitFor('chat');
    expect(bob.client.received('moderated')).toEqual([]);
    expect(cy.client.received('moderated')).toEqual([]);
    expect(teacher.client.received('moderated')).toEqual([]);
    expect(coTeacher.client.received('moderated')).toEqual([]);
  });

  it("refuses a student's moderation with an error, changes nothing and keeps the socket", async () => {
    const { roomId, teacher, bob, cy } = await classroom();
    for (const message of [
      { type: 'mute', participantId: cy.welcome.you.id },
      { type: 'mute-all' },
      { type: 'stop-camera', participantId: teacher.welcome.you.id },
      { type: 'remove', participantId: cy.welcome.you.id },
      { type: 'lock', locked: true },
      { type: 'lower-hands' },
    ]) {
      bob.client.send(message);
      expect(await bob.client.waitFor('error')).toEqual({
        type: 'error',
        code: 'NOT_A_HOST',
        message: "Only the class's teachers can do this in a meeting.",
      });
    }
    bob.client.send({ type: 'chat', text: 'still here' });
    await cy.client.waitFor('chat');
    expect(cy.client.received('moderated')).toEqual([]);
    expect(cy.client.received('participant-left')).toEqual([]);
    expect(teacher.client.received('room-lock')).toEqual([]);
    // The room is not locked: a late student gets in.
    await join(instance, roomId, { name: 'Dee' });
  });

  it('removes a student: REMOVED, no reconnect, the same token and a fresh one cannot rejoin; hosts cannot be removed', async () => {
    const { roomId, teacher, bob, cy } = await classroom();
    const bobAccount = await withAccount(instance.t.database, { name: 'Bob2' });
    const bob2 = await join(instance, roomId, bobAccount, [teacher.client, bob.client, cy.client]);
    teacher.client.send({ type: 'remove', participantId: bob2.welcome.you.id });
    const closed = await bob2.client.closedWithin();
    expect(closed).toEqual({ code: CLOSE_CODES.REMOVED, reason: CLOSE_MESSAGES.REMOVED });
    expect(shouldReconnect(closed.code)).toBe(false);
    for (const client of [teacher.client, cy.client]) {
      expect(await client.waitFor('participant-left')).toEqual({
        type: 'participant-left',
        participantId: bob2.welcome.you.id,
        reason: 'removed',
      });
    }
    for (const token of [bob2.token, await accountMeetingToken(instance.t.database, roomId, bobAccount)]) {
      const again = await MeetingTestClient.connect(instance.baseUrl, token);
      clients.push(again);
      again.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
      expect(await again.closedWithin()).toEqual({ code: CLOSE_CODES.REMOVED, reason: CLOSE_MESSAGES.REMOVED });
    }
    // Another room of the class is not affected.
    await join(instance, freshRoomId(), bobAccount);

    const coTeacher = await join(instance, roomId, { name: 'Mr Co', role: 'teacher' }, [teacher.client]);
    teacher.client.send({ type: 'remove', participantId: coTeacher.welcome.you.id });
    expect(await teacher.client.waitFor('error')).toMatchObject({
      message: expect.stringContaining('cannot be removed'),
    });
    expect(coTeacher.client.socket.readyState).toBe(coTeacher.client.socket.OPEN);
  });

  it('locks the room: everyone is told, a student is refused with ROOM_LOCKED, a host gets in; unlocking reopens it', async () => {
    const { roomId, teacher, bob } = await classroom();
    teacher.client.send({ type: 'lock', locked: true });
    for (const client of [teacher.client, bob.client]) {
      expect(await client.waitFor('room-lock')).toEqual({ type: 'room-lock', locked: true, by: 'Ms Ada' });
    }
    const late = await MeetingTestClient.connect(
      instance.baseUrl,
      await accountMeetingToken(instance.t.database, roomId, { name: 'Late' }),
    );
    clients.push(late);
    late.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
    const closed = await late.closedWithin();
    expect(closed).toEqual({ code: CLOSE_CODES.ROOM_LOCKED, reason: CLOSE_MESSAGES.ROOM_LOCKED });
    expect(shouldReconnect(closed.code)).toBe(false);

    // Bob was in the room when it was locked: his page reconnecting (a reload, a new network, the
    // video server's failover) lets him back in.
    bob.client.close();
    await teacher.client.waitFor('participant-left');
    const bobAgain = await MeetingTestClient.join(instance.baseUrl, bob.token, roomId, ALL_ON);
    clients.push(bobAgain.client);
    expect(bobAgain.welcome.locked).toBe(true);

    const coTeacher = await join(instance, roomId, { name: 'Mr Co', role: 'teacher' });
    expect(coTeacher.welcome.locked).toBe(true);

    teacher.client.send({ type: 'lock', locked: false });
    expect(await bobAgain.client.waitFor('room-lock')).toMatchObject({ locked: false });
    const dee = await join(instance, roomId, { name: 'Dee' });
    expect(dee.welcome.locked).toBe(false);
  });

  it('keeps the lock while anyone is in: a host alone joining again (another tab) finds it locked; an empty room opens', async () => {
    const roomId = freshRoomId();
    const host = await withAccount(instance.t.database, { name: 'Ms Ada', role: 'teacher' });
    const first = await join(instance, roomId, host);
    first.client.send({ type: 'lock', locked: true });
    await first.client.waitFor('room-lock');
    const second = await join(instance, roomId, host);
    expect(second.welcome.locked).toBe(true);
    expect((await first.client.closedWithin()).code).toBe(CLOSE_CODES.REPLACED);
    const refused = await MeetingTestClient.connect(
      instance.baseUrl,
      await accountMeetingToken(instance.t.database, roomId, { name: 'Late' }),
    );
    clients.push(refused);
    refused.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
    expect((await refused.closedWithin()).code).toBe(CLOSE_CODES.ROOM_LOCKED);
    second.client.send({ type: 'leave' });
    await second.client.closedWithin();
    const student = await join(instance, roomId, { name: 'Bob' });
    expect(student.welcome.locked).toBe(false);
  });

  it('raises and lowers hands in order, seen by all and by a later joiner; a host lowers them all', async () => {
    const { roomId, teacher, bob, cy } = await classroom();
    const everyone = [teacher.client, bob.client, cy.client];
    cy.client.send({ type: 'hand', raised: true });
    const cyHand = await teacher.client.waitFor('hand');
    expect(cyHand).toEqual({ type: 'hand', participantId: cy.welcome.you.id, hand: expect.any(Number) });
    bob.client.send({ type: 'hand', raised: true });
    const bobHand = await teacher.client.waitFor('hand');
    expect(bobHand.hand!).toBeGreaterThan(cyHand.hand!);
    // Raising again keeps one's place.
    cy.client.send({ type: 'hand', raised: true });
    expect(await teacher.client.waitFor('hand')).toEqual(cyHand);
    for (const client of [bob.client, cy.client]) {
      await client.waitFor('hand', (message) => message.participantId === bob.welcome.you.id);
    }

    const dee = await join(instance, roomId, { name: 'Dee' }, everyone);
    const hands = Object.fromEntries(dee.welcome.participants.map((person) => [person.name, person.hand]));
    expect(hands).toEqual({ 'Ms Ada': null, Bob: bobHand.hand, Cy: cyHand.hand });

    bob.client.send({ type: 'hand', raised: false });
    expect(await cy.client.waitFor('hand', (message) => message.hand === null)).toMatchObject({
      participantId: bob.welcome.you.id,
    });
    teacher.client.send({ type: 'lower-hands' });
    for (const client of [...everyone, dee.client]) {
      expect(await client.waitFor('hands-lowered')).toEqual({ type: 'hands-lowered', by: 'Ms Ada' });
    }
    const eve = await join(instance, roomId, { name: 'Eve' });
    expect(eve.welcome.participants.every((person) => person.hand === null)).toBe(true);
  });

  it('refuses hand changes beyond a small budget, keeps the socket, and shows only those within it', async () => {
    const { teacher, bob } = await classroom();
    const changes = MEETING_LIMITS.handBurst + 4;
    for (let change = 0; change < changes; change += 1) bob.client.send({ type: 'hand', raised: change % 2 === 0 });
    expect(await bob.client.waitFor('error')).toEqual({
      type: 'error',
      code: 'HAND_TOO_FAST',
      message: 'You are raising and lowering your hand too quickly. Wait a moment.',
    });
    // A chat line after the burst arrives after every hand change the server let through.
    bob.client.send({ type: 'chat', text: 'still here' });
    await teacher.client.waitFor('chat');
    expect(teacher.client.received('hand')).toHaveLength(MEETING_LIMITS.handBurst);
  });
});

describe.skipIf(!TEST_REDIS_URL)('moderation across two app instances on one Redis', () => {
  const shared = TEST_REDIS_URL ? redisBuses() : undefined;
  let first: Instance;
  let second: Instance;
  const clients: MeetingTestClient[] = [];
  const join = joiner(clients);

  async function startInstance(): Promise<Instance> {
    const t = await createTestApp({ realtime: { pubsub: await shared!.create() }, meetings: { roomSize: 6 } });
    return { t, baseUrl: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
  }
  beforeAll(async () => {
    [first, second] = await Promise.all([startInstance(), startInstance()]);
  });
  afterAll(async () => {
    await Promise.all([first?.t.close(), second?.t.close()]);
    await shared?.cleanUp();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('a lock set on one instance refuses a student on the other and admits a host there', async () => {
    const roomId = freshRoomId();
    const teacher = await join(first, roomId, { name: 'Ms Ada', role: 'teacher' });
    teacher.client.send({ type: 'lock', locked: true });
    await teacher.client.waitFor('room-lock');
    const late = await MeetingTestClient.connect(
      second.baseUrl,
      await accountMeetingToken(second.t.database, roomId, { name: 'Late' }),
    );
    clients.push(late);
    late.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
    expect((await late.closedWithin()).code).toBe(CLOSE_CODES.ROOM_LOCKED);
    const coTeacher = await join(second, roomId, { name: 'Mr Co', role: 'teacher' });
    expect(coTeacher.welcome.locked).toBe(true);
  });

  it('a student removed on one instance is closed on the other and cannot rejoin on either', async () => {
    const roomId = freshRoomId();
    const teacher = await join(first, roomId, { name: 'Ms Ada', role: 'teacher' });
    const bobAccount = await withAccount(second.t.database, { name: 'Bob' });
    await withAccount(first.t.database, bobAccount);
    const bob = await join(second, roomId, bobAccount, [teacher.client]);
    teacher.client.send({ type: 'remove', participantId: bob.welcome.you.id });
    expect((await bob.client.closedWithin()).code).toBe(CLOSE_CODES.REMOVED);
    for (const instance of [first, second]) {
      const again = await MeetingTestClient.connect(instance.baseUrl, bob.token);
      clients.push(again);
      again.send({ type: 'join', protocolVersion: PROTOCOL_VERSION, roomId, media: ALL_ON });
      expect((await again.closedWithin()).code).toBe(CLOSE_CODES.REMOVED);
    }
  });
});
