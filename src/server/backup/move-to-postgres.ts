import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database, RawQuery } from '../db/client.ts';
import { MIGRATION_LOCK_KEY, openDatabase, pgliteDirectory } from '../db/client.ts';
import { migrateSchema } from '../db/migrate.ts';
import * as schema from '../db/schema.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { migrationLevel } from './snapshot.ts';

/**
 * `npm run move-to-postgres` (issue 31 point 5, decision 051): copies the school in the
 * embedded database of DATA_DIR into an empty PostgreSQL database, in one transaction, and
 * proves the copy by row counts and checksums per table on both sides. Files stay in
 * DATA_DIR/uploads (and the JWT secret in DATA_DIR/jwt-secret): the server started with
 * DATABASE_URL and the same DATA_DIR serves them as before.
 */

/** Written into DATA_DIR after a move: the embedded copy refuses to start while it exists. */
export const MOVED_MARKER_NAME = 'moved-to-postgres.json';

export class MoveRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoveRefusedError';
  }
}

export type TableReport = { table: string; rows: number; sourceChecksum: string; targetChecksum: string };
export type MoveReport = { migration: string; tables: TableReport[]; sequences: number; marker: string };

type MovedMarker = { movedAt: string; target: string; migration: string };

/** The database's address without its password, as the marker and the messages show it. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}

/** Why the embedded copy in `dataDir` must not start, or undefined: the school moved to PostgreSQL. */
export function movedAwayMessage(dataDir: string): string | undefined {
  const markerPath = path.join(dataDir, MOVED_MARKER_NAME);
  if (!existsSync(markerPath)) return undefined;
  let marker: Partial<MovedMarker> = {};
  try {
    marker = JSON.parse(readFileSync(markerPath, 'utf8')) as MovedMarker;
  } catch {
    // Damaged: still moved; the message names the file.
  }
  return (
    `This school moved to PostgreSQL${marker.target ? ` (${marker.target})` : ''}${marker.movedAt ? ` on ${marker.movedAt}` : ''}: ` +
    `the embedded database in ${dataDir} is the old copy and no longer up to date. ` +
    'Start StudyHall with DATABASE_URL set to that database (keep the same DATA_DIR: uploaded files and the JWT secret stay in it). ' +
    `To undo the move and go back to the embedded copy (what changed in PostgreSQL since is not in it), delete ${markerPath}.`
  );
}

/** Quoted identifier for SQL built from catalog names. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Rows per INSERT: bounded memory for large tables, few round trips for small ones. */
const ROWS_PER_BATCH = 2_000;

/**
 * The same settings on both sides, so that a row's text (what the checksum hashes) is the
 * same text for the same values: time zone and date style shape timestamps, float digits
 * shape reals.
 */
const CHECKSUM_SETTINGS = ["set TimeZone = 'UTC'", "set DateStyle = 'ISO, MDY'", 'set extra_float_digits = 1'];

export async function moveToPostgres(options: { dataDir: string; databaseUrl: string }): Promise<MoveReport> {
  const { dataDir, databaseUrl } = options;
  if (!existsSync(pgliteDirectory(dataDir))) {
    throw new MoveRefusedError(`${dataDir} holds no embedded database (${pgliteDirectory(dataDir)} does not exist).`);
  }
  const lock = acquireDataDirLock(dataDir, { purpose: 'move' });
  try {
    const movedAway = movedAwayMessage(dataDir);
    if (movedAway) throw new MoveRefusedError(`Nothing to move. ${movedAway}`);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      // Refused before the source is opened, so a refusal changes nothing on either side (checked again in the transaction).
      await refuseNonEmptyTarget(client, databaseUrl);
      // The source reaches this version's schema, as the server would at its next start.
      const source = await openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir) });
      let report: Omit<MoveReport, 'marker'>;
      try {
        report = await source.whileExclusive!(async (sourceQuery) => {
          for (const setting of CHECKSUM_SETTINGS) await sourceQuery(setting);
          return copyInOneTransaction(sourceQuery, client, databaseUrl);
        });
      } finally {
        await source.close();
      }
      const marker: MovedMarker = {
        movedAt: new Date().toISOString(),
        target: describeDatabaseUrl(databaseUrl),
        migration: report.migration,
      };
      const markerPath = path.join(dataDir, MOVED_MARKER_NAME);
      writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
      return { ...report, marker: markerPath };
    } finally {
      await client.end();
    }
  } finally {
    lock.release();
  }
}

