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
  /** Connection problems after the start (ioredis reconnects by itself); the default is stderr. */
  onError?: (error: Error) => void;
  /** How long one command may take before it counts as failed (the read then goes to the database). */
  commandTimeoutMs?: number;
}): Promise<TagVersions> {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    // A read waits for no reconnect and no stalled server: it goes to the database instead
    // (the cache reports the error), so a Redis problem slows nothing down.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 250,
  });
  await redis.connect();
  let isClosing = false;
  const reportError = options.onError ?? ((error: Error) => console.error(`Redis (read cache): ${error.message}`));
  redis.on('error', (error: Error) => {
    if (!isClosing) reportError(error);
  });
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
      isClosing = true;
      redis.disconnect();
    },
  };
}
