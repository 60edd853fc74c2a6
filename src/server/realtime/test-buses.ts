import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { PubSub } from './pubsub.ts';
import { createRedisPubSub, type RedisPubSubOptions } from './redis-pubsub.ts';

/** Tests only: the buses the realtime suites run on. */

/** A real Redis for the tests when set (CI sets it); Redis suites are skipped without it. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** A key and channel prefix of one's own, so parallel test files (and runs) never meet. */
export const freshNamespace = () => `studyhall-test:${randomUUID()}:`;

/** Deletes every key a test wrote under these namespaces (TEST_REDIS_URL). */
export async function deleteNamespaces(...namespaces: string[]): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL!);
  try {
    for (const namespace of namespaces) {
      const keys = await redis.keys(`${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

/** Redis buses on one namespace (several = several app instances); `cleanUp` closes them and deletes the keys. */
export function redisBuses(namespace = freshNamespace()) {
  const created: PubSub[] = [];
  return {
    namespace,
    async create(options: Partial<RedisPubSubOptions> = {}): Promise<PubSub> {
      const bus = await createRedisPubSub({ url: TEST_REDIS_URL!, namespace, ...options });
      created.push(bus);
      return bus;
    },
    async cleanUp() {
      await Promise.all(created.splice(0).map((bus) => bus.close()));
      await deleteNamespaces(namespace);
    },
  };
}

/** The buses every hub test runs on: in-process always, Redis when TEST_REDIS_URL is set. */
export const BUS_KINDS: { kind: string; isRedis: boolean }[] = [
  { kind: 'in-process bus', isRedis: false },
  ...(TEST_REDIS_URL ? [{ kind: 'Redis bus', isRedis: true }] : []),
];
