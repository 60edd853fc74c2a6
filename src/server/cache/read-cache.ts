/**
 * Short-lived answers to the reads every page sends (decision 015).
 *
 * A page is kept for `ttlMs` (1 s by default) and only while the data it was read from has
 * not changed: every entry names tags (`class:7B:quizzes`, `student:<id>:attempts`…) and a
 * write that commits calls `changed(tags)`, which bumps their versions. A read compares the
 * versions its entry was loaded under with the current ones, so a person always sees their
 * own writes, on every instance when the versions live in Redis. The time limit covers what
 * no write announces: a deadline passing, an attempt running out of time, a renamed teacher.
 */
export interface ReadCache {
  /**
   * The value kept under `key` if it is younger than the time limit and none of `tags` has
   * changed since it was loaded; otherwise `load()`, kept for the next caller. Callers that
   * miss together under the same versions share one load.
   */
  read<T>(
    key: string,
    tags: readonly string[],
    load: (expiresBy: ExpiresBy) => Promise<T>,
    options?: ReadOptions,
  ): Promise<T>;
  /** Call after a write has committed: entries read from these tags are stale everywhere. */
  changed(tags: readonly string[]): Promise<void>;
  /** Forgets everything this instance keeps, loads under way included (changes may have gone unannounced). */
  clear(): void;
  close(): Promise<void>;
}

/**
 * Where tag versions live: this process (one instance) or Redis (several). A version only
 * has to differ after a change; entries compare the whole list they were loaded under.
 */
