import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteNamespaces, freshNamespace, TEST_REDIS_URL } from '../realtime/test-buses.ts';
import { signUpStudent, signUpTeacher } from '../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { createLocalTagVersions, createReadCache, type TagVersions } from './read-cache.ts';
import { createRedisTagVersions } from './redis-tag-versions.ts';
import { createRequestVersions } from './request-versions.ts';

/**
 * One round trip of tag versions per cached read when they live in Redis (decision 015,
 * addendum of 2026-12-05): the token check reads the session version with the tags the
 * account's earlier requests needed, and the request's reads use that snapshot.
 */

/** Tag versions that count their lookups (each one `MGET` in Redis) and the tags asked. */
function counted(versions: TagVersions) {
  const lookups: (readonly string[])[] = [];
  const wrapped: TagVersions = {
    current(tags) {
      lookups.push(tags);
      return versions.current(tags);
    },
    bump: (tags) => versions.bump(tags),
    close: () => versions.close(),
  };
  return { versions: wrapped, lookups, reset: () => void lookups.splice(0) };
}

describe('request versions (unit)', () => {
  it('reads the given tags and the guess in one lookup; a read needing more adds them to the guess', async () => {
    const { versions, lookups } = counted(createLocalTagVersions());
    const requests = createRequestVersions(versions);
    const cache = createReadCache({ versions, ttlMs: 60_000 });
    const load = async () => 'page';

    const first = await requests.take('student:1', ['session']);
    expect(lookups).toEqual([['session']]);
    await cache.read('page', ['a', 'b'], load, { snapshot: first });
    expect(lookups).toEqual([['session'], ['a', 'b']]); // not guessed yet: a second lookup

    const second = await requests.take('student:1', ['session']);
    await cache.read('page', ['a', 'b'], load, { snapshot: second });
    expect(lookups.slice(2)).toEqual([['session', 'a', 'b']]); // one lookup for the whole request
    // Another account's guess is its own.
    await requests.take('student:2', ['session-2']);
    expect(lookups.at(-1)).toEqual(['session-2']);
  });

  it('a snapshot read before a change never hides it from a later request', async () => {
    const { versions } = counted(createLocalTagVersions());
    const requests = createRequestVersions(versions);
    const cache = createReadCache({ versions, ttlMs: 60_000 });
    let database = 'before';
    const load = async () => database;
    await requests.take('student:1', []).then((s) => cache.read('page', ['t'], load, { snapshot: s }));
    const earlier = await requests.take('student:1', []);
    database = 'after';
    await cache.changed(['t']);
    // The next request takes its own snapshot, after the change: the write shows.
    const later = await requests.take('student:1', []);
    expect(await cache.read('page', ['t'], load, { snapshot: later })).toBe('after');
    // (The earlier request's snapshot predates the change: that request may still answer the old page.)
    expect(earlier.versions.get('t')).not.toBe(later.versions.get('t'));
  });

  it('ignores a snapshot of other versions, and a failed one sends the read to the database', async () => {
    const { versions, lookups } = counted(createLocalTagVersions());
    const cache = createReadCache({ versions, ttlMs: 60_000 });
    const elsewhere = await createRequestVersions(createLocalTagVersions()).take('a', ['t']);
    await cache.read('page', ['t'], async () => 1, { snapshot: elsewhere });
    expect(lookups).toEqual([['t']]);

    const errors: unknown[] = [];
    const failing = counted({
      current: () => Promise.reject(new Error('Redis away')),
      bump: async () => {},
      close: async () => {},
    });
    const cacheOverFailing = createReadCache({
      versions: failing.versions,
      ttlMs: 60_000,
      onError: (e) => errors.push(e),
    });
    const failed = await createRequestVersions(failing.versions).take('a', ['t']);
    let loads = 0;
    const load = async () => (loads += 1);
    expect(await cacheOverFailing.read('page', ['t'], load, { snapshot: failed })).toBe(1);
    expect(await cacheOverFailing.read('page', ['t'], load, { snapshot: failed })).toBe(2);
    expect(failing.lookups).toHaveLength(1); // the request's reads did not wait for Redis again
    expect(errors).toHaveLength(2);
  });
});

/**
 * Through the app: after a student's first visit, every cached page costs one version lookup,
 * the session version's included. Counted on the app's own tag versions (each lookup is one
 * `MGET` with Redis); with TEST_REDIS_URL on real Redis, otherwise on versions kept in the process.
 */
describe('cached reads with shared versions: one round trip per request', () => {
  let app: TestApp;
  let count: ReturnType<typeof counted>;
  let namespace: string | undefined;
  beforeAll(async () => {
    namespace = TEST_REDIS_URL ? freshNamespace() : undefined;
    const versions = TEST_REDIS_URL
      ? await createRedisTagVersions({ url: TEST_REDIS_URL, namespace: namespace! })
      : createLocalTagVersions();
    count = counted(versions);
    app = await createTestApp({ readCache: { ttlMs: 60_000, versions: count.versions } });
  });
  afterAll(async () => {
    await app?.close();
    if (namespace) await deleteNamespaces(namespace);
  });

  const pages = [
    '/api/get-all-quiz?view=online',
    '/api/get-all-quiz?view=attempted',
    '/api/get-resources',
    '/api/get-resources?search=newton',
    '/api/get-students',
  ];

  it.each(pages)('%s: one lookup once the account is known, with the session version in it', async (url) => {
    const className = `Trip-${randomUUID().slice(0, 8)}`;
    await signUpTeacher(app);
    const student = await signUpStudent(app, { class: className });
    const get = () => app.call({ method: 'GET', url, headers: bearer(student.token) });
    expect((await get()).status).toBe(200); // learns what the page needs
    count.reset();
    for (let round = 0; round < 3; round += 1) expect((await get()).status).toBe(200);
    expect(count.lookups).toHaveLength(3);
    for (const tags of count.lookups) expect(tags).toContain(`account-sessions:student:${student.profile._id}`);
  });

  it('a signed-out token is refused on the very next request, its page cached or not', async () => {
    const student = await signUpStudent(app, { class: `Trip-${randomUUID().slice(0, 8)}` });
    const get = (token: string) =>
      app.call({ method: 'GET', url: '/api/get-all-quiz?view=online', headers: bearer(token) });
    expect((await get(student.token)).status).toBe(200);
    expect((await get(student.token)).status).toBe(200);
    const out = await app.call({
      method: 'POST',
      url: '/api/student/logout-everywhere',
      headers: bearer(student.token),
      payload: {},
    });
    expect(out.status, out.raw).toBeLessThan(300);
    expect((await get(student.token)).status).toBe(401);
  });
});
