import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MediaState } from '#shared/meetings';
import { freshNamespace, redisBuses, TEST_REDIS_URL } from './test-buses.ts';
import {
  createInProcessPubSub,
  createPubSub,
  roomChannel,
  type PubSub,
  type RosterEntry,
  type RosterEvent,
} from './pubsub.ts';
import { createRedisPubSub } from './redis-pubsub.ts';
import { patience } from '../testing/patience.ts';

/** One contract, two buses: what the hub relies on, in-process and (with TEST_REDIS_URL) on a real Redis. */

const OFF: MediaState = { mic: false, camera: false, screen: false };

const entry = (overrides: Partial<RosterEntry> = {}): RosterEntry => ({
  id: `p-${randomUUID().slice(0, 12)}`,
  name: 'Ada',
  role: 'student',
  media: OFF,
  host: false,
  hand: null,
  userId: randomUUID(),
  instanceId: 'instance-a',
  ...overrides,
});

/** Everything published on a channel, parsed, with a way to wait for a count. */
async function listen(bus: PubSub, channel: string) {
  const messages: unknown[] = [];
  const unsubscribe = await bus.subscribe(channel, (message) => messages.push(JSON.parse(message)));
  return {
    messages,
    unsubscribe,
    async waitFor(count: number) {
      const deadline = Date.now() + patience(3000);
      while (messages.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${messages.length} of ${count} messages: ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return messages;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

/** `isShared`: two buses made by `createBus` are two instances of one deployment (Redis), not two worlds. */
const kinds: [string, { createBus: () => Promise<PubSub>; isShared: boolean }][] = [
  ['in-process', { createBus: async () => createInProcessPubSub(), isShared: false }],
  ...(buses
    ? [
        ['Redis', { createBus: () => buses.create(), isShared: true }] as [
          string,
          { createBus: () => Promise<PubSub>; isShared: boolean },
        ],
      ]
    : []),
];

describe.each(kinds)('%s pub/sub', (_kind, { createBus, isShared }) => {
  const opened: PubSub[] = [];
  const open = async () => {
    const bus = await createBus();
    opened.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });

  it('delivers messages in publish order to every subscriber of the channel, and only of that channel', async () => {
    const bus = await open();
    const channel = `c-${randomUUID()}`;
    const first = await listen(bus, channel);
    const second = await listen(bus, channel);
    const elsewhere = await listen(bus, `${channel}-other`);
    for (let index = 0; index < 20; index++) await bus.publish(channel, JSON.stringify(index));
    expect(await first.waitFor(20)).toEqual([...Array(20).keys()]);
    expect(await second.waitFor(20)).toEqual([...Array(20).keys()]);
    await settle();
    expect(elsewhere.messages).toEqual([]);
  });

  it('stops delivering to a subscription once unsubscribed, and keeps delivering to the others', async () => {
    const bus = await open();
    const channel = `c-${randomUUID()}`;
    const leaving = await listen(bus, channel);
    const staying = await listen(bus, channel);
    await bus.publish(channel, '"before"');
    await leaving.waitFor(1);
    await leaving.unsubscribe();
    await bus.publish(channel, '"after"');
    expect(await staying.waitFor(2)).toEqual(['before', 'after']);
    await settle();
    expect(leaving.messages).toEqual(['before']);
  });

  it('seats people up to the limit and publishes numbered joined events', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const events = await listen(bus, roomChannel(roomId));
    const ada = entry({ name: 'Ada' });
    const bob = entry({ name: 'Bob' });
    const first = await bus.roster.claim(roomId, ada, 2);
    const second = await bus.roster.claim(roomId, bob, 2);
    expect(first).toEqual({ outcome: 'joined', seq: expect.any(Number), others: [], locked: false });
    expect(second).toEqual({ outcome: 'joined', seq: expect.any(Number), others: [ada], locked: false });
    expect(await bus.roster.claim(roomId, entry(), 2)).toEqual({ outcome: 'full' });
    const published = (await events.waitFor(2)) as RosterEvent[];
    expect(published).toEqual([
      { kind: 'joined', seq: (first as { seq: number }).seq, participant: ada },
      { kind: 'joined', seq: (second as { seq: number }).seq, participant: bob },
    ]);
    expect(published[1]!.seq).toBeGreaterThan(published[0]!.seq);
    await settle();
    expect(events.messages).toHaveLength(2); // the refused claim published nothing
  });

  it('gives one seat per person: a second claim by the same user replaces the first, even in a full room', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const events = await listen(bus, roomChannel(roomId));
    const ada = entry();
    const bob = entry();
    await bus.roster.claim(roomId, ada, 2);
    await bus.roster.claim(roomId, bob, 2);
    const adaAgain = entry({ userId: ada.userId });
    const claim = await bus.roster.claim(roomId, adaAgain, 2);
    expect(claim).toMatchObject({ outcome: 'joined', others: [bob] });
    const published = (await events.waitFor(4)) as RosterEvent[];
    expect(published.slice(2)).toEqual([
      { kind: 'left', seq: expect.any(Number), participantId: ada.id, reason: 'replaced' },
      { kind: 'joined', seq: expect.any(Number), participant: adaAgain },
    ]);
  });

  it('releases a seat once (a second release publishes nothing) and frees it for someone else', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const events = await listen(bus, roomChannel(roomId));
    const ada = entry();
    await bus.roster.claim(roomId, ada, 1);
    await bus.roster.release(roomId, ada.id, 'left');
    await bus.roster.release(roomId, ada.id, 'left');
    expect(await bus.roster.claim(roomId, entry(), 1)).toMatchObject({ outcome: 'joined', others: [] });
    const published = (await events.waitFor(3)) as RosterEvent[];
    expect(published.map((event) => event.kind)).toEqual(['joined', 'left', 'joined']);
    expect(published[1]).toMatchObject({ participantId: ada.id, reason: 'left' });
  });

  it('keeps media state in the roster (the next joiner sees it) and publishes it', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const events = await listen(bus, roomChannel(roomId));
    const ada = entry();
    await bus.roster.claim(roomId, ada, 4);
    const media = { mic: true, camera: false, screen: true };
    await bus.roster.setMedia(roomId, ada.id, media);
    await bus.roster.setMedia(roomId, 'not-in-the-room', media);
    const claim = await bus.roster.claim(roomId, entry(), 4);
    expect(claim).toMatchObject({ outcome: 'joined', others: [{ ...ada, media }] });
    const published = (await events.waitFor(3)) as RosterEvent[];
    expect(published[1]).toEqual({ kind: 'media', seq: expect.any(Number), participantId: ada.id, media });
    expect(published[2]!.kind).toBe('joined');
  });

  it('tells a heartbeat which of its participants the roster no longer holds', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const ada = entry();
    await bus.roster.claim(roomId, ada, 4);
    expect(await bus.roster.refresh(roomId, [ada.id, 'gone-somewhere'])).toEqual(['gone-somewhere']);
  });

  it('never seats more than the limit when many claim at once', async () => {
    const first = await open();
    const second = isShared ? await open() : first;
    const roomId = `r-${randomUUID()}`;
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? first : second).roster.claim(roomId, entry(), 3)),
    );
    expect(claims.filter((claim) => claim.outcome === 'joined')).toHaveLength(3);
  });
});

