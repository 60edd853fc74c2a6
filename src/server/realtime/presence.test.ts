import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { roomPresence, type PresenceEntry, type PresenceEvent, type PresenceOperation } from './presence.ts';
import { roomChannel, type PubSub } from './pubsub.ts';
import { busesPerTest, contractBuses, listen, redisBuses, TEST_REDIS_URL } from './test-buses.ts';

/**
 * The room layer's presence (decision 065) as any protocol gets it: seats with a limit, one per
 * person, resumed seats, seats of one instance, removals, locks and a protocol's own operation;
 * in-process and (with TEST_REDIS_URL) on a real Redis, where two buses are two instances.
 */

type Entry = PresenceEntry & { name: string; score: number };

const SCOPE = 'test-game';

const entry = (overrides: Partial<Entry> = {}): Entry => ({
  id: `p-${randomUUID().slice(0, 12)}`,
  userId: randomUUID(),
  instanceId: 'instance-a',
  host: false,
  name: 'Ada',
  score: 0,
  ...overrides,
});

/** A protocol's own operation: adds to one seat's score and publishes it, atomically with the seats. */
const addScore = (participantId: string, points: number): PresenceOperation<Entry, number | null> => ({
  lua: `
local stored = redis.call('HGET', members, ARGV[2])
if not stored then return false end
local seat = cjson.decode(stored)
seat.score = seat.score + tonumber(ARGV[3])
redis.call('HSET', members, ARGV[2], cjson.encode(seat))
local seq = redis.call('INCR', sequence)
redis.call('PUBLISH', channel, cjson.encode({kind = 'score', seq = seq, participantId = ARGV[2], score = seat.score}))
return seat.score
`,
  args: [participantId, points],
  read: (reply) => (reply === null ? null : Number(reply)),
  local(room) {
    const seat = room.members.get(participantId);
    if (!seat) return null;
    const score = seat.score + points;
    room.members.set(participantId, { ...seat, score });
    room.publish({ kind: 'score', seq: room.nextSeq(), participantId, score });
    return score;
  },
});

type Event = PresenceEvent<Entry> | { kind: 'score'; seq: number; participantId: string; score: number };

/** Every event on a room's channel, parsed. */
async function listenToRoom(bus: PubSub, roomId: string) {
  const listened = await listen<Event>(bus, roomChannel(SCOPE, roomId));
  return { events: listened.messages, waitFor: listened.waitFor };
}

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

const kinds = contractBuses(buses);

