/**
 * Where throttling counts (decision 016): this process, or Redis when several instances
 * serve one school (redis-throttle-store.ts). Two kinds of counter, charged together:
 *
 * - a **bucket**: up to `capacity` points at once, refilled continuously at `capacity` per
 *   `periodMs`; an attempt costs points and is refused while the bucket holds too few;
 * - a **lock-out**: failed attempts on one account; the first few are free, then each one
 *   locks the account for longer, up to a bound, and a success clears them.
 *
 * Every attempt is charged as if it failed *before* its outcome is known, and `settle` gives
 * back what a success does not cost. So a thousand guesses sent at once are refused after
 * the first few, instead of all passing a check that none has counted in yet.
 */
export interface ThrottleStore {
  /** All or nothing: charges every bucket and counts a failure on the lock-out, or changes nothing and says why. */
  take(charge: Charge): Promise<Verdict>;
  /** After the outcome: points given back to buckets and, on success, the account's failures forgotten. */
  settle(refund: Refund): Promise<void>;
  /** Forgets every lock-out whose key starts with `prefix` (all of one account's known devices). */
  clearLockouts(prefix: string): Promise<void>;
  close(): Promise<void>;
}

/** A budget: `capacity` points at once, refilled continuously at `capacity` per `periodMs`. */
export type Bucket = { capacity: number; periodMs: number };

/** Failed attempts on one account: `freeFailures` cost nothing, then each locks for longer. */
export type LockoutPolicy = {
  freeFailures: number;
  /** The lock that follows the last free failure; each further failure doubles it... */
  firstLockMs: number;
  /** ...up to this bound, so nobody is locked out for good by someone failing on purpose. */
  maxLockMs: number;
  /** Failures are forgotten this long after the last one (or its lock) ended. */
  forgetAfterMs: number;
};

export type Charge = {
  buckets: { key: string; bucket: Bucket; cost: number }[];
  /** Counts one failure on this account now; a success clears it (settle). */
  lockout?: { key: string; policy: LockoutPolicy } | undefined;
};

export type Verdict =
  | { isAllowed: true }
  /** `refusedBy`: the index of the bucket, or 'lockout'; the counter with the longest wait. */
  | { isAllowed: false; retryAfterMs: number; refusedBy: number | 'lockout' };

export type Refund = {
  buckets: { key: string; bucket: Bucket; amount: number }[];
  clearLockout?: string | undefined;
};

/** How long the failure that brings an account to `failures` locks it (0: not locked). */
export function lockDurationMs(failures: number, policy: LockoutPolicy): number {
  if (failures < policy.freeFailures) return 0;
  return Math.min(policy.maxLockMs, policy.firstLockMs * 2 ** (failures - policy.freeFailures));
}

/** A bucket's points at `now`, `updatedAt` being when it held `tokens`. */
export function refilled(bucket: Bucket, tokens: number, updatedAt: number, now: number): number {
  return Math.min(bucket.capacity, tokens + (Math.max(0, now - updatedAt) * bucket.capacity) / bucket.periodMs);
}

/** How long until a bucket holding `tokens` holds `cost`. */
export function waitForPoints(bucket: Bucket, tokens: number, cost: number): number {
  return tokens >= cost ? 0 : Math.ceil(((cost - tokens) * bucket.periodMs) / bucket.capacity);
}

type BucketState = { kind: 'bucket'; tokens: number; updatedAt: number; expiresAt: number };
type LockoutState = { kind: 'lockout'; failures: number; lockedUntil: number; expiresAt: number };

/** Counters kept at most by one process; beyond, the expired go first, then the oldest. */
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * The counters in this process (one instance, or the fallback while Redis is unreachable).
 * Entries expire when they would be back to their starting state (a full bucket, forgotten
 * failures), and there are at most `maxEntries`: a flood of made-up account names costs
 * memory up to that bound, then the oldest counters are dropped.
 */
export function createMemoryThrottleStore(options: { now?: () => number; maxEntries?: number } = {}): ThrottleStore {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, BucketState | LockoutState>();

  function read<Kind extends 'bucket' | 'lockout'>(key: string, kind: Kind, at: number) {
    const entry = entries.get(key);
    if (!entry || entry.kind !== kind || entry.expiresAt <= at) return undefined;
    return entry as Extract<BucketState | LockoutState, { kind: Kind }>;
  }

  function write(key: string, entry: BucketState | LockoutState) {
    entries.delete(key); // re-inserted last: the Map's order is the eviction order
    entries.set(key, entry);
    if (entries.size <= maxEntries) return;
    const at = now();
    for (const [candidate, state] of entries) if (state.expiresAt <= at) entries.delete(candidate);
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  const tokensOf = (key: string, bucket: Bucket, at: number) => {
    const state = read(key, 'bucket', at);
    return state ? refilled(bucket, state.tokens, state.updatedAt, at) : bucket.capacity;
  };

  const keepBucket = (key: string, bucket: Bucket, tokens: number, at: number) =>
    write(key, {
      kind: 'bucket',
      tokens,
      updatedAt: at,
      expiresAt: at + waitForPoints(bucket, tokens, bucket.capacity) + 1,
    });

  return {
    async take(charge) {
      const at = now();
      let retryAfterMs = 0;
      let refusedBy: number | 'lockout' = 0;
      const levels = charge.buckets.map(({ key, bucket, cost }, index) => {
        const tokens = tokensOf(key, bucket, at);
        const wait = waitForPoints(bucket, tokens, cost);
        if (wait > retryAfterMs) [retryAfterMs, refusedBy] = [wait, index];
        return tokens;
      });
      const lockout = charge.lockout ? read(charge.lockout.key, 'lockout', at) : undefined;
      if (lockout && lockout.lockedUntil - at > retryAfterMs) {
        [retryAfterMs, refusedBy] = [lockout.lockedUntil - at, 'lockout'];
      }
      if (retryAfterMs > 0) return { isAllowed: false, retryAfterMs, refusedBy };

      charge.buckets.forEach(({ key, bucket, cost }, index) => keepBucket(key, bucket, levels[index]! - cost, at));
      if (charge.lockout) {
        const { key, policy } = charge.lockout;
        const failures = (lockout?.failures ?? 0) + 1;
        const lockMs = lockDurationMs(failures, policy);
        const lockedUntil = lockMs > 0 ? at + lockMs : 0;
        write(key, {
          kind: 'lockout',
          failures,
          lockedUntil,
          expiresAt: Math.max(lockedUntil, at) + policy.forgetAfterMs,
        });
      }
      return { isAllowed: true };
    },

    async settle(refund) {
      const at = now();
      for (const { key, bucket, amount } of refund.buckets) {
        keepBucket(key, bucket, Math.min(bucket.capacity, tokensOf(key, bucket, at) + amount), at);
      }
      if (refund.clearLockout) entries.delete(refund.clearLockout);
    },

    async clearLockouts(prefix) {
      for (const [key, state] of entries) if (state.kind === 'lockout' && key.startsWith(prefix)) entries.delete(key);
    },

    async close() {
      entries.clear();
    },
  };
}
