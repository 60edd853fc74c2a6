import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';
import { fillIdentityKeys } from './identity-keys.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Something that runs statements: the database or the migration's transaction. */
export type MigrationExecutor = Pick<Database, 'execute'>;

/**
 * Steps in JavaScript that a migration needs, by the tag of the migration they complete: run
 * in the same transaction, after its SQL and before the next migration's. For data SQL cannot
 * compute the way the application does (identity keys: decision 024).
 */
const STEPS_AFTER: Record<string, (tx: MigrationExecutor) => Promise<unknown>> = {
  '0007_identity-keys': fillIdentityKeys,
};

type JournalEntry = { idx: number; when: number; tag: string };

/** This version's migrations, oldest first (drizzle-kit's journal, committed with them). */
export function migrationJournal(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries;
}

/**
 * Brings the schema up to date, or up to the migration `through` (tests start from an older
 * schema). drizzle's own migrator, plus the JavaScript steps: the same bookkeeping table
 * (drizzle.__drizzle_migrations: a file's sha256 and its journal time, the newest time
 * deciding what is new), and every pending migration in one transaction, so a failure
 * leaves the database as it was.
 */
export async function migrateSchema(db: Database, options: { through?: string } = {}): Promise<void> {
  const journal = migrationJournal();
  const last =
    options.through === undefined ? journal.length : journal.findIndex((entry) => entry.tag === options.through) + 1;
  if (last === 0) throw new Error(`No migration is called ${options.through}`);
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(sql`create table if not exists drizzle.__drizzle_migrations (
    id serial primary key, hash text not null, created_at bigint)`);
  const [newest] = (
    (await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`)) as {
      rows: { created_at: string | number }[];
    }
  ).rows;
  const pending = journal
    .slice(0, last)
    .filter((entry) => newest === undefined || Number(newest.created_at) < entry.when);
  if (pending.length === 0) return;
  await db.transaction(async (tx) => {
    for (const entry of pending) {
      const text = readFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), 'utf8');
      for (const statement of text.split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
      await STEPS_AFTER[entry.tag]?.(tx);
      const hash = createHash('sha256').update(text).digest('hex');
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${hash}, ${entry.when})`,
      );
    }
  });
}
