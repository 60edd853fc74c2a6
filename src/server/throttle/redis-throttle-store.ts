import { Redis } from 'ioredis';
import { createMemoryThrottleStore, type Charge, type Refund, type ThrottleStore } from './throttle-store.ts';

/**
 * The throttle's counters in Redis, shared by every instance: a person cannot get a fresh
 * budget by landing on another instance behind the load balancer. One Lua script per call,
 * so a charge is atomic across all the counters it touches, and time is Redis's own (the
 * instances' clocks do not matter). The arithmetic is the memory store's, line for line;
 * one contract suite runs on both (throttle-store.test.ts).
 *
 * Redis unreachable: the counters fall back to this instance's memory until it answers again
 * ("fail open" to per-instance limits, never to none). Sign-in before an exam must not stop
 * because a cache server did; the price is that, during the outage, each instance counts
 * alone: the budgets are multiplied by the number of instances, the lock-out still holds per
 * instance. The first failure and the recovery are reported (decision 016).
 */

// Shared head: Redis's clock in ms and the bucket arithmetic of throttle-store.ts.
const SCRIPT_HEAD = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local function level(key, capacity, period)
  local state = redis.call('HMGET', key, 't', 'u')
  if not state[1] then return capacity end
  return math.min(capacity, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * capacity / period)
end
local function wait_for(capacity, period, tokens, cost)
  if tokens >= cost then return 0 end
  return math.ceil((cost - tokens) * period / capacity)
end
local function keep(key, capacity, period, tokens)
  redis.call('HSET', key, 't', tokens, 'u', now)
  redis.call('PEXPIRE', key, wait_for(capacity, period, tokens, capacity) + 1)
end
`;

// KEYS: bucket keys, then the lock-out key if any. ARGV[1]: number of buckets; per bucket:
// capacity, period, cost; then (lock-out) free failures, first lock, max lock, forget after.
// Returns {1} or {0, wait ms, refused by (bucket index from 0, or -1 for the lock-out)}.
const TAKE_SCRIPT = `${SCRIPT_HEAD}
local count = tonumber(ARGV[1])
local wait, refused_by = 0, 0
local levels = {}
for i = 1, count do
  local capacity, period, cost = tonumber(ARGV[i * 3 - 1]), tonumber(ARGV[i * 3]), tonumber(ARGV[i * 3 + 1])
  levels[i] = level(KEYS[i], capacity, period)
  local w = wait_for(capacity, period, levels[i], cost)
  if w > wait then wait, refused_by = w, i - 1 end
end
local lockout = KEYS[count + 1]
local failures, locked_until = 0, 0
if lockout then
  local state = redis.call('HMGET', lockout, 'f', 'l')
  failures, locked_until = tonumber(state[1] or '0'), tonumber(state[2] or '0')
  if locked_until - now > wait then wait, refused_by = locked_until - now, -1 end
end
if wait > 0 then return {0, wait, refused_by} end
for i = 1, count do
  local capacity, period, cost = tonumber(ARGV[i * 3 - 1]), tonumber(ARGV[i * 3]), tonumber(ARGV[i * 3 + 1])
  keep(KEYS[i], capacity, period, levels[i] - cost)
end
if lockout then
  local base = count * 3 + 1
  local free, first, max, forget = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  failures = failures + 1
  locked_until = 0
  if failures >= free then locked_until = now + math.min(max, first * 2 ^ (failures - free)) end
  redis.call('HSET', lockout, 'f', failures, 'l', locked_until)
  redis.call('PEXPIRE', lockout, math.max(locked_until, now) - now + forget)
end
return {1}
`;

// KEYS: bucket keys, then the lock-out to clear if any. ARGV[1]: number of buckets; per
// bucket: capacity, period, amount given back.
const SETTLE_SCRIPT = `${SCRIPT_HEAD}
local count = tonumber(ARGV[1])
for i = 1, count do
  local capacity, period, amount = tonumber(ARGV[i * 3 - 1]), tonumber(ARGV[i * 3]), tonumber(ARGV[i * 3 + 1])
  keep(KEYS[i], capacity, period, math.min(capacity, level(KEYS[i], capacity, period) + amount))