describe.each(kinds)('presence on the %s bus', (_kind, { createBus, isShared }) => {
  const open = busesPerTest(createBus);

  it('keeps each protocol to its own rooms: the same room id in another scope is another room', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const game = roomPresence<Entry>(bus, SCOPE);
    const board = roomPresence<Entry>(bus, 'test-board');
    expect(await game.claim(roomId, entry(), 1)).toMatchObject({ outcome: 'joined' });
    expect(await board.claim(roomId, entry(), 1)).toMatchObject({ outcome: 'joined', others: [] });
    expect(await game.claim(roomId, entry(), 1)).toEqual({ outcome: 'full' });
  });

  it('takes a seat back for the same user and id: the same seat, new data and instance, `resumed` and no leave or join', async () => {
    const bus = await open();
    const presence = roomPresence<Entry>(bus, SCOPE);
    const roomId = `r-${randomUUID()}`;
    const listened = await listenToRoom(bus, roomId);
    const ada = entry({ name: 'Ada' });
    const bob = entry({ name: 'Bob' });
    await presence.claim(roomId, ada, 2);
    await presence.claim(roomId, bob, 2);

    // Ada's page comes back through another instance with a fresh id, asking for her seat.
    const comeback = entry({ userId: ada.userId, name: 'Ada L.', instanceId: 'instance-b' });
    const claim = await presence.claim(roomId, comeback, 2, { resumeId: ada.id });
    expect(claim).toEqual({ outcome: 'joined', seq: expect.any(Number), others: [bob], locked: false, resumed: true });
    const events = await listened.waitFor(3);
    expect(events[2]).toEqual({
      kind: 'resumed',
      seq: (claim as { seq: number }).seq,
      participant: { ...comeback, id: ada.id },
    });
    // Still two seats: a third person finds the room full.
    expect(await presence.claim(roomId, entry(), 2)).toEqual({ outcome: 'full' });
  });

  it("never hands someone else's seat over: a resume by another user, or of a seat gone, is a new seat", async () => {
    const bus = await open();
    const presence = roomPresence<Entry>(bus, SCOPE);
    const roomId = `r-${randomUUID()}`;
    const ada = entry();
    await presence.claim(roomId, ada, 3);
    const mallory = entry();
    const claim = await presence.claim(roomId, mallory, 3, { resumeId: ada.id });
    expect(claim).toEqual({ outcome: 'joined', seq: expect.any(Number), others: [ada], locked: false });

    await presence.release(roomId, ada.id, 'left');
    const late = entry({ userId: ada.userId });
    expect(await presence.claim(roomId, late, 3, { resumeId: ada.id })).toMatchObject({ outcome: 'joined' });
    expect(await presence.refresh(roomId, [late.id, ada.id])).toEqual([ada.id]);
  });

  it("leaves another instance's seat alone: release and heartbeat go by the holder", async () => {
    const first = await open();
    const second = isShared ? await open() : first;
    const roomId = `r-${randomUUID()}`;
    const onFirst = roomPresence<Entry>(first, SCOPE);
    const onSecond = roomPresence<Entry>(second, SCOPE);
    const ada = entry({ instanceId: 'instance-a' });
    await onFirst.claim(roomId, ada, 3);
    // Resumed on the second instance: the first one's late release and heartbeat change nothing.
    await onSecond.claim(roomId, { ...ada, id: 'fresh-id-1', instanceId: 'instance-b' }, 3, { resumeId: ada.id });
    expect(await onFirst.refresh(roomId, [ada.id], { instanceId: 'instance-a' })).toEqual([ada.id]);
    await onFirst.release(roomId, ada.id, 'timeout', { instanceId: 'instance-a' });
    expect(await onSecond.refresh(roomId, [ada.id], { instanceId: 'instance-b' })).toEqual([]);
    // Its holder gives it back.
    await onSecond.release(roomId, ada.id, 'left', { instanceId: 'instance-b' });
    expect(await onSecond.refresh(roomId, [ada.id])).toEqual([ada.id]);
  });

  it('removes a person for a while (not a host), and admits only hosts and those inside to a locked room', async () => {
    const bus = await open();
    const presence = roomPresence<Entry>(bus, SCOPE);
    const roomId = `r-${randomUUID()}`;
    const host = entry({ host: true });
    const ada = entry();
    const bob = entry();
    await presence.claim(roomId, host, 5);
    await presence.claim(roomId, ada, 5);
    await presence.claim(roomId, bob, 5);
    expect(await presence.remove(roomId, host.id, 60_000)).toBe('host');
    expect(await presence.remove(roomId, bob.id, 60_000)).toBe('removed');
    expect(await presence.remove(roomId, bob.id, 60_000)).toBe('gone');
    expect(await presence.claim(roomId, entry({ userId: bob.userId }), 5)).toEqual({ outcome: 'removed' });

    await presence.setLocked(roomId, true, 'Teacher');
    expect(await presence.claim(roomId, entry(), 5)).toEqual({ outcome: 'locked' });
    expect(await presence.claim(roomId, entry({ userId: ada.userId }), 5)).toMatchObject({ locked: true });
    expect(await presence.claim(roomId, entry({ host: true }), 5)).toMatchObject({ outcome: 'joined' });
    await presence.setLocked(roomId, false, 'Teacher');
    expect(await presence.claim(roomId, entry(), 5)).toMatchObject({ outcome: 'joined', locked: false });
  });

  it("runs a protocol's own operation atomically with the seats, numbered on the room's sequence", async () => {
    const bus = await open();
    const presence = roomPresence<Entry>(bus, SCOPE);
    const roomId = `r-${randomUUID()}`;
    const listened = await listenToRoom(bus, roomId);
    const ada = entry();
    await presence.claim(roomId, ada, 3);
    expect(await presence.run(roomId, addScore(ada.id, 300))).toBe(300);
    expect(await presence.run(roomId, addScore(ada.id, 700))).toBe(1000);
    expect(await presence.run(roomId, addScore('nobody-here', 5))).toBeNull();
    const events = await listened.waitFor(3);
    expect(events.slice(1)).toEqual([
      { kind: 'score', seq: events[0]!.seq + 1, participantId: ada.id, score: 300 },
      { kind: 'score', seq: events[0]!.seq + 2, participantId: ada.id, score: 1000 },
    ]);
    // The next joiner's snapshot has it.
    expect(await presence.claim(roomId, entry(), 3)).toMatchObject({ others: [{ ...ada, score: 1000 }] });
  });
});
