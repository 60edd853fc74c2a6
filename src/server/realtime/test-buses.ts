import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import { patience } from '../testing/patience.ts';
import { createInProcessPubSub, type PubSub } from './pubsub.ts';
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

/**
 * The buses a contract runs on: in-process always, Redis with `buses`. `isShared`: two buses made
 * by `createBus` are two instances of one deployment (Redis), not two worlds.
 */
export function contractBuses(
  buses: ReturnType<typeof redisBuses> | undefined,
): [string, { createBus: () => Promise<PubSub>; isShared: boolean }][] {
  return [
    ['in-process', { createBus: async () => createInProcessPubSub(), isShared: false }],
    ...(buses ? [['Redis', { createBus: () => buses.create(), isShared: true }] satisfies [string, object]] : []),
  ];
}

/** Opens buses for a test and closes them after it (call inside a describe). */
export function busesPerTest(createBus: () => Promise<PubSub>): () => Promise<PubSub> {
  const opened: PubSub[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });
  return async () => {
    const bus = await createBus();
    opened.push(bus);
    return bus;
  };
}

/** Everything published on a channel, parsed, with a way to wait for a count. */
export async function listen<Message = unknown>(bus: PubSub, channel: string) {
  const messages: Message[] = [];
  const unsubscribe = await bus.subscribe(channel, (message) => messages.push(JSON.parse(message) as Message));
  return {
    messages,
    unsubscribe,
    async waitFor(count: number) {
      const deadline = Date.now() + patience(3000);
      while (messages.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${messages.length} of ${count} messages: ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return messages;
    },
  };
}

/** A moment for a stray message to arrive, before checking that none did. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
