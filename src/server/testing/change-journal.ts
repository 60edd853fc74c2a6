import { sql } from 'drizzle-orm';
import {
  JOURNAL_TABLE,
  listTables,
  quoteIdentifier,
  rowKey,
  rowsOf,
  type Queryable,
  type RowChange,
} from './database-snapshot.ts';

/**
 * What each request changed, from a journal the database keeps itself: a trigger on every table
 * writes each inserted, updated and deleted row (before and after, as to_jsonb) into
 * JOURNAL_TABLE. The authorization matrix and the fuzz suite ask after each of their thousands of
 * calls what changed; reading every table for that (readAllRows, a digest) grew with the rows the
 * earlier calls had made, to a third of a second per call on PostgreSQL (decision 067), while the
 * journal is read in proportion to what the one call wrote.
 *
 * For test databases only: the triggers slow every write, and the journal grows until the test ends.
 */

type JournalEntry = {
  id: string | number;
  table_name: string;
  old_row: Record<string, unknown> | null;
  new_row: Record<string, unknown> | null;
};

export type ChangeJournal = {
  /** From here on: what `changesSinceMark` reports starts after this point. */
  mark(): Promise<void>;
  /** The rows changed since the last mark, as readAllRows before and after would have found them. */
  changesSinceMark(): Promise<RowChange[]>;
};

/** Puts the journal's table and a trigger on every table of the app's schema into `database`. */
export async function startChangeJournal(database: Queryable): Promise<ChangeJournal> {
  const tables = await listTables(database);
  const keyColumnsOf = new Map(tables.map(({ table, keyColumns }) => [table, keyColumns]));
  const statements = [
    `create table ${JOURNAL_TABLE} (id bigserial primary key, table_name text not null, old_row jsonb, new_row jsonb)`,
    `create function ${JOURNAL_TABLE}_record() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          insert into ${JOURNAL_TABLE} (table_name) values (tg_table_name);
        else
          insert into ${JOURNAL_TABLE} (table_name, old_row, new_row) values (
            tg_table_name,
            case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end,
            case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end
          );
        end if;
        return null;
      end $$`,
    ...tables.flatMap(({ table }) => [
      `create trigger ${JOURNAL_TABLE}_rows after insert or update or delete on ${quoteIdentifier(table)}
        for each row execute function ${JOURNAL_TABLE}_record()`,
      `create trigger ${JOURNAL_TABLE}_truncate after truncate on ${quoteIdentifier(table)}
        for each statement execute function ${JOURNAL_TABLE}_record()`,
    ]),
  ];
  // One at a time: PGlite's query takes one statement.
  for (const statement of statements) await database.db.execute(sql.raw(statement));

  let lastSeenId = 0;
  const readSince = async (id: number) =>
    rowsOf<JournalEntry>(
      await database.db.execute(
        sql`select id, table_name, old_row, new_row from ${sql.raw(JOURNAL_TABLE)} where id > ${id} order by id`,
      ),
    );

  return {
    async mark() {
      const [last] = rowsOf<{ id: string }>(
        await database.db.execute(sql.raw(`select coalesce(max(id), 0)::text as id from ${JOURNAL_TABLE}`)),
      );
      lastSeenId = Number(last!.id);
    },
    async changesSinceMark() {
      const entries = await readSince(lastSeenId);
      // Per row: how it was before the first change, and how it is after the last (null: no row).
      const rows = new Map<
        string,
        { table: string; key: string; before: RowChange['before'] | null; after: RowChange['after'] | null }
      >();
      const track = (table: string, row: Record<string, unknown>) => {
        const key = rowKey(keyColumnsOf.get(table) ?? [], row);
        const id = `${table} ${key}`;
        let tracked = rows.get(id);
        if (!tracked) rows.set(id, (tracked = { table, key, before: undefined, after: null }));
        return tracked;
      };
      const changes: RowChange[] = [];
      for (const entry of entries) {
        if (!entry.old_row && !entry.new_row) {
          changes.push({ table: entry.table_name, key: '(truncated)', kind: 'removed', before: {} });
          continue;
        }
        if (entry.old_row) {
          const tracked = track(entry.table_name, entry.old_row);
          if (tracked.before === undefined) tracked.before = entry.old_row;
          tracked.after = null;
        }
        if (entry.new_row) {
          const tracked = track(entry.table_name, entry.new_row);
          if (tracked.before === undefined) tracked.before = null;
          tracked.after = entry.new_row;
        }
      }
      for (const { table, key, before, after } of rows.values()) {
        if (!before && after) changes.push({ table, key, kind: 'added', after });
        else if (before && !after) changes.push({ table, key, kind: 'removed', before });
        else if (before && after && JSON.stringify(before) !== JSON.stringify(after))
          changes.push({ table, key, kind: 'changed', before, after });
      }
      return changes;
    },
  };
}
