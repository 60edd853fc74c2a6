import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteNamespaces, freshNamespace, TEST_REDIS_URL } from '../realtime/test-buses.ts';
import { createLocalTagVersions, createReadCache, MAX_TAGGED_TTL_MS, type TagVersions } from './read-cache.ts';
import { createRedisTagVersions } from './redis-tag-versions.ts';
import { patience } from '../testing/patience.ts';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let moment = start;
  return { now: () => moment, advance: (ms: number) => void (moment += ms) };
}

/** A load that counts its calls and answers with the call number. */
function countingLoad() {
  let calls = 0;
  const load = async () => {
    calls += 1;
    return calls;
  };
  return { load, calls: () => calls };
}

describe('read cache (one instance)', () => {
  it('keeps an entry built from another no longer than that one (partOf)', async () => {
    const clock = manualClock();
    const cache = createReadCache({ ttlMs: 1_000, now: clock.now });
    const part = countingLoad();
    const page = countingLoad();
    const readPage = () =>
      cache.read('page', ['p'], async (expiresBy) => {
        await cache.read('part', ['c'], part.load, { partOf: expiresBy });
        return page.load();
      });
    await cache.read('part', ['c'], part.load); // the class's part, loaded at 0
    clock.advance(600);
    expect(await readPage()).toBe(1); // built at 600 from the part of 0
    clock.advance(399);
    expect(await readPage()).toBe(1);
    clock.advance(1); // the part's second is over, so is the page's: both load again
    expect(await readPage()).toBe(2);
    expect(part.calls()).toBe(2);
    clock.advance(999);
    expect(await readPage()).toBe(2);
  });

  it('answers from memory until the time limit, then loads again', async () => {
    const clock = manualClock();
    const cache = createReadCache({ ttlMs: 1_000, now: clock.now });
    const { load, calls } = countingLoad();
    expect(await cache.read('page', ['t'], load)).toBe(1);
    clock.advance(999);
    expect(await cache.read('page', ['t'], load)).toBe(1);
    clock.advance(1);
    expect(await cache.read('page', ['t'], load)).toBe(2);
    expect(calls()).toBe(2);
  });

  it('loads again after a change to any of the entry tags, and only then', async () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    const { load } = countingLoad();
    expect(await cache.read('page', ['class:7B', 'student:1'], load)).toBe(1);
    await cache.changed(['class:8C', 'student:2']);
    expect(await cache.read('page', ['class:7B', 'student:1'], load)).toBe(1);
    await cache.changed(['student:1']);
    expect(await cache.read('page', ['class:7B', 'student:1'], load)).toBe(2);
    await cache.changed(['class:7B']);
    expect(await cache.read('page', ['class:7B', 'student:1'], load)).toBe(3);
  });

  it('never keeps what was loaded across a change that happened during the load', async () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    let release!: () => void;
    const slow = cache.read('page', ['t'], () => new Promise<string>((resolve) => (release = () => resolve('old'))));
    await Promise.resolve();
    await cache.changed(['t']); // the write commits while the old state is being read
    release();
    expect(await slow).toBe('old');
    expect(await cache.read('page', ['t'], async () => 'new')).toBe('new');
  });

  it('shares one load between callers that miss together, but not across a change', async () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    let loads = 0;
    const releases: (() => void)[] = [];
    const load = () =>
      new Promise<number>((resolve) => {
        loads += 1;
        const mine = loads;
        releases.push(() => resolve(mine));
      });
    const first = cache.read('page', ['t'], load);
    const second = cache.read('page', ['t'], load);
    await Promise.resolve();
    await cache.changed(['t']);
    const third = cache.read('page', ['t'], load); // after the change: must not join the old load
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const release of releases) release();
    expect(await Promise.all([first, second, third])).toEqual([1, 1, 2]);
    expect(loads).toBe(2);
    expect(await cache.read('page', ['t'], load)).toBe(2); // the newer load is the one kept
  });

  it('does not keep a failed load', async () => {
    const cache = createReadCache({ ttlMs: 60_000 });
    await expect(cache.read('page', [], () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(await cache.read('page', [], async () => 'fine')).toBe('fine');
  });

  it('reads every time when turned off (ttl 0)', async () => {
    const cache = createReadCache({ ttlMs: 0 });
    const { load } = countingLoad();
    await cache.read('page', [], load);
    await cache.read('page', [], load, { ttlMs: 60_000 });
    expect(await cache.read('page', [], load)).toBe(3);
  });

  it('keeps at most maxEntries, dropping the least recently stored first', async () => {
    const cache = createReadCache({ ttlMs: 60_000, maxEntries: 2 });
    const { load, calls } = countingLoad();
    await cache.read('a', [], load);
    await cache.read('b', [], load);
    await cache.read('c', [], load); // a goes
    await cache.read('b', [], load);
    await cache.read('c', [], load);
    expect(calls()).toBe(3);
    await cache.read('a', [], load);
    expect(calls()).toBe(4);
  });

  it('refuses a tagged entry longer than the versions are remembered', async () => {
    const cache = createReadCache();
    await expect(cache.read('page', ['t'], async () => 1, { ttlMs: MAX_TAGGED_TTL_MS + 1 })).rejects.toThrow(/at most/);
  });

  it('reads the database when the versions cannot be read, and reports it', async () => {
    const problems: unknown[] = [];
    const broken: TagVersions = {
      current: () => Promise.reject(new Error('redis down')),
      bump: () => Promise.reject(new Error('redis down')),
      close: async () => {},
    };
    const cache = createReadCache({ ttlMs: 60_000, versions: broken, onError: (error) => problems.push(error) });
    const { load } = countingLoad();
    expect(await cache.read('page', ['t'], load)).toBe(1);
    expect(await cache.read('page', ['t'], load)).toBe(2); // nothing kept without versions
    await cache.changed(['t']); // does not throw: the write has committed already
    expect(problems).toHaveLength(3);
  });
});

