import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { deleteNamespaces, freshNamespace, TEST_REDIS_URL } from '../../../realtime/test-buses.ts';
import { createRedisRoomServers, type RedisRoomServersOptions } from './redis-room-servers.ts';
import { createMemoryRoomServers, type RoomServers } from './room-servers.ts';
import { patience } from '../../../testing/patience.ts';

/**
 * Which Janus serves each room (decision 037): one contract, two stores. `instances()` gives
 * stores that share their records, as app instances do: the one memory store (one instance),
 * or several Redis stores on one namespace (TEST_REDIS_URL).
 */
type Options = Partial<Pick<RedisRoomServersOptions, 'holdTtlMs' | 'refreshEveryMs'>>;
const namespaces: string[] = [];
const opened: RoomServers[] = [];
const STORES: { kind: string; isRedis: boolean; instances(): (options?: Options) => Promise<RoomServers> }[] = [
  {
    kind: 'memory',
    isRedis: false,
    instances() {
      const store = createMemoryRoomServers();
      return async () => store;
    },
  },
  ...(TEST_REDIS_URL
    ? [
        {
          kind: 'Redis',
          isRedis: true,
          instances() {
            const namespace = freshNamespace();
            namespaces.push(namespace);
            return (options: Options = {}) => createRedisRoomServers({ url: TEST_REDIS_URL!, namespace, ...options });
          },
        },
      ]
    : []),
];

afterEach(async () => {
  await Promise.all([...new Set(opened.splice(0))].map((store) => store.close()));
});
afterAll(async () => {
  if (TEST_REDIS_URL && namespaces.length > 0) await deleteNamespaces(...namespaces);
});

const X = 'ws://janus-x.test:8188/';
const Y = 'ws://janus-y.test:8188/';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const nothingLost = (): void => expect.fail('no hold should be lost here');

describe.each(STORES)('room servers: $kind', ({ isRedis, instances }) => {
  /** Two app instances sharing one record of rooms. */
  async function twoInstances(options?: Options) {
    const instance = instances();
    const stores = [await instance(options), await instance(options)] as const;
    opened.push(...stores);
    const [a, b] = stores.map(
      (store) =>
        (roomId: string, holderId: string, reachable: string[], onLost: () => void = nothingLost) =>
          store.hold({ roomId, holderId, reachable, onLost }),
    );
    return { a: a!, b: b!, stores };
  }

  it('gives a new room the reachable server with the fewest rooms, the first of a tie', async () => {
    const { a, b, stores } = await twoInstances();
    expect(await a('r1', 'p1', [X, Y])).toBe(X);
    expect(await b('r2', 'p2', [X, Y])).toBe(Y);
    // A tie again: the joiner's first.
    expect(await b('r3', 'p3', [Y, X])).toBe(Y);
    // Fewer rooms wins over the order.
    expect(await a('r4', 'p4', [Y, X])).toBe(X);
    // Only what the joiner reaches.
    expect(await a('r5', 'p5', [X])).toBe(X);
    expect(await stores[1].roomsPerServer()).toEqual({ [X]: 3, [Y]: 2 });
  });

  it('keeps a held room on its server for joiners on every instance', async () => {
    const { a, b } = await twoInstances();
    expect(await a('busy', 'p0', [Y])).toBe(Y);
    expect(await a('room', 'p1', [X, Y])).toBe(X);
    // Y is first for b and has no more rooms than X now, but the room is on X.
    expect(await b('room', 'p2', [Y, X])).toBe(X);
    expect(await b('room', 'p3', [X])).toBe(X);
  });

  it('refuses a joiner who cannot reach a held room’s server, and moves the room once everyone has let go', async () => {
    const { a, b, stores } = await twoInstances();
    expect(await a('room', 'p1', [X, Y])).toBe(X);
    expect(await a('room', 'p2', [X, Y])).toBe(X);
    // X is down as b sees it: the room is not split onto Y while p1 and p2 may still be on X.
    expect(await b('room', 'p3', [Y])).toBeUndefined();
    await stores[0].release('room', 'p1');
    expect(await b('room', 'p3', [Y])).toBeUndefined();
    await stores[0].release('room', 'p2');
    expect(await b('room', 'p3', [Y])).toBe(Y);
    expect(await a('room', 'p4', [X, Y])).toBe(Y);
    expect(await stores[0].roomsPerServer()).toEqual({ [Y]: 1 });
  });

  it('refuses a new room when no server is reachable, and forgets a room whose holders all left', async () => {
    const { a, stores } = await twoInstances();
    expect(await a('room', 'p1', [])).toBeUndefined();
    expect(await stores[0].roomsPerServer()).toEqual({});
    expect(await a('room', 'p1', [X])).toBe(X);
    // A holder it does not know changes nothing; the last one's release ends the room.
    await stores[0].release('room', 'someone-else');
    expect(await stores[0].roomsPerServer()).toEqual({ [X]: 1 });
    await stores[0].release('room', 'p1');
    await stores[0].release('room', 'p1');
    expect(await stores[0].roomsPerServer()).toEqual({});
  });

  it('agrees on one server when two instances start a room at the same moment', async () => {
    const { a, b } = await twoInstances();
    // Each would choose its own first server alone: only the shared record makes them agree.
    for (let round = 0; round < 20; round++) {
      const [first, second] = await Promise.all([a(`race-${round}`, 'p1', [X, Y]), b(`race-${round}`, 'p2', [Y, X])]);
      expect(first).toBe(second);
    }
  });

  it.runIf(isRedis)('keeps its holds alive by itself beyond their lifetime', async () => {
    // Times in the hold's lifetime, which grows with the load: its refresh must still come in time.
    const holdTtlMs = patience(300);
    const { a, b } = await twoInstances({ holdTtlMs });
    expect(await a('room', 'p1', [X, Y])).toBe(X);
    await sleep(3 * holdTtlMs);
    expect(await b('room', 'p2', [Y])).toBeUndefined();
  });

  it.runIf(isRedis)(
    'frees the rooms of an instance that died, and tells a stalled one its holds are lost',
    async () => {
      const instance = instances();
      // Times in the hold's lifetime, which grows with the load; the stalled one refreshes too late.
      const holdTtlMs = patience(300);
      const dying = await instance({ holdTtlMs });
      const stalled = await instance({ holdTtlMs, refreshEveryMs: 3 * holdTtlMs });
      const other = await instance({ holdTtlMs });
      opened.push(stalled, other);
      const hold = (store: RoomServers, roomId: string, holderId: string, reachable: string[], onLost = nothingLost) =>
        store.hold({ roomId, holderId, reachable, onLost });
      expect(await hold(dying, 'dead', 'p1', [X])).toBe(X);
      await dying.close(); // no release, no refresh: as in a crash
      let lost = 0;
      expect(await hold(stalled, 'slow', 'p2', [X], () => (lost += 1))).toBe(X);
      expect(await hold(other, 'dead', 'p3', [Y])).toBeUndefined();

      await sleep(1.5 * holdTtlMs);
      // Both holds lapsed: each room is nobody's, and goes where the next joiner can reach.
      expect(await other.roomsPerServer()).toEqual({});
      expect(await hold(other, 'dead', 'p3', [Y])).toBe(Y);
      expect(await hold(other, 'slow', 'p4', [Y])).toBe(Y);
      // The stalled instance's refresh finds its hold gone: its participant must leave X.
      await expect.poll(() => lost, { timeout: patience(2_000) }).toBe(1);
      expect(await other.roomsPerServer()).toEqual({ [Y]: 2 });
    },
  );
});
