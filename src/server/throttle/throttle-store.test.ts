import { createServer, Socket, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { deleteNamespaces, freshNamespace, TEST_REDIS_URL } from '../realtime/test-buses.ts';
import { clientNetwork } from './client-network.ts';
import { createRedisThrottleStore } from './redis-throttle-store.ts';
import { createMemoryThrottleStore, type Bucket, type ThrottleStore } from './throttle-store.ts';
import { patience } from '../testing/patience.ts';

/** One contract, two stores: this process's memory always, Redis when TEST_REDIS_URL is set. */
const namespaces: string[] = [];
const opened: ThrottleStore[] = [];
const STORES: { kind: string; create(): Promise<ThrottleStore> }[] = [
  { kind: 'memory', create: async () => createMemoryThrottleStore() },
  ...(TEST_REDIS_URL
    ? [
        {
          kind: 'Redis',
          async create() {
            const namespace = freshNamespace();
            namespaces.push(namespace);
            return createRedisThrottleStore({ url: TEST_REDIS_URL!, namespace });
          },
        },
      ]
    : []),
];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  if (!TEST_REDIS_URL || namespaces.length === 0) return;
  await deleteNamespaces(...namespaces);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Three points, refilled over ten minutes: nothing refills during a test. */
const SLOW: Bucket = { capacity: 3, periodMs: 600_000 };

describe.each(STORES)('throttle store: $kind', ({ create }) => {
  const open = async () => {
    const store = await create();
    opened.push(store);
    return store;
  };

  it('takes points until the bucket is empty, then refuses with the wait for the next point, changing nothing', async () => {
    const store = await open();
    const take = (key = 'a') => store.take({ buckets: [{ key, bucket: SLOW, cost: 1 }] });
    for (let attempt = 0; attempt < 3; attempt++) expect(await take()).toEqual({ isAllowed: true });
    const refused = await take();
    expect(refused).toMatchObject({ isAllowed: false, refusedBy: 0 });
    // One point comes back every 200 s.
    expect(refused.isAllowed || refused.retryAfterMs).toBeGreaterThan(199_000);
    expect(refused.isAllowed || refused.retryAfterMs).toBeLessThanOrEqual(200_000);
    expect((await take()).isAllowed).toBe(false);
    expect(await take('b')).toEqual({ isAllowed: true }); // another key, another budget
  });

  it('charges all buckets or none, and names the one that refused', async () => {
    const store = await open();
    await store.take({ buckets: [{ key: 'full', bucket: SLOW, cost: 3 }] });
    const refused = await store.take({
      buckets: [
        { key: 'fresh', bucket: SLOW, cost: 2 },
        { key: 'full', bucket: SLOW, cost: 1 },
      ],
    });
    expect(refused).toMatchObject({ isAllowed: false, refusedBy: 1 });
    // 'fresh' was not charged: its three points are all there.
    expect(await store.take({ buckets: [{ key: 'fresh', bucket: SLOW, cost: 3 }] })).toEqual({ isAllowed: true });
  });

  it('gives points back when settled, never above the capacity', async () => {
    const store = await open();
    await store.take({ buckets: [{ key: 'a', bucket: SLOW, cost: 3 }] });
    await store.settle({ buckets: [{ key: 'a', bucket: SLOW, amount: 2 }] });
    expect(await store.take({ buckets: [{ key: 'a', bucket: SLOW, cost: 2 }] })).toEqual({ isAllowed: true });
    expect((await store.take({ buckets: [{ key: 'a', bucket: SLOW, cost: 1 }] })).isAllowed).toBe(false);
    await store.settle({ buckets: [{ key: 'b', bucket: SLOW, amount: 10 }] });
    expect((await store.take({ buckets: [{ key: 'b', bucket: SLOW, cost: 4 }] })).isAllowed).toBe(false);
  });

  it('refills continuously', async () => {
    const store = await open();
    const fast: Bucket = { capacity: 2, periodMs: 400 }; // a point every 200 ms
    await store.take({ buckets: [{ key: 'a', bucket: fast, cost: 2 }] });
    expect((await store.take({ buckets: [{ key: 'a', bucket: fast, cost: 1 }] })).isAllowed).toBe(false);
    await sleep(250);
    expect(await store.take({ buckets: [{ key: 'a', bucket: fast, cost: 1 }] })).toEqual({ isAllowed: true });
  });

  it('locks an account after the free failures, for longer each time up to the bound, and forgets on success', async () => {
    const store = await open();
    const policy = { freeFailures: 2, firstLockMs: 150, maxLockMs: 400, forgetAfterMs: 60_000 };
    const attempt = () => store.take({ buckets: [], lockout: { key: 'ada', policy } });
    expect(await attempt()).toEqual({ isAllowed: true }); // failure 1
    expect(await attempt()).toEqual({ isAllowed: true }); // failure 2: locked 150 ms
    const locked = await attempt();
    expect(locked).toMatchObject({ isAllowed: false, refusedBy: 'lockout' });
    expect(locked.isAllowed || locked.retryAfterMs).toBeLessThanOrEqual(150);
    // Each failure after the lock ends doubles it (150, 300), up to the bound (400, 400).
    for (const [previousLockMs, expectedLockMs] of [
      [150, 300],
      [300, 400],
      [400, 400],
    ] as const) {
      await sleep(previousLockMs + 20);
      expect(await attempt()).toEqual({ isAllowed: true });
      const next = await attempt();
      expect(next).toMatchObject({ isAllowed: false, refusedBy: 'lockout' });
      expect(next.isAllowed || next.retryAfterMs).toBeGreaterThan(expectedLockMs - 100);
      expect(next.isAllowed || next.retryAfterMs).toBeLessThanOrEqual(expectedLockMs);
    }
    await store.settle({ buckets: [], clearLockout: 'ada' });
    expect(await attempt()).toEqual({ isAllowed: true });
    expect(await attempt()).toEqual({ isAllowed: true });
    expect((await attempt()).isAllowed).toBe(false);
  });

  it('refuses with the longest wait when a bucket and the lock-out both refuse', async () => {
    const store = await open();
    const policy = { freeFailures: 1, firstLockMs: 60_000, maxLockMs: 60_000, forgetAfterMs: 60_000 };
    const charge = { buckets: [{ key: 'net', bucket: SLOW, cost: 1 }], lockout: { key: 'ada', policy } };
    expect(await store.take(charge)).toEqual({ isAllowed: true }); // locks for a minute, 2 points left
    const refused = await store.take(charge);
    expect(refused).toMatchObject({ isAllowed: false, refusedBy: 'lockout' });
    await store.take({ buckets: [{ key: 'net', bucket: SLOW, cost: 2 }] });
    expect(await store.take(charge)).toMatchObject({ isAllowed: false, refusedBy: 0 }); // 200 s > 60 s
  });

  it("clears every lock-out under a prefix, and nothing else (a reset lifts all of one account's devices)", async () => {
    const store = await open();
    const policy = { freeFailures: 1, firstLockMs: 60_000, maxLockMs: 60_000, forgetAfterMs: 60_000 };
    const lock = (key: string) => store.take({ buckets: [], lockout: { key, policy } });
    const keys = ['device:ada*:1', 'device:ada*:2', 'device:ada:3', 'device:bob:1'];
    for (const key of keys) await lock(key);
    await store.take({ buckets: [{ key: 'device:ada*:bucket', bucket: SLOW, cost: 3 }] });
    await store.clearLockouts('device:ada*:');
    // The prefix is text, not a pattern: 'ada*' is not 'ada'.
    expect(await Promise.all(keys.map(async (key) => (await lock(key)).isAllowed))).toEqual([true, true, false, false]);
    // A bucket under the prefix is not a lock-out: it stays spent.
    expect((await store.take({ buckets: [{ key: 'device:ada*:bucket', bucket: SLOW, cost: 1 }] })).isAllowed).toBe(
      false,
    );
  });
});

describe('memory store', () => {
  it('forgets failures forgetAfterMs after the last one, and keeps at most maxEntries counters', async () => {
    let now = 1_000_000;
    const store = createMemoryThrottleStore({ now: () => now, maxEntries: 3 });
    const policy = { freeFailures: 2, firstLockMs: 1_000, maxLockMs: 1_000, forgetAfterMs: 5_000 };
    const fail = () => store.take({ buckets: [], lockout: { key: 'ada', policy } });
    expect(await fail()).toEqual({ isAllowed: true }); // failure 1 of 2 free
    now += 5_000;
    // Forgotten: this is failure 1 again, the next is the second free one, then the lock.
    expect(await fail()).toEqual({ isAllowed: true });
    expect(await fail()).toEqual({ isAllowed: true });
    expect((await fail()).isAllowed).toBe(false);

    for (const key of ['b', 'c', 'd']) await store.take({ buckets: [{ key, bucket: SLOW, cost: 3 }] });
    // 'ada' was the oldest of four counters: dropped, so its lock is gone.
    expect(await fail()).toEqual({ isAllowed: true });
  });
});

describe.skipIf(!TEST_REDIS_URL)('Redis store when Redis stops answering', () => {
  let proxy: Server | undefined;
  const sockets = new Set<Socket>();
  afterEach(() => {
    for (const socket of sockets) socket.destroy();
    proxy?.close();
  });

  /** A TCP relay to the test Redis that can be cut and restored: the network between us and Redis. */
  async function startRelay(port = 0): Promise<number> {
    const target = new URL(TEST_REDIS_URL!);
    proxy = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy!.listen(port, '127.0.0.1', resolve));
    return (proxy.address() as AddressInfo).port;
  }

  it('counts in memory meanwhile (reported once), and in Redis again once it is back', async () => {
    const relayPort = await startRelay();
    const namespace = freshNamespace();
    namespaces.push(namespace);
    const changes: boolean[] = [];
    const store = await createRedisThrottleStore({
      url: `redis://127.0.0.1:${relayPort}`,
      namespace,
      onStatus: (change) => changes.push(change.isReachable),
    });
    opened.push(store);
    const take = () => store.take({ buckets: [{ key: 'a', bucket: SLOW, cost: 1 }] });
    expect(await take()).toEqual({ isAllowed: true }); // in Redis: 2 left

    proxy!.close();
    for (const socket of sockets) socket.destroy();
    // Memory: a fresh budget of 3, then refused: limits still hold, per instance.
    for (let attempt = 0; attempt < 3; attempt++) expect(await take()).toEqual({ isAllowed: true });
    expect((await take()).isAllowed).toBe(false);
    expect(changes).toEqual([false]);

    await startRelay(relayPort);
    await expect.poll(async () => (await take()).isAllowed && changes.at(-1), { timeout: patience(10_000) }).toBe(true);
    expect(changes).toEqual([false, true]);
    // Back in Redis, where 2 were left before the outage (one taken by the poll).
    expect(await take()).toEqual({ isAllowed: true });
    expect((await take()).isAllowed).toBe(false);
  });
});

describe('clientNetwork', () => {
  it('counts IPv4 addresses one by one, also written IPv4-mapped', () => {
    expect(clientNetwork('203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientNetwork('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /56 network', () => {
    expect(clientNetwork('2001:db8:1:23ab:4:5:6:7')).toBe('2001:db8:1:2300::/56');
    expect(clientNetwork('2001:db8:1:23ff::1')).toBe('2001:db8:1:2300::/56');
    expect(clientNetwork('2001:db8:1:2400::1')).toBe('2001:db8:1:2400::/56');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/56');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/56');
    expect(clientNetwork('2001:db8::192.0.2.1')).toBe('2001:db8:0:0::/56');
  });

  it('keeps anything else as it is', () => {
    expect(clientNetwork('not an address')).toBe('not an address');
  });
});
