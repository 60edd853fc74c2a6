import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { migrateSchema } from './migrate.ts';
import * as schema from './schema.ts';

export { MIGRATIONS_FOLDER } from './migrate.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A connected, migrated database and how to close it. */
export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded database only: a tarball of its data directory (test templates). */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * Embedded database only: runs `work` while no other statement can run (PGlite's
   * transaction lock is held), so files copied meanwhile form one consistent snapshot
   * (backups, decision 019). `query` runs plain SQL inside that window.
   */
  whileExclusive?: <T>(work: (query: RawQuery) => Promise<T>) => Promise<T>;
  /**
   * Calls `onNotice` with the payload of every NOTIFY on `channel`, from any connection or
   * process on the database. On PostgreSQL a dedicated connection listens and reconnects when
   * it is lost; notices sent meanwhile are gone, so `onMissed` is called once it listens
   * again (and `onError` reports the loss). Resolves once listening; call the result to stop.
   */
  listen(channel: string, handlers: NoticeHandlers): Promise<() => Promise<void>>;
};

export type NoticeHandlers = {
  onNotice: (payload: string) => void;
  onMissed?: () => void;
  onError?: (error: unknown) => void;
};

/** Plain SQL with no parameters, answered with its rows. */
export type RawQuery = (statement: string) => Promise<Record<string, unknown>[]>;

/** Sees every statement Drizzle sends (tests count queries with it). */
export type QueryListener = (query: string, params: unknown[]) => void;

export type DatabaseOptions = (
  | {
      kind: 'postgres';
      url: string;
      /** DATABASE_LISTEN_URL: a direct connection for LISTEN when `url` goes through PgBouncer's transaction mode. */
      listenUrl?: string;
      /** How often the listener checks that notices arrive (tests shorten it). */
      listenHeartbeat?: { intervalMs: number; timeoutMs: number };
      /** Called once when another instance holds the migration lock and this one starts waiting. */
      onMigrationWait?: () => void;
    }
  /** dataDir unset means in memory; loadDataDir starts from a dump (tests). */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }
) & {
  onQuery?: QueryListener;
  /**
   * false opens the database as it is: backup and restore look at a snapshot, never change it;
   * the migration tests start from an older schema (migrateSchema with `through`).
   */
  isMigrated?: boolean;
};

/**
 * Key of the PostgreSQL advisory lock that serialises migrations between instances
 * starting together: "StudyHal" in ASCII read as a 64-bit integer (0x537475647948616c).
 * In pg_locks it shows as locktype 'advisory', classid 1400141156, objid 2034786668,
 * objsubid 1. Never change it: instances of two versions must still exclude each other.
 */
export const MIGRATION_LOCK_KEY = '6013560476838420844';

