import type { TagVersions, VersionSnapshot } from './read-cache.ts';

/**
 * One round trip of tag versions per request when they live in Redis (decision 015, addendum
 * of 2026-12-05). Before, a cached read waited for two or three `MGET`s one after the other:
 * the token's session version, the student's classes, then the page's tags. Now the token
 * check reads the session version together with the tags the account's earlier requests
 * needed, and the request's reads take their versions from that snapshot.
 *
 * Why it keeps every promise: the snapshot is read after the request arrived and used by that
 * request only, so a write acknowledged before the request was sent (its bump done) is in it,
 * on whichever instance the request lands; and it is read before any load of the request, as
 * versions always are. The remembered tags are only a guess of what to read: a tag the guess
 * lacks is read when needed (a second round trip, as before) and added to the guess.
 */
export type RequestVersions = {
  /** The versions of `tags` and of the tags `account`'s requests needed before, in one lookup. */
  take(account: string, tags: readonly string[]): Promise<VersionSnapshot>;
};

/** Accounts whose tags one instance remembers (as many as the verified tokens it keeps). */
const ACCOUNTS_KEPT = 20_000;
/** A guess grows no further than this (a student of many classes reading many pages); it then starts again. */
const TAGS_PER_ACCOUNT = 32;

export function createRequestVersions(
  versions: TagVersions,
  options: { accountsKept?: number; tagsPerAccount?: number } = {},
): RequestVersions {
  const accountsKept = options.accountsKept ?? ACCOUNTS_KEPT;
  const tagsPerAccount = options.tagsPerAccount ?? TAGS_PER_ACCOUNT;
  const guesses = new Map<string, readonly string[]>();

  function learn(account: string, missing: readonly string[]) {
    const known = guesses.get(account) ?? [];
    const grown = known.length + missing.length > tagsPerAccount ? [...missing] : [...known, ...missing];
    guesses.delete(account); // re-inserted last: the Map's order is the eviction order
    guesses.set(account, grown);
    if (guesses.size > accountsKept) guesses.delete(guesses.keys().next().value!);
  }

  return {
    async take(account, tags) {
      const guess = guesses.get(account);
      const wanted = guess ? [...new Set([...tags, ...guess])] : tags;
      const snapshot = { source: versions, versions: new Map<string, number>() };
      const onMissing = (missing: readonly string[]) => learn(account, missing);
      let read: readonly number[];
      try {
        read = await versions.current(wanted);
      } catch (failure) {
        // The request's reads report it and go to the database, as each would have alone.
        return { ...snapshot, failure, onMissing };
      }
      wanted.forEach((tag, index) => snapshot.versions.set(tag, read[index]!));
      return { ...snapshot, onMissing };
    },
  };
}
