import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A connected, migrated database and how to close it. */
export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded database only: a tarball of its data directory (test templates, backups). */
  dumpDataDir?: () => Promise<Blob>;
};

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Sees every statement Drizzle sends (tests count queries with it). */
export type QueryListener = (query: string, params: unknown[]) => void;

export type DatabaseOptions = (
  | { kind: 'postgres'; url: string }
  /** dataDir unset means in memory; loadDataDir starts from a dump (tests). */
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }
) & { onQuery?: QueryListener };

const queryLogger = (onQuery: QueryListener | undefined) => (onQuery ? { logger: { logQuery: onQuery } } : {});

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = options.kind === 'postgres' ? openPostgres(options.url, options.onQuery) : await openPglite(options);
  try {
    await handle.migrate();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** Embedded PostgreSQL in DATA_DIR: no server to install for one small school. */
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
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

function openPostgres(url: string, onQuery?: QueryListener) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its server must not crash the process; queries report it.
  pool.on('error', () => {});
  const db = drizzlePostgres(pool, { schema, ...queryLogger(onQuery) }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: 'postgres' as const,
    migrate: () => migratePostgres(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDirectory = (dataDir: string) => path.join(dataDir, 'pglite');