describe.skipIf(!TEST_REDIS_URL)('Redis pub/sub only', () => {
  it('keeps deployments apart: another namespace sees none of the messages or seats', async () => {
    const ours = redisBuses();
    const theirs = redisBuses();
    try {
      const [bus, other] = [await ours.create(), await theirs.create()];
      const roomId = `r-${randomUUID()}`;
      const overheard = await listen(other, roomChannel(roomId));
      await bus.roster.claim(roomId, entry(), 1);
      await bus.publish(roomChannel(roomId), '"hello"');
      expect(await other.roster.claim(roomId, entry(), 1)).toMatchObject({ outcome: 'joined', others: [] });
      await settle();
      expect(overheard.messages.filter((message) => message === 'hello')).toEqual([]);
    } finally {
      await Promise.all([ours.cleanUp(), theirs.cleanUp()]);
    }
  });

  it('frees the seats of an instance whose heartbeat stopped (it died), telling the room', async () => {
    const buses = redisBuses();
    try {
      // Beats five to a lifetime, and the lifetime grows with the load: `living` never lapses.
      const entryTtlMs = patience(1000);
      const alive = await buses.create({ entryTtlMs });
      const roomId = `r-${randomUUID()}`;
      const events = await listen(alive, roomChannel(roomId));
      const dead = entry({ instanceId: 'dead' });
      const living = entry();
      await alive.roster.claim(roomId, dead, 2);
      await alive.roster.claim(roomId, living, 2);
      // Only `living` is kept alive; `dead`'s instance never beats again.
      for (let beat = 0; beat < 7; beat++) {
        expect(await alive.roster.refresh(roomId, [living.id])).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, entryTtlMs / 5));
      }
      const published = (await events.waitFor(3)) as RosterEvent[];
      expect(published[2]).toEqual({
        kind: 'left',
        seq: expect.any(Number),
        participantId: dead.id,
        reason: 'timeout',
      });
      expect(await alive.roster.claim(roomId, entry(), 2)).toMatchObject({ outcome: 'joined', others: [living] });
    } finally {
      await buses.cleanUp();
    }
  });

  it('resubscribes to a channel after unsubscribing from it', async () => {
    const buses = redisBuses();
    try {
      const bus = await buses.create();
      const channel = `c-${randomUUID()}`;
      const first = await listen(bus, channel);
      await first.unsubscribe();
      const second = await listen(bus, channel);
      await bus.publish(channel, '"again"');
      expect(await second.waitFor(1)).toEqual(['again']);
    } finally {
      await buses.cleanUp();
    }
  });
});

describe('createPubSub', () => {
  it('is in-process without REDIS_URL', async () => {
    const bus = await createPubSub({ redisUrl: undefined });
    const seen = await listen(bus, 'c');
    await bus.publish('c', '1');
    expect(await seen.waitFor(1)).toEqual([1]);
    await bus.close();
  });

  it('refuses to start with an unreachable Redis, naming it without its password', async () => {
    const attempt = createRedisPubSub({ url: 'redis://:hunter2@127.0.0.1:1', namespace: freshNamespace() });
    await expect(attempt).rejects.toThrow(/^Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });
});