export interface TagVersions {
  current(tags: readonly string[]): Promise<readonly number[]> | readonly number[];
  bump(tags: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tag versions read once for a whole request, after it arrived (decision 015, addendum of
 * 2026-12-05): the token's session version and the tags its pages are expected to need, in
 * one round trip. A read of that request may use them instead of asking again: any write
 * acknowledged before the request was sent had bumped its tags before they were read, so the
 * writer still reads their own write. Never shared between requests.
 */
export type VersionSnapshot = {
  /** The versions these came from; a cache over other versions ignores the snapshot. */
  readonly source: TagVersions;
  readonly versions: Map<string, number>;
  /** Set when the request's version read failed: its reads fail the same way (and go to the database). */
  readonly failure?: unknown;
  /** Tags a read needed that the snapshot lacked (read then, and kept in it for the request's later reads). */
  readonly onMissing: (tags: readonly string[]) => void;
};

/**
 * Given to a load: an entry built from another entry (a student's page from their class's
 * part) is kept no longer than that part would be, so nothing in it is older than the time limit.
 */
export type ExpiresBy = (expiresAt: number) => void;

export type ReadOptions = {
  ttlMs?: number;
  /** The outer load this read is part of (its `ExpiresBy`): told when the value answered expires. */
  partOf?: ExpiresBy | undefined;
  /** The request's versions (request-versions.ts): tags it holds cost no round trip. */
  snapshot?: VersionSnapshot | undefined;
};

export const DEFAULT_READ_CACHE_TTL_MS = 1_000;
/**
 * No tagged entry lives longer than this, so a version may be forgotten this long after
 * its last bump (an entry that predates the bump has expired by then).
 */
export const MAX_TAGGED_TTL_MS = 60_000;
const DEFAULT_MAX_ENTRIES = 5_000;

type Entry = { value: unknown; versions: readonly number[]; expiresAt: number };
type Loading = { promise: Promise<unknown>; versions: readonly number[]; expiresAt: number };

export type ReadCacheOptions = {
  versions?: TagVersions;
  /** How long an entry is kept unless a read says otherwise; 0 turns caching off (every read loads). */
  ttlMs?: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
  /** Reports a failed version lookup or bump (the read then loads; a missed bump ages out). */
  onError?: (error: unknown) => void;
  now?: () => number;
};

export function createReadCache(options: ReadCacheOptions = {}): ReadCache {
  const versions = options.versions ?? createLocalTagVersions();
  const defaultTtlMs = options.ttlMs ?? DEFAULT_READ_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const reportError = options.onError ?? (() => {});
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Loading>();
  /** Moves on at each clear(): a load that began before it is not kept. */
  let generation = 0;

  function keep(key: string, entry: Entry) {
    entries.delete(key); // re-inserted last: the Map's order is the eviction order
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  /** The current versions of `tags`: from the request's snapshot where it holds them, one lookup for the rest. */
  async function versionsOf(tags: readonly string[], snapshot: VersionSnapshot | undefined) {
    if (!snapshot || snapshot.source !== versions) return versions.current(tags);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the version lookup threw, rethrown as is
    if (snapshot.failure !== undefined) throw snapshot.failure;
    let missing: string[] | undefined;
    for (const tag of tags) if (!snapshot.versions.has(tag)) (missing ??= []).push(tag);
    if (missing) {
      const read = await versions.current(missing);
      missing.forEach((tag, index) => snapshot.versions.set(tag, read[index]!));
      snapshot.onMissing(missing);
    }
    return tags.map((tag) => snapshot.versions.get(tag)!);
  }

  return {
    async read<T>(
      key: string,
      tags: readonly string[],
      load: (expiresBy: ExpiresBy) => Promise<T>,
      readOptions?: ReadOptions,
    ) {
      const partOf = readOptions?.partOf;
      if (defaultTtlMs <= 0) return load(() => {});
      const ttlMs = readOptions?.ttlMs ?? defaultTtlMs;
      if (tags.length > 0 && ttlMs > MAX_TAGGED_TTL_MS) {
        throw new Error(`A tagged read may be kept ${MAX_TAGGED_TTL_MS} ms at most`);
      }
      let current: readonly number[];
      try {
        current = tags.length === 0 ? [] : await versionsOf(tags, readOptions?.snapshot);
      } catch (error) {
        reportError(error); // without versions nothing can be trusted: read the database
        return load(() => {});
      }
      const entry = entries.get(key);
      if (entry && entry.expiresAt > now() && sameVersions(entry.versions, current)) {
        partOf?.(entry.expiresAt);
        return entry.value as T;
      }
      const pending = loading.get(key);
      if (pending && sameVersions(pending.versions, current)) {
        partOf?.(pending.expiresAt);
        return pending.promise as Promise<T>;
      }

      const startedAt = now();
      const startedIn = generation;
      const own: Loading = { promise: Promise.resolve(), versions: current, expiresAt: startedAt + ttlMs };
      const promise = load((partExpiresAt) => {
        if (partExpiresAt < own.expiresAt) own.expiresAt = partExpiresAt;
      });
      own.promise = promise;
      loading.set(key, own);
      try {
        const value = await promise;
        // Versions read before the load: a change during it makes the entry stale at once.
        if (loading.get(key) === own && startedIn === generation)
          keep(key, { value, versions: current, expiresAt: own.expiresAt });
        partOf?.(own.expiresAt);
        return value;
      } finally {
        if (loading.get(key) === own) loading.delete(key);
      }
    },

    async changed(tags) {
      if (tags.length === 0) return;
      try {
        await versions.bump(tags);
      } catch (error) {
        reportError(error); // other instances see the change when their entries expire
      }
    },

    clear() {
      generation += 1;
      entries.clear();
      loading.clear();
    },

    close: () => versions.close(),
  };
}

/** The tags of what the cached reads depend on, named in one place so writers and readers agree. */
export const cacheTags = {
  /** Any student's averages (every leaderboard page). */
  leaderboard: 'leaderboard',
  /** The quizzes published to a class (its id, decision 031). */
  classQuizzes: (classId: string) => `class-quizzes:${classId}`,
  /** Who belongs to which class: any join or removal (decision 031); the class leaderboards read it. */
  classMemberships: 'class-memberships',
  /** Which classes a student belongs to: a join, a removal (decision 031). */
  studentClasses: (studentId: string) => `student-classes:${studentId}`,
  /** A student's attempts: started, submitted, closed by the timer. */
  studentAttempts: (studentId: string) => `student-attempts:${studentId}`,
  /** A class library, its resources and their stars (the class's id). */
  classResources: (classId: string) => `class-resources:${classId}`,
  /** An account's session version: a password change or "sign out of all devices" (decision 017). */
  accountSessions: (role: 'teacher' | 'student', accountId: string) => `account-sessions:${role}:${accountId}`,
};

/** For code that writes outside a serving app (the demo seed, tests): every read loads, every change is a no-op. */
export const readsUncached = (): ReadCache => createReadCache({ ttlMs: 0 });

function sameVersions(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((version, index) => version === b[index]);
}

/**
 * Versions for one instance: the sequence number of each tag's last change. Changes older
 * than MAX_TAGGED_TTL_MS are forgotten (read as 0): every entry loaded before them has
 * expired, so a school's 100,000 student tags do not stay in memory.
 */
export function createLocalTagVersions(now: () => number = Date.now): TagVersions {
  const lastChange = new Map<string, { sequence: number; at: number }>();
  let sequence = 0;
  let lastPrunedAt = now();

  function pruneOldChanges() {
    const moment = now();
    if (moment - lastPrunedAt < MAX_TAGGED_TTL_MS) return;
    lastPrunedAt = moment;
    // Map order is the order of the last change (bump re-inserts), so the old ones come first.
    for (const [tag, change] of lastChange) {
      if (moment - change.at <= MAX_TAGGED_TTL_MS) break;
      lastChange.delete(tag);
    }
  }

  return {
    current: (tags) => tags.map((tag) => lastChange.get(tag)?.sequence ?? 0),
    async bump(tags) {
      pruneOldChanges();
      sequence += 1;
      const at = now();
      for (const tag of tags) {
        lastChange.delete(tag);
        lastChange.set(tag, { sequence, at });
      }
    },
    async close() {},
  };
}
