import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { MediaState } from '#shared/meetings';
import { busesPerTest, contractBuses, listen, redisBuses, settle, TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { patience } from '../../testing/patience.ts';
import { meetingChannel, meetingRoster, type RosterEntry, type RosterEvent } from './meeting-roster.ts';

/**
 * One contract, two buses: the meeting roster the hub relies on, in-process and (with
 * TEST_REDIS_URL) on a real Redis.
 */

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

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

const kinds = contractBuses(buses);

describe.each(kinds)('%s meeting roster', (_kind, { createBus, isShared }) => {
  const open = busesPerTest(createBus);

  it('seats people up to the limit and publishes numbered joined events', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const events = await listen(bus, meetingChannel(roomId));
    const ada = entry({ name: 'Ada' });
    const bob = entry({ name: 'Bob' });
    const first = await meetingRoster(bus).claim(roomId, ada, 2);
    const second = await meetingRoster(bus).claim(roomId, bob, 2);
    expect(first).toEqual({ outcome: 'joined', seq: expect.any(Number), others: [], locked: false });
    expect(second).toEqual({ outcome: 'joined', seq: expect.any(Number), others: [ada], locked: false });
    expect(await meetingRoster(bus).claim(roomId, entry(), 2)).toEqual({ outcome: 'full' });
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
    const events = await listen(bus, meetingChannel(roomId));
    const ada = entry();
    const bob = entry();
    await meetingRoster(bus).claim(roomId, ada, 2);
    await meetingRoster(bus).claim(roomId, bob, 2);
    const adaAgain = entry({ userId: ada.userId });
    const claim = await meetingRoster(bus).claim(roomId, adaAgain, 2);
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
    const events = await listen(bus, meetingChannel(roomId));
    const ada = entry();
    await meetingRoster(bus).claim(roomId, ada, 1);
    await meetingRoster(bus).release(roomId, ada.id, 'left');
    await meetingRoster(bus).release(roomId, ada.id, 'left');
    expect(await meetingRoster(bus).claim(roomId, entry(), 1)).toMatchObject({ outcome: 'joined', others: [] });
    const published = (await events.waitFor(3)) as RosterEvent[];
    expect(published.map((event) => event.kind)).toEqual(['joined', 'left', 'joined']);
    expect(published[1]).toMatchObject({ participantId: ada.id, reason: 'left' });
  });

  it('keeps media state in the roster (the next joiner sees it) and publishes it', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const events = await listen(bus, meetingChannel(roomId));
    const ada = entry();
    await meetingRoster(bus).claim(roomId, ada, 4);
    const media = { mic: true, camera: false, screen: true };
    await meetingRoster(bus).setMedia(roomId, ada.id, media);
    await meetingRoster(bus).setMedia(roomId, 'not-in-the-room', media);
    const claim = await meetingRoster(bus).claim(roomId, entry(), 4);
    expect(claim).toMatchObject({ outcome: 'joined', others: [{ ...ada, media }] });
    const published = (await events.waitFor(3)) as RosterEvent[];
    expect(published[1]).toEqual({ kind: 'media', seq: expect.any(Number), participantId: ada.id, media });
    expect(published[2]!.kind).toBe('joined');
  });

  it('tells a heartbeat which of its participants the roster no longer holds', async () => {
    const bus = await open();
    const roomId = `r-${randomUUID()}`;
    const ada = entry();
    await meetingRoster(bus).claim(roomId, ada, 4);
    expect(await meetingRoster(bus).refresh(roomId, [ada.id, 'gone-somewhere'])).toEqual(['gone-somewhere']);
  });

  it('never seats more than the limit when many claim at once', async () => {
    const first = await open();
    const second = isShared ? await open() : first;
    const roomId = `r-${randomUUID()}`;
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        meetingRoster(index % 2 === 0 ? first : second).claim(roomId, entry(), 3),
      ),
    );
    expect(claims.filter((claim) => claim.outcome === 'joined')).toHaveLength(3);
  });
});

describe.skipIf(!TEST_REDIS_URL)('Redis meeting roster only', () => {
  it('keeps deployments apart: another namespace sees none of the messages or seats', async () => {
    const ours = redisBuses();
    const theirs = redisBuses();
    try {
      const [bus, other] = [await ours.create(), await theirs.create()];
      const roomId = `r-${randomUUID()}`;
      const overheard = await listen(other, meetingChannel(roomId));
      await meetingRoster(bus).claim(roomId, entry(), 1);
      await bus.publish(meetingChannel(roomId), '"hello"');
      expect(await meetingRoster(other).claim(roomId, entry(), 1)).toMatchObject({ outcome: 'joined', others: [] });
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
      const events = await listen(alive, meetingChannel(roomId));
      const dead = entry({ instanceId: 'dead' });
      const living = entry();
      await meetingRoster(alive).claim(roomId, dead, 2);
      await meetingRoster(alive).claim(roomId, living, 2);
      // Only `living` is kept alive; `dead`'s instance never beats again.
      for (let beat = 0; beat < 7; beat++) {
        expect(await meetingRoster(alive).refresh(roomId, [living.id])).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, entryTtlMs / 5));
      }
      const published = (await events.waitFor(3)) as RosterEvent[];
      expect(published[2]).toEqual({
        kind: 'left',
        seq: expect.any(Number),
        participantId: dead.id,
        reason: 'timeout',
      });
      expect(await meetingRoster(alive).claim(roomId, entry(), 2)).toMatchObject({
        outcome: 'joined',
        others: [living],
      });
    } finally {
      await buses.cleanUp();
    }
  });
});
