import { Redis } from 'ioredis';
import { MAX_TAGGED_TTL_MS, type TagVersions } from './read-cache.ts';

/**
 * Tag versions every instance shares: one counter per tag in Redis. A read costs one MGET
 * (a fraction of the SQL it saves); a write's bump is one round trip of INCRs. A counter
 * outlives its last change by an hour, far beyond any entry loaded under it, so one that
 * expires and restarts at 1 cannot match an entry from its earlier life.
 */
export async function createRedisTagVersions(options: {
  url: string;
  /** Prefix of every key, shared with the meetings' keys (`studyhall:` by default). */
  namespace: string;
}): Promise<TagVersions> {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    // A read waits for no reconnect: it goes to the database instead (the cache reports the error).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  await redis.connect();
  const keyOf = (tag: string) => `${options.namespace}cache-version:${tag}`;
  const lifetimeMs = Math.max(60 * 60_000, MAX_TAGGED_TTL_MS * 10);

  return {
    async current(tags) {
      const values = await redis.mget(tags.map(keyOf));
      return values.map((value) => (value === null ? 0 : Number(value)));
    },
    async bump(tags) {
      const batch = redis.multi();
      for (const tag of tags) batch.incr(keyOf(tag)).pexpire(keyOf(tag), lifetimeMs);
      const results = await batch.exec();
      const failure = results?.find(([error]) => error)?.[0];
      if (failure) throw failure;
    },
    async close() {
      redis.disconnect();
    },
  };
}