describe('local tag versions', () => {
  it('forgets changes older than the longest entry, and stays correct', async () => {
    const clock = manualClock();
    const versions = createLocalTagVersions(clock.now);
    await versions.bump(['student:1']);
    const afterChange = await versions.current(['student:1']);
    expect(afterChange[0]).toBeGreaterThan(0);
    clock.advance(MAX_TAGGED_TTL_MS + 1);
    await versions.bump(['student:2']); // prunes on the way
    expect((await versions.current(['student:1', 'student:2']))[0]).toBe(0);

    // An entry loaded at version 0 before a change, then the change forgotten: the entry has
    // expired by then, because a tagged entry lives at most MAX_TAGGED_TTL_MS.
    const cache = createReadCache({ ttlMs: MAX_TAGGED_TTL_MS, versions, now: clock.now });
    const { load } = countingLoad();
    expect(await cache.read('page', ['student:3'], load)).toBe(1);
    clock.advance(1);
    await cache.changed(['student:3']);
    clock.advance(MAX_TAGGED_TTL_MS + 1);
    await cache.changed(['student:4']);
    expect((await versions.current(['student:3']))[0]).toBe(0);
    expect(await cache.read('page', ['student:3'], load)).toBe(2);
  });
});

describe.skipIf(!TEST_REDIS_URL)('Redis tag versions (several instances)', () => {
  const namespace = freshNamespace();
  const opened: TagVersions[] = [];
  const instance = async () => {
    const versions = await createRedisTagVersions({ url: TEST_REDIS_URL!, namespace });
    opened.push(versions);
    return createReadCache({ ttlMs: 60_000, versions });
  };

  afterAll(async () => {
    await Promise.all(opened.map((versions) => versions.close()));
    await deleteNamespaces(namespace);
  });

  it('makes a write on one instance visible to the next read on another', async () => {
    const [a, b] = [await instance(), await instance()];
    const { load } = countingLoad();
    expect(await a.read('page', ['class:7B'], load)).toBe(1);
    expect(await a.read('page', ['class:7B'], load)).toBe(1);
    await b.changed(['class:7B']);
    expect(await a.read('page', ['class:7B'], load)).toBe(2);
    await b.changed(['class:8C']);
    expect(await a.read('page', ['class:7B'], load)).toBe(2);
  });

  it('reads the database, without waiting, when Redis stalls', async () => {
    // A Redis of its own, paused with SIGSTOP: connected, but it never answers.
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    try {
      await expect
        .poll(async () => {
          const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
          try {
            await probe.connect();
            return await probe.ping();
          } catch {
            return 'down';
          } finally {
            probe.disconnect();
          }
        })
        .toBe('PONG');
      const problems: unknown[] = [];
      const versions = await createRedisTagVersions({
        url: `redis://127.0.0.1:${port}`,
        namespace,
        commandTimeoutMs: 200,
        onError: (error) => problems.push(error),
      });
      opened.push(versions);
      const cache = createReadCache({ ttlMs: 60_000, versions, onError: (error) => problems.push(error) });
      process.kill(server.pid!, 'SIGSTOP');
      const { load } = countingLoad();
      const started = Date.now();
      expect(await cache.read('page', ['t'], load)).toBe(1);
      await cache.changed(['t']);
      // Two commands of 200 ms each, not a hang on the stopped Redis: a hang limit (decision 042).
      expect(Date.now() - started).toBeLessThan(patience(2_000));
      expect(problems.length).toBeGreaterThanOrEqual(2);
    } finally {
      process.kill(server.pid!, 'SIGCONT');
      server.kill('SIGKILL');
    }
  });

  it('reads the database when Redis is unreachable', async () => {
    const unreachable = await createRedisTagVersions({ url: TEST_REDIS_URL!, namespace });
    await unreachable.close();
    const problems: unknown[] = [];
    const cache = createReadCache({ ttlMs: 60_000, versions: unreachable, onError: (error) => problems.push(error) });
    const { load } = countingLoad();
    expect(await cache.read('page', ['t'], load)).toBe(1);
    expect(await cache.read('page', ['t'], load)).toBe(2);
    expect(problems.length).toBe(2);
  });
});
