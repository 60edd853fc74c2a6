import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';

/**
 * What the database (every table of the app's schema) and the uploads folder hold, to
 * prove that a refused request changed nothing, and that an accepted one changed only
 * the caller's own rows.
 */

export type Queryable = Pick<DatabaseHandle, 'db'>;

/** The change journal's own table (change-journal.ts), in test databases only: not one of the app's. */
export const JOURNAL_TABLE = 'test_row_changes';
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** table -> primary key (JSON) -> the row (JSON). */
export type TableRows = Map<string, Map<string, Record<string, unknown>>>;

export type RowChange = {
  table: string;
  key: string;
  kind: 'added' | 'removed' | 'changed';
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
};

export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The app's tables and their primary key columns, read from the catalog (new tables join by themselves). */
export async function listTables(database: Queryable): Promise<{ table: string; keyColumns: string[] }[]> {
  const rows = rowsOf<{ table_name: string; column_name: string | null }>(
    await database.db.execute(sql`
      select t.table_name, k.column_name
      from information_schema.tables t
      left join information_schema.table_constraints c
        on c.table_schema = t.table_schema and c.table_name = t.table_name and c.constraint_type = 'PRIMARY KEY'
      left join information_schema.key_column_usage k
        on k.constraint_schema = c.constraint_schema and k.constraint_name = c.constraint_name
      where t.table_schema = 'public' and t.table_type = 'BASE TABLE' and t.table_name <> ${JOURNAL_TABLE}
      order by t.table_name, k.ordinal_position`),
  );
  const tables = new Map<string, string[]>();
  for (const row of rows) {
    const keys = tables.get(row.table_name) ?? [];
    if (row.column_name) keys.push(row.column_name);
    tables.set(row.table_name, keys);
  }
  return [...tables].map(([table, keyColumns]) => ({ table, keyColumns }));
}

const tablesOf = new WeakMap<object, Promise<{ table: string; keyColumns: string[] }[]>>();

/** A row's key: its primary key's values (JSON), or the whole row for a table without one. */
export const rowKey = (keyColumns: string[], row: Record<string, unknown>) =>
  JSON.stringify(keyColumns.length > 0 ? keyColumns.map((column) => row[column]) : row);

/** Every row of every table, keyed by primary key (the whole row for a table without one): one statement. */
export async function readAllRows(database: Queryable): Promise<TableRows> {
  let listed = tablesOf.get(database.db);
  if (!listed) tablesOf.set(database.db, (listed = listTables(database)));
  const tables = await listed;
  const selectAll = tables
    .map(
      ({ table }) =>
        `'${table}', (select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) from ${quoteIdentifier(table)} t)`,
    )
    .join(', ');
  const [result] = rowsOf<{ tables: Record<string, Record<string, unknown>[]> }>(
    await database.db.execute(sql.raw(`select jsonb_build_object(${selectAll}) as tables`)),
  );
  const snapshot: TableRows = new Map();
  for (const { table, keyColumns } of tables) {
    const byKey = new Map<string, Record<string, unknown>>();
    for (const row of result!.tables[table] ?? []) byKey.set(rowKey(keyColumns, row), row);
    snapshot.set(table, byKey);
  }
  return snapshot;
}

export function changedRows(before: TableRows, after: TableRows): RowChange[] {
  const changes: RowChange[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(table) ?? new Map();
    const now = after.get(table) ?? new Map();
    for (const [key, row] of old) {
      const current = now.get(key);
      if (!current) changes.push({ table, key, kind: 'removed', before: row });
      else if (JSON.stringify(current) !== JSON.stringify(row))
        changes.push({ table, key, kind: 'changed', before: row, after: current });
    }
    for (const [key, row] of now) if (!old.has(key)) changes.push({ table, key, kind: 'added', after: row });
  }
  return changes;
}

/** Every file under the uploads folder (finished and partial), sorted. */
export async function listStoredFiles(folder: string | undefined): Promise<string[]> {
  if (!folder) return [];
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}
