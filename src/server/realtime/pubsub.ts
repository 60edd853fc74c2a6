/**
 * What app instances share for rooms (decision 065): messages on channels, and, on Redis, atomic
 * scripts over the keys of one deployment (presence.ts keeps each room's seats with them). In
 * process for one instance; Redis (redis-pubsub.ts) when several run behind a load balancer.
 */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once messages on the channel are being delivered; the result stops them. */
  subscribe(channel: string, handler: (message: string) => void): Promise<Unsubscribe>;
  /**
   * Redis's scripting, for state every instance must see change atomically (a room's seats, a
   * protocol's own state); absent on the in-process bus, whose state lives in this process.
   */
  readonly redis?: RedisScripting;
  close(): Promise<void>;
}

export type Unsubscribe = () => Promise<void>;

/** The channel of one room of a protocol (`scope`): its presence events and the protocol's own messages. */
export const roomChannel = (scope: string, roomId: string) => `${scope}:${roomId}`;

export type RedisScripting = {
  /** Prefix of every key and channel (several deployments, or test runs, share one Redis). */
  readonly namespace: string;
  /** How long a seat lives without its instance's heartbeat (an instance that died frees its seats). */
  readonly entryTtlMs: number;
  /** EVAL on the command connection; keys and channels named in it carry the namespace already. */
  eval(script: string, keys: string[], args: (string | number)[]): Promise<unknown>;
};

/** One process: a Map of channels. Delivery is asynchronous, in publish order. */
export function createInProcessPubSub(): PubSub {
  const channels = new Map<string, Set<(message: string) => void>>();
  let isClosed = false;

  const deliver = (channel: string, message: string) => {
    const handlers = channels.get(channel);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      queueMicrotask(() => {
        if (handlers.has(handler)) handler(message);
      });
    }
  };

  return {
    async publish(channel, message) {
      if (isClosed) throw new Error('The pub/sub bus is closed');
      deliver(channel, message);
    },
    async subscribe(channel, handler) {
      if (isClosed) throw new Error('The pub/sub bus is closed');
      // A wrapper per subscription, so one handler subscribed twice is two subscriptions.
      const subscription = (message: string) => handler(message);
      let handlers = channels.get(channel);
      if (!handlers) channels.set(channel, (handlers = new Set()));
      handlers.add(subscription);
      return async () => {
        handlers.delete(subscription);
        if (handlers.size === 0 && channels.get(channel) === handlers) channels.delete(channel);
      };
    },
    async close() {
      isClosed = true;
      channels.clear();
    },
  };
}

/** The configured bus: Redis when REDIS_URL is set (several instances), otherwise in-process. */
export async function createPubSub(
  config: { redisUrl: string | undefined },
  options: { onError?: (error: Error) => void } = {},
): Promise<PubSub> {
  if (!config.redisUrl) return createInProcessPubSub();
  const { createRedisPubSub } = await import('./redis-pubsub.ts');
  return createRedisPubSub({ url: config.redisUrl, onError: options.onError });
}
