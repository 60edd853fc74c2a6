import { randomBytes } from 'node:crypto';
import { is } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY, MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from './client.ts';
import * as schema from './schema.ts';
import { patience } from '../testing/patience.ts';

/** The limit of this file's slow tests (decision 042). */
const SLOW_TEST = { timeout: patience(60_000) };

/**
 * Several instances starting together on one empty PostgreSQL database, through the
 * real start-up path (openDatabase): they take turns on the migration lock, every one
 * starts, the schema is whole and each migration is recorded once.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const INSTANCES = 4;

const databaseUrl = (name: string) => {
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
};

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const createdDatabases: string[] = [];
/** A new, empty database; dropped after the file. */
async function emptyDatabase(): Promise<string> {
  const name = `studyhall_migrate_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl!, (client) => client.query(`CREATE DATABASE ${name}`));
  createdDatabases.push(name);
  return databaseUrl(name);
}

afterAll(async () => {
  if (!adminUrl) return;
  for (const name of createdDatabases) {
    await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
});

/** Tables, columns, indexes, constraints and enums of our schemas, one line each, sorted. */
async function catalog(url: string): Promise<string[]> {
  const { rows } = await withClient(url, (client) =>
    client.query<{ item: string }>(`
      select 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type
             || ' null=' || is_nullable || ' default=' || coalesce(column_default, '') as item
        from information_schema.columns where table_schema in ('public', 'drizzle')
      union all
      select 'index ' || schemaname || '.' || indexname || ' ' || indexdef
        from pg_indexes where schemaname in ('public', 'drizzle')
      union all
      select 'constraint ' || conrelid::regclass::text || '.' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace::regnamespace::text in ('public', 'drizzle')
      union all
      select 'enum ' || t.typname || ' ' || string_agg(e.enumlabel, ',' order by e.enumsortorder)
        from pg_type t join pg_enum e on e.enumtypid = t.oid
        where t.typnamespace::regnamespace::text = 'public' group by t.typname`),
  );
  return rows.map((row) => row.item).sort();
}

async function appliedMigrations(url: string): Promise<string[]> {
  const { rows } = await withClient(url, (client) =>
    client.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by created_at, id'),
  );
  return rows.map((row) => row.hash);
}

const migrationFiles = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
const schemaTables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table).name)
  .sort();

/** The database as one instance alone leaves it: what the racing ones must match. */
let reference: Promise<string[]> | undefined;
const referenceCatalog = () =>
  (reference ??= (async () => {
    const url = await emptyDatabase();
    await (await openDatabase({ kind: 'postgres', url })).close();
    return catalog(url);
  })());

async function expectFullyMigrated(url: string) {
  expect(await appliedMigrations(url)).toEqual(migrationFiles.map((migration) => migration.hash));
  const found = await catalog(url);
  expect(found).toEqual(await referenceCatalog());
  expect(schemaTables).toContain('quiz_attempts');
  for (const table of schemaTables) expect(found.some((item) => item.startsWith(`column public.${table}.`))).toBe(true);
}

describe.skipIf(!adminUrl)('migrations with several instances starting together (PostgreSQL)', SLOW_TEST, () => {
  it(`lets ${INSTANCES} instances start at once on an empty database`, async () => {
    const url = await emptyDatabase();
    const starts = await Promise.allSettled(
      Array.from({ length: INSTANCES }, () => openDatabase({ kind: 'postgres', url })),
    );
    const handles = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
    await Promise.all(handles.map((handle) => handle.close()));
    expect(starts.filter((start) => start.status === 'rejected')).toEqual([]);
    expect(migrationFiles.length).toBeGreaterThan(0);
    await expectFullyMigrated(url);
  });

  it('makes instances wait while the lock is held, then each finds its turn', async () => {
    const url = await emptyDatabase();
    await withClient(url, async (holder) => {
      // Another instance, mid-migration: it holds the lock the way openDatabase does.
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);

      let waiting = 0;
      let allWaiting!: () => void;
      const everyoneWaits = new Promise<void>((resolve) => (allWaiting = resolve));
      const onMigrationWait = () => {
        if (++waiting === 2) allWaiting();
      };
      const starts = [1, 2].map(() => openDatabase({ kind: 'postgres', url, onMigrationWait }));
      const handles: DatabaseHandle[] = [];
      try {
        const finishedEarly = Promise.allSettled(starts).then(() => {
          throw new Error('an instance finished its start without waiting for the lock');
        });
        await Promise.race([everyoneWaits, finishedEarly]);
        // Nothing has been touched while they wait.
        const { rows } = await holder.query<{ found: string | null }>(`select to_regnamespace('drizzle') as found`);
        expect(rows[0]!.found).toBeNull();
      } finally {
        await holder.query('rollback'); // releases the lock
        for (const start of await Promise.allSettled(starts)) {
          if (start.status === 'fulfilled') handles.push(start.value);
        }
        await Promise.all(handles.map((handle) => handle.close()));
      }
      expect(handles).toHaveLength(2);
    });
    await expectFullyMigrated(url);

    // A later start finds everything done: no wait, nothing applied again.
    let waited = false;
    const later = await openDatabase({ kind: 'postgres', url, onMigrationWait: () => (waited = true) });
    await later.close();
    expect(waited).toBe(false);
    await expectFullyMigrated(url);
  });
});