/** An empty database only: no table, view or sequence outside PostgreSQL's own schemas. */
async function refuseNonEmptyTarget(client: pg.Client, databaseUrl: string) {
  const { rows } = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      order by 1 limit 6`,
  );
  if (rows.length > 0) {
    const names = rows.slice(0, 5).map((row) => row.name);
    throw new MoveRefusedError(
      `${describeDatabaseUrl(databaseUrl)} is not empty (it holds ${names.join(', ')}${rows.length > 5 ? ', …' : ''}). ` +
        'Move into a new, empty database (createdb studyhall); nothing was changed.',
    );
  }
}

type TableInfo = { name: string; columns: string[]; primaryKey: string[]; references: string[] };

async function copyInOneTransaction(
  sourceQuery: RawQuery,
  client: pg.Client,
  databaseUrl: string,
): Promise<Omit<MoveReport, 'marker'>> {
  const migration = await migrationLevel(sourceQuery);
  // One transaction through drizzle: the migrations' own transaction becomes a savepoint inside
  // it. (A plain `begin` here did not hold: drizzle's transaction on a plain client sent its own
  // begin and commit, which ended ours right after the schema was made.)
  const target = drizzle(client, { schema }) as unknown as Database;
  return target.transaction(async (tx) => {
    // An instance started on the target meanwhile waits for this transaction (the lock migrations take).
    await client.query('select pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await refuseNonEmptyTarget(client, databaseUrl);
    for (const setting of CHECKSUM_SETTINGS) await client.query(setting);
    await migrateSchema(tx);
    const targetQuery: RawQuery = async (statement) => (await client.query<Record<string, unknown>>(statement)).rows;
    const targetLevel = await migrationLevel(targetQuery);
    if (targetLevel.applied !== migration.applied) {
      throw new Error(`the target reached migration ${targetLevel.latest}, the source is at ${migration.latest}`);
    }

    const tables = copyOrder(await describeTables(client));
    for (const table of tables) await copyTable(sourceQuery, client, table);
    const sequences = await copySequences(sourceQuery, client);

    const reports: TableReport[] = [];
    for (const table of tables) {
      const [sourceRows, targetRows] = [await tableDigest(sourceQuery, table), await tableDigest(targetQuery, table)];
      reports.push({
        table: table.name,
        rows: sourceRows.rows,
        sourceChecksum: sourceRows.checksum,
        targetChecksum: targetRows.checksum,
      });
      if (sourceRows.rows !== targetRows.rows || sourceRows.checksum !== targetRows.checksum) {
        throw new Error(
          `table ${table.name} differs after the copy (embedded: ${sourceRows.rows} rows, md5 ${sourceRows.checksum}; PostgreSQL: ${targetRows.rows} rows, md5 ${targetRows.checksum})`,
        );
      }
    }
    return { migration: migration.latest, tables: reports, sequences };
  });
}

/** The application's tables (schema public), their columns that take values, primary key and the tables they reference. */
async function describeTables(client: pg.Client): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[]; primary_key: string[]; references: string[] }>(
    `select c.relname as name,
       array(select a.attname::text from pg_attribute a where a.attrelid = c.oid and a.attnum > 0
               and not a.attisdropped and a.attgenerated = '' order by a.attnum) as columns,
       array(select a.attname::text from pg_index i join pg_attribute a on a.attrelid = i.indrelid
               and a.attnum = any(i.indkey) where i.indrelid = c.oid and i.indisprimary
             order by array_position(i.indkey::int2[], a.attnum)) as primary_key,
       array(select distinct r.relname::text from pg_constraint f join pg_class r on r.oid = f.confrelid
               where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as references
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  return rows.map((row) => ({
    name: row.name,
    columns: row.columns,
    primaryKey: row.primary_key,
    references: row.references,
  }));
}

/** Referenced tables before the tables that reference them (foreign keys hold at every insert). */
function copyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: TableInfo) => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name)) throw new Error(`foreign keys form a cycle through ${table.name}`);
    visiting.add(table.name);
    for (const name of table.references) {
      const referenced = byName.get(name);
      if (referenced) place(referenced);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) place(table);
  return ordered;
}

const orderByKey = (table: TableInfo) =>
  (table.primaryKey.length > 0 ? table.primaryKey : table.columns).map(quoted).join(', ');

/**
 * One table, in batches ordered by its key: read from the embedded database as JSON (every
 * type has a text form PostgreSQL reads back), written with json_populate_recordset so
 * PostgreSQL parses each value by the column's own type.
 */
async function copyTable(sourceQuery: RawQuery, client: pg.Client, table: TableInfo) {
  const columns = table.columns.map(quoted).join(', ');
  const name = quoted(table.name);
  for (let offset = 0; ; offset += ROWS_PER_BATCH) {
    const [batch] = await sourceQuery(
      `select count(*)::int as count, coalesce(json_agg(row_to_json(page))::text, '[]') as rows
         from (select ${columns} from ${name} order by ${orderByKey(table)} limit ${ROWS_PER_BATCH} offset ${offset}) page`,
    );
    const count = Number(batch?.count ?? 0);
    if (count === 0) return;
    await client.query(
      `insert into ${name} (${columns}) overriding system value
         select ${columns} from json_populate_recordset(null::${name}, $1::json)`,
      [batch!.rows],
    );
    if (count < ROWS_PER_BATCH) return;
  }
}

/** Every sequence of the target set to where the source's stands (serial and identity columns go on from there). */
async function copySequences(sourceQuery: RawQuery, client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ name: string }>(
    `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'S' and n.nspname = 'public'`,
  );
  for (const { name } of rows) {
    const [state] = await sourceQuery(`select last_value::text as last_value, is_called from ${name}`);
    await client.query('select setval($1::regclass, $2::bigint, $3::boolean)', [
      name,
      state!.last_value,
      state!.is_called,
    ]);
  }
  return rows.length;
}

/** Row count and md5 of the rows' text, ordered by primary key: the same on both sides when the rows are. */
async function tableDigest(query: RawQuery, table: TableInfo): Promise<{ rows: number; checksum: string }> {
  // Byte order ("C"), whatever the database's collation: PGlite's is C.UTF-8, a server's is often
  // en_US.UTF-8, and text keys (quiz images, tasks, rooms) sort differently under each.
  const keys = table.primaryKey.length > 0 ? table.primaryKey.map((column) => `t.${quoted(column)}`) : ['t'];
  const orderKeys = keys.map((key) => `${key}::text collate "C"`).join(', ');
  const [row] = await query(
    `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by ${orderKeys}), '')) as checksum
       from ${quoted(table.name)} t`,
  );
  return { rows: Number(row!.rows), checksum: String(row!.checksum) };
}