end
if KEYS[count + 1] then redis.call('DEL', KEYS[count + 1]) end
return 1
`;

// KEYS: throttle keys (already namespaced); deletes those that are lock-outs (a bucket has no 'f').
const CLEAR_LOCKOUTS_SCRIPT = `
for _, key in ipairs(KEYS) do
  if redis.call('HEXISTS', key, 'f') == 1 then redis.call('DEL', key) end
end
return 1
`;

export type RedisThrottleStoreOptions = {
  url: string;
  /** Prefix of every key (`studyhall:` by default, shared with the meetings' and the read cache's keys). */
  namespace: string;
  /** Redis stopped answering (throttling now counts in this instance) or answers again. */
  onStatus?: (change: { isReachable: boolean; error?: Error }) => void;
  /** The fallback's clock (tests). */
  now?: () => number;
};

/** A sign-in waits this long for Redis at most, then counts in memory. */
const COMMAND_TIMEOUT_MS = 1_000;

export async function createRedisThrottleStore(options: RedisThrottleStoreOptions): Promise<ThrottleStore> {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    // While disconnected, commands fail at once (and the fallback counts) instead of queueing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  await redis.connect();
  let isClosing = false;
  redis.on('error', () => {}); // reported through the calls that fail (onStatus), not twice
  const fallback = createMemoryThrottleStore({ now: options.now });
  let isReachable = true;
  const report = (reachable: boolean, error?: Error) => {
    if (reachable === isReachable || isClosing) return;
    isReachable = reachable;
    options.onStatus?.({ isReachable: reachable, ...(error ? { error } : {}) });
  };

  // Every key of one call must live in one slot, should this ever meet a Redis Cluster.
  const keyOf = (key: string) => `${options.namespace}throttle:{throttle}:${key}`;

  async function run(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    const result = await redis.eval(script, keys.length, ...keys.map(keyOf), ...args);
    report(true);
    return result;
  }

  return {
    async take(charge: Charge) {
      const keys = charge.buckets.map((entry) => entry.key);
      const args: number[] = [charge.buckets.length];
      for (const { bucket, cost } of charge.buckets) args.push(bucket.capacity, bucket.periodMs, cost);
      if (charge.lockout) {
        const { policy } = charge.lockout;
        keys.push(charge.lockout.key);
        args.push(policy.freeFailures, policy.firstLockMs, policy.maxLockMs, policy.forgetAfterMs);
      }
      try {
        const [isAllowed, wait, refusedBy] = (await run(TAKE_SCRIPT, keys, args)) as number[];
        if (isAllowed === 1) return { isAllowed: true };
        return { isAllowed: false, retryAfterMs: wait!, refusedBy: refusedBy === -1 ? 'lockout' : refusedBy! };
      } catch (error) {
        report(false, error as Error);
        return fallback.take(charge);
      }
    },

    async settle(refund: Refund) {
      const keys = refund.buckets.map((entry) => entry.key);
      const args: number[] = [refund.buckets.length];
      for (const { bucket, amount } of refund.buckets) args.push(bucket.capacity, bucket.periodMs, amount);
      if (refund.clearLockout) keys.push(refund.clearLockout);
      try {
        await run(SETTLE_SCRIPT, keys, args);
      } catch (error) {
        report(false, error as Error);
        await fallback.settle(refund);
      }
    },

    async clearLockouts(prefix: string) {
      // Rare (a teacher's reset): a SCAN of the throttle's keys, in pages, never a KEYS.
      const pattern = `${keyOf(prefix).replace(/[*?[\]\\]/g, '\\$&')}*`;
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
          if (keys.length > 0) await redis.eval(CLEAR_LOCKOUTS_SCRIPT, keys.length, ...keys);
          cursor = next;
        } while (cursor !== '0');
        report(true);
      } catch (error) {
        report(false, error as Error);
      }
      // What was counted here while Redis was away is forgotten too.
      await fallback.clearLockouts(prefix);
    },

    async close() {
      isClosing = true;
      await fallback.close();
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
