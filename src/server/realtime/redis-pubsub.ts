import { Redis } from 'ioredis';
import type { PubSub } from './pubsub.ts';

export type RedisPubSubOptions = {
  url: string;
  /** Prefix of every key and channel, so several deployments (or test runs) share one Redis. */
  namespace?: string;
  /** How long a seat (presence.ts) lives without a heartbeat (an instance that died frees its seats). */
  entryTtlMs?: number;
  /** Connection problems after the start; the default writes them to stderr. */
  onError?: (error: Error) => void;
};

export const DEFAULT_NAMESPACE = 'studyhall:';
export const DEFAULT_ENTRY_TTL_MS = 30_000;
const CONNECT_TIMEOUT_MS = 5_000;

/** Lua: `now`, Redis's own time in ms, so the instances' clocks do not matter. */
export const REDIS_NOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/**
 * Pub/sub and scripts on Redis: one connection for commands and publishing, one
 * for subscriptions (a subscribed connection can do nothing else). Resolves once
 * both are connected, so a wrong REDIS_URL stops the start with a clear error.
 */
export async function createRedisPubSub(options: RedisPubSubOptions): Promise<PubSub> {
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const ttl = options.entryTtlMs ?? DEFAULT_ENTRY_TTL_MS;
  const reportError = options.onError ?? ((error: Error) => console.error(`Redis (rooms): ${error.message}`));
  const connectionOptions = {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A command waits through a short outage, then fails (the sender is told) rather than hanging.
    maxRetriesPerRequest: 3,
  };
  const publisher = new Redis(options.url, connectionOptions);
  const subscriber = new Redis(options.url, connectionOptions);
  try {
    await Promise.all([connectOnce(publisher), connectOnce(subscriber)]);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw new Error(`Cannot reach Redis at ${withoutPassword(options.url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let isClosing = false;
  // From here on ioredis reconnects by itself (and resubscribes); problems are reported, not thrown.
  for (const connection of [publisher, subscriber]) {
    connection.on('error', (error: Error) => {
      if (!isClosing) reportError(error);
    });
  }

  /** Per channel: its handlers, and the SUBSCRIBE every subscriber waits for. */
  const channels = new Map<string, { handlers: Set<(message: string) => void>; ready: Promise<unknown> }>();
  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of channels.get(channel)?.handlers ?? []) {
      try {
        handler(message);
      } catch (error) {
        reportError(error as Error);
      }
    }
  });

  return {
    redis: {
      namespace,
      entryTtlMs: ttl,
      eval: (script, keys, args) => publisher.eval(script, keys.length, ...keys, ...args),
    },
    async publish(logicalChannel, message) {
      await publisher.publish(namespace + logicalChannel, message);
    },
    async subscribe(logicalChannel, handler) {
      const name = namespace + logicalChannel;
      const subscription = (message: string) => handler(message);
      let channel = channels.get(name);
      // Commands on one connection run in order, so a SUBSCRIBE after a pending UNSUBSCRIBE wins.
      if (!channel) channels.set(name, (channel = { handlers: new Set(), ready: subscriber.subscribe(name) }));
      channel.handlers.add(subscription);
      const subscribed = channel;
      try {
        await subscribed.ready;
      } catch (error) {
        subscribed.handlers.delete(subscription);
        if (subscribed.handlers.size === 0 && channels.get(name) === subscribed) channels.delete(name);
        throw error;
      }
      return async () => {
        if (!subscribed.handlers.delete(subscription) || subscribed.handlers.size > 0) return;
        if (channels.get(name) === subscribed) channels.delete(name);
        if (!isClosing) await subscriber.unsubscribe(name);
      };
    },
    async close() {
      if (isClosing) return;
      isClosing = true;
      channels.clear();
      await Promise.all([quit(publisher), quit(subscriber)]);
    },
  };
}

/** Connects, failing on the first refusal instead of retrying for ever at start-up. */
export async function connectOnce(connection: Redis): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      connection.off('ready', succeed);
      reject(error);
    };
    const succeed = () => {
      connection.off('error', fail);
      resolve();
    };
    connection.once('error', fail);
    connection.once('ready', succeed);
    connection.connect().catch(fail);
  });
}

export async function quit(connection: Redis): Promise<void> {
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}

/** The URL as it may be logged: no password. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
