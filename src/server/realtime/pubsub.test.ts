import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  busesPerTest,
  contractBuses,
  freshNamespace,
  listen,
  redisBuses,
  settle,
  TEST_REDIS_URL,
} from './test-buses.ts';
import { createPubSub, roomChannel } from './pubsub.ts';
import { createRedisPubSub } from './redis-pubsub.ts';

/**
 * One contract, two buses: what the room hub relies on, in-process and (with TEST_REDIS_URL) on a
 * real Redis. The seats kept beside it: presence.test.ts.
 */

const buses = TEST_REDIS_URL ? redisBuses() : undefined;
afterAll(() => buses?.cleanUp());

const kinds = contractBuses(buses);

describe.each(kinds)('%s pub/sub', (_kind, { createBus, isShared }) => {
  const open = busesPerTest(createBus);

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

  it('carries a message from one instance to the subscribers of another (one process: the same bus)', async () => {
    const first = await open();
    const second = isShared ? await open() : first;
    const channel = roomChannel('room', `r-${randomUUID()}`);
    const onFirst = await listen(first, channel);
    const onSecond = await listen(second, channel);
    await first.publish(channel, '"from the first"');
    await second.publish(channel, '"from the second"');
    expect(await onFirst.waitFor(2)).toEqual(['from the first', 'from the second']);
    expect(await onSecond.waitFor(2)).toEqual(['from the first', 'from the second']);
  });
});

describe.skipIf(!TEST_REDIS_URL)('Redis pub/sub only', () => {
  it('keeps deployments apart: another namespace sees none of the messages', async () => {
    const ours = redisBuses();
    const theirs = redisBuses();
    try {
      const [bus, other] = [await ours.create(), await theirs.create()];
      const channel = roomChannel('room', `r-${randomUUID()}`);
      const overheard = await listen(other, channel);
      const heard = await listen(bus, channel);
      await bus.publish(channel, '"hello"');
      expect(await heard.waitFor(1)).toEqual(['hello']);
      await settle();
      expect(overheard.messages).toEqual([]);
    } finally {
      await Promise.all([ours.cleanUp(), theirs.cleanUp()]);
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