const queryLogger = (onQuery: QueryListener | undefined) => (onQuery ? { logger: { logQuery: onQuery } } : {});

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.kind === 'postgres' ? openPostgres(options) : await openPglite(options);
  if (options.isMigrated === false) return handle;
  try {
    await handle.migrate();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Embedded PostgreSQL in DATA_DIR: no server to install for one small school.
 * One process only: PGlite is Postgres in single-user mode inside this process, so
 * a DATA_DIR must never be opened by two processes at once (PGlite does not check:
 * two open the same folder, each sees only its own writes, and both write the same files).
 * Hence no migration lock here; several instances need DATABASE_URL.
 */
async function openPglite(options: { dataDir?: string; loadDataDir?: Blob; onQuery?: QueryListener }) {
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true }); // PGlite won't create parents
    // PGlite's files ignore the umask (0666); a private folder keeps other users out.
    chmodSync(options.dataDir, 0o700);
  }
  const client = await PGlite.create(options.dataDir, {
    // Bundled with PGlite (nothing is fetched): the trigram index of name searches needs it.
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema, ...queryLogger(options.onQuery) }) as unknown as Database;
  return {
    db,
    kind: 'pglite' as const,
    dumpDataDir: async () => client.dumpDataDir('none'),
    // Every PGlite query and transaction takes this lock, Drizzle's included.
    whileExclusive: <T>(work: (query: RawQuery) => Promise<T>) =>
      client.transaction(async (tx) =>
        work(async (statement) => (await tx.query<Record<string, unknown>>(statement)).rows),
      ),
    migrate: () => migrateSchema(db),
    // One process, one connection: no notice can be missed.
    listen: async (channel: string, handlers: NoticeHandlers) => {
      const stop = await client.listen(channel, handlers.onNotice);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

function openPostgres(options: Extract<DatabaseOptions, { kind: 'postgres' }>) {
  const pool = new pg.Pool({ connectionString: options.url, max: 10 });
  // An idle client losing its server must not crash the process; queries report it.
  pool.on('error', () => {});
  const db = drizzlePostgres(pool, { schema, ...queryLogger(options.onQuery) }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: 'postgres' as const,
    migrate: () => withMigrationLock(pool, options.onMigrationWait, () => migrateSchema(db)),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: (channel: string, handlers: NoticeHandlers) =>
      listenOnPostgres(pool, options.listenUrl ?? options.url, channel, handlers, options.listenHeartbeat),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Runs `migrate` while holding the migration lock, so that instances starting together
 * take turns: drizzle's migrator reads the last applied migration and then applies the
 * newer ones, and two doing that at once both try to create the same tables (one fails).
 * The next instance waits, then finds every migration recorded and does nothing.
 *
 * The lock is transaction-scoped (pg_advisory_xact_lock) and held by a dedicated
 * connection inside an open transaction that writes nothing; the migrations run on other
 * connections of the pool. Ending that transaction releases the lock, and so does the
 * connection dying (a crashed instance never leaves it behind). Unlike a session lock
 * (pg_advisory_lock), this also holds behind PgBouncer in transaction mode, which keeps
 * a client on one server connection only for the length of a transaction.
 */
async function withMigrationLock(pool: pg.Pool, onWait: (() => void) | undefined, migrate: () => Promise<void>) {
  const lockHolder = await pool.connect();
  let isConnectionBroken = false;
  try {
    await lockHolder.query('begin');
    const attempt = await lockHolder.query<{ locked: boolean }>(
      'select pg_try_advisory_xact_lock($1::bigint) as locked',
      [MIGRATION_LOCK_KEY],
    );
    if (!attempt.rows[0]?.locked) {
      onWait?.();
      await lockHolder.query('select pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    }
    await migrate();
  } finally {
    try {
      await lockHolder.query('rollback'); // the transaction wrote nothing: ending it releases the lock
    } catch {
      isConnectionBroken = true; // closing it releases the lock on the server's side
    }
    lockHolder.release(isConnectionBroken);
  }
}

/** How long a lost listening connection waits before it tries again: 250 ms, doubling up to this. */
const LISTEN_RETRY_MAX_MS = 5_000;
/** How often the listener checks that notices really arrive, and how long one may take. */
export const LISTEN_HEARTBEAT = { intervalMs: 15_000, timeoutMs: 5_000 } as const;
/** Heartbeats travel on the listened channel; listeners never see them. */
const HEARTBEAT_PREFIX = 'heartbeat:';

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries; behind
 * PgBouncer in transaction mode a LISTEN never hears anything, hence `listenUrl`, a direct
 * connection). Two things can silently stop notices: the connection dies or hangs (a NAT or
 * firewall dropping it without a reset), or it never heard anything (PgBouncer). So besides
 * TCP keepalive, a heartbeat NOTIFY goes out through the pool every
 * LISTEN_HEARTBEAT.intervalMs, the way real notices come, and must come back on the
 * listening connection within timeoutMs. A lost connection or a missed heartbeat: the
 * connection is made again (250 ms, doubling to LISTEN_RETRY_MAX_MS), `onError` says why,
 * and `onMissed` says notices may have been lost. While notices do not arrive, `onMissed`
 * is called at every missed heartbeat, so whatever the caller keeps is never older than that.
 */
async function listenOnPostgres(
  pool: pg.Pool,
  listenUrl: string,
  channel: string,
  handlers: NoticeHandlers,
  heartbeat: { intervalMs: number; timeoutMs: number } = LISTEN_HEARTBEAT,
) {
  let client: pg.Client | undefined;
  let isStopped = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  const quotedChannel = `"${channel.replaceAll('"', '""')}"`;
  const instanceNonce = Math.random().toString(36).slice(2);
  let heartbeatsSent = 0;
  let awaitedHeartbeat: { payload: string; timer: NodeJS.Timeout } | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: listenUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
    });
    next.on('notification', (notice) => {
      if (notice.channel !== channel || client !== next) return;
      const payload = notice.payload ?? '';
      if (!payload.startsWith(HEARTBEAT_PREFIX)) return handlers.onNotice(payload);
      if (payload === awaitedHeartbeat?.payload) {
        clearTimeout(awaitedHeartbeat.timer);
        awaitedHeartbeat = undefined;
      }
    });
    next.on('error', (error) => connectionLost(next, error));
    next.on('end', () => connectionLost(next, new Error('the listening connection closed')));
    client = next;
    await next.connect();
    await next.query(`listen ${quotedChannel}`);
  }

  function connectionLost(lost: pg.Client, reason: unknown) {
    if (isStopped || client !== lost) return;
    client = undefined;
    handlers.onError?.(reason);
    void lost.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (isStopped || retryTimer) return;
    const waitMs = Math.min(250 * 2 ** failures, LISTEN_RETRY_MAX_MS);
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (isStopped) return;
      connect().then(
        () => {
          failures = 0;
          handlers.onMissed?.();
        },
        (error: unknown) => {
          if (client) connectionLost(client, error);
          else scheduleReconnect();
        },
      );
    }, waitMs);
    retryTimer.unref();
  }

  function sendHeartbeat() {
    if (isStopped || !client || awaitedHeartbeat) return;
    const listening = client;
    const payload = `${HEARTBEAT_PREFIX}${instanceNonce}:${(heartbeatsSent += 1)}`;
    const timer = setTimeout(() => {
      awaitedHeartbeat = undefined;
      // Whatever was kept since the last heartbeat may be stale: forget it, listen afresh.
      handlers.onMissed?.();
      connectionLost(listening, new Error(`no notice arrived within ${heartbeat.timeoutMs} ms (heartbeat)`));
    }, heartbeat.timeoutMs);
    timer.unref();
    awaitedHeartbeat = { payload, timer };
    pool.query('select pg_notify($1, $2)', [channel, payload]).catch((error: unknown) => {
      // The database itself is unreachable: queries fail too, and report it. Wait for the next beat.
      clearTimeout(timer);
      awaitedHeartbeat = undefined;
      handlers.onError?.(error);
    });
  }

  await connect();
  const beat = setInterval(sendHeartbeat, heartbeat.intervalMs);
  beat.unref();
  return async () => {
    isStopped = true;
    clearInterval(beat);
    clearTimeout(retryTimer);
    if (awaitedHeartbeat) clearTimeout(awaitedHeartbeat.timer);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}

/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDirectory = (dataDir: string) => path.join(dataDir, 'pglite');
