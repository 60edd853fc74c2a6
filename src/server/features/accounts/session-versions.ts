import { eq, sql } from 'drizzle-orm';
import {
  cacheTags,
  createReadCache,
  MAX_TAGGED_TTL_MS,
  type ReadCache,
  type TagVersions,
} from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { students, teachers } from '../../db/schema.ts';
import type { AccountRef, SessionVersionLookup } from '../../plugins/auth.ts';

/**
 * How long an account's version is kept in memory. Every change announces itself (the
 * account's cache tag), so this bounds only a change whose announcement was lost (Redis
 * unreachable when it was bumped): the longest any tagged entry may live.
 */
const SESSION_VERSION_TTL_MS = MAX_TAGGED_TTL_MS;
/** Accounts whose version one instance keeps (as many as the verified tokens it remembers). */
const SESSION_VERSIONS_KEPT = 20_000;

export type SessionVersions = SessionVersionLookup & {
  /** Call after a bump has committed: every instance reads the new version on its next request. */
  changed(account: AccountRef): Promise<void>;
};

const versionQuery = (db: Database, table: typeof teachers | typeof students) =>
  db
    .select({ version: table.sessionVersion })
    .from(table)
    .where(eq(table.id, sql.placeholder('accountId')))
    .limit(1);

/**
 * The session versions of decision 017, read through a read cache of their own: checked by
 * every authenticated request, so they must not crowd the pages out of the page cache, and
 * they are exact (tag-versioned), so they are kept whatever READ_CACHE_MS says. With
 * `versions` in Redis, a change on one instance is seen by the next request on any other.
 */
export function createSessionVersions(
  db: Database,
  options: { versions?: TagVersions; onError?: (error: unknown) => void } = {},
): SessionVersions {
  return sessionVersionsThrough(
    db,
    createReadCache({
      versions: options.versions,
      ttlMs: SESSION_VERSION_TTL_MS,
      maxEntries: SESSION_VERSIONS_KEPT,
      onError: options.onError,
    }),
  );
}

/** The same over a given cache (the demo seed and tests pass one that never keeps anything). */
export function sessionVersionsThrough(db: Database, cache: ReadCache): SessionVersions {
  // Asked by every authenticated request: prepared once (PostgreSQL plans it once per connection).
  const queries = {
    teacher: versionQuery(db, teachers).prepare('accounts_teacher_session_version'),
    student: versionQuery(db, students).prepare('accounts_student_session_version'),
  };
  const load = async (account: AccountRef) => {
    const [row] = await queries[account.role].execute({ accountId: account.id });
    return row?.version;
  };
  const tag = (account: AccountRef) => cacheTags.accountSessions(account.role, account.id);
  const current = (account: AccountRef) =>
    cache.read(`session-version:${account.role}:${account.id}`, [tag(account)], () => load(account));

  return {
    current,
    async refresh(account) {
      // Announcing the change again also repairs the other instances that missed it.
      await cache.changed([tag(account)]);
      return current(account);
    },
    changed: (account) => cache.changed([tag(account)]),
  };
}
