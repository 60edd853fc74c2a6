import { createRedisTagVersions } from '../cache/redis-tag-versions.ts';
import { deleteNamespaces, freshNamespace, TEST_REDIS_URL } from '../realtime/test-buses.ts';
import { createTestApp, startSecondInstance, type SecondInstance, type TestApp } from './test-app.ts';

/**
 * Two instances on one database and one Redis, as behind `npm run cluster`'s balancer: each
 * keeps its own read cache and session versions in memory, and they share the tag versions in
 * Redis under a fresh namespace. A change made through one must show on the other's very next
 * request (TEST_REDIS_URL). `close()` closes both and deletes the namespace's keys.
 */
export type TwoInstances = { first: TestApp; second: SecondInstance; close(): Promise<void> };

export async function startTwoInstancesOnRedis(readCache: { ttlMs?: number } = {}): Promise<TwoInstances> {
  const namespace = freshNamespace();
  // One Redis client per instance, as two processes have: each app closes its own.
  const versions = () => createRedisTagVersions({ url: TEST_REDIS_URL!, namespace });
  const first = await createTestApp({ readCache: { ...readCache, versions: await versions() } });
  const second = await startSecondInstance(first, { readCache: { ...readCache, versions: await versions() } });
  return {
    first,
    second,
    async close() {
      await second.close();
      await first.close();
      await deleteNamespaces(namespace);
    },
  };
}
