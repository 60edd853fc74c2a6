import { eq, sql } from 'drizzle-orm';
import {
  cacheTags,
  createReadCache,
  MAX_TAGGED_TTL_MS,
  type ReadCache,
  type TagVersions,
  type VersionSnapshot,
} from '../../cache/read-cache.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { students, teachers } from '../../db/schema.ts';
import type { AccountRef, SessionVersion, SessionVersionLookup } from '../../plugins/auth.ts';

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
  /** Forgets every version this instance keeps (changes may have gone unannounced). */
  forgetAll(): void;
};

/**
 * The database's own announcement of a session change (migration 0006): a trigger on teachers
 * and students NOTIFYs `<role>:<id>` when an account's session version moves or its row is
 * deleted, whoever did it (this app, another instance, an administrator in psql).
 */
export const ACCOUNT_SESSIONS_CHANNEL = 'studyhall_account_sessions';

const ACCOUNT_NOTICE = /^(teacher|student):([0-9a-f-]{36})$/;

/**
 * Ends the sessions of an account the moment the database says it changed or is gone: every
 * instance listens, so none keeps a removed account's version for the minute it may be kept
 * (issue 17). While the listening connection is lost, notices are missed: once it is back,
 * every kept version is forgotten. Resolves once listening; call the result to stop.
 */
export function followAccountChanges(
  database: DatabaseHandle,
  sessions: SessionVersions,
  report: (error: unknown) => void,
): Promise<() => Promise<void>> {
  return database.listen(ACCOUNT_SESSIONS_CHANNEL, {
    onNotice(payload) {
      const match = ACCOUNT_NOTICE.exec(payload);
      if (match) void sessions.changed({ role: match[1] as AccountRef['role'], id: match[2]! });
    },
    onMissed: () => sessions.forgetAll(),
    onError: report,
  });
}

// A deactivated teacher (decision 030) has no current version: every token of theirs is refused.
const teacherVersionQuery = (db: Database) =>
  db
    .select({ version: teachers.sessionVersion, deactivatedAt: teachers.deactivatedAt })
    .from(teachers)
    .where(eq(teachers.id, sql.placeholder('accountId')))
    .limit(1);

const studentVersionQuery = (db: Database) =>
  db
    .select({ version: students.sessionVersion })
    .from(students)
    .where(eq(students.id, sql.placeholder('accountId')))
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
    teacher: teacherVersionQuery(db).prepare('accounts_teacher_session_version'),
    student: studentVersionQuery(db).prepare('accounts_student_session_version'),
  };
  const load = async (account: AccountRef): Promise<SessionVersion | undefined> => {
    if (account.role === 'student') {
      const [row] = await queries.student.execute({ accountId: account.id });
      return row?.version;
    }
    const [row] = await queries.teacher.execute({ accountId: account.id });
    return row?.deactivatedAt ? { deactivatedAt: row.version } : row?.version;
  };
  const tag = (account: AccountRef) => cacheTags.accountSessions(account.role, account.id);
  const current = (account: AccountRef, snapshot?: VersionSnapshot) =>
    cache.read(`session-version:${account.role}:${account.id}`, [tag(account)], () => load(account), { snapshot });

  return {
    current,
    async refresh(account) {
      // Announcing the change again also repairs the other instances that missed it. Read past
      // the request's snapshot too: it was read before this bump.
      await cache.changed([tag(account)]);
      return current(account);
    },
    changed: (account) => cache.changed([tag(account)]),
    forgetAll: () => cache.clear(),
  };
}
