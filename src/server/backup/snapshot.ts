import { randomBytes } from 'node:crypto';
import { copyFile, cp, link, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { getTableName } from 'drizzle-orm';
import type { DatabaseHandle, RawQuery } from '../db/client.ts';
import { pgliteDirectory } from '../db/client.ts';
import { migrationJournal } from '../db/migrate.ts';
import {
  quizAttempts,
  quizImages,
  quizzes,
  resources,
  resourceStars,
  students,
  tasks,
  teachers,
} from '../db/schema.ts';
import { appVersion, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, type TableCounts } from './manifest.ts';

/** Folders a backup or a restore works in, inside DATA_DIR (same file system: links and renames work). */
export const BACKUP_STAGING_PREFIX = '.backup-';
export const RESTORE_STAGING_PREFIX = '.restore-';

/** Written by PostgreSQL for the running process only; a restored copy must not carry them. */
const RUNTIME_FILES = new Set(['postmaster.pid', 'postmaster.opts']);

const COUNTED_TABLES = { teachers, students, quizzes, quizAttempts, tasks, resources, resourceStars } as const;

/** A staging folder under DATA_DIR for one backup. */
export function newBackupStaging(dataDir: string): string {
  return path.join(dataDir, `${BACKUP_STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
}

/**
 * Copies into `staging` one consistent moment of the embedded database and of the files
 * its rows refer to, and writes nothing else: `pglite/`, `uploads/<key>` and `jwt-secret`,
 * and returns the manifest that describes them.
 *
 * Consistency: everything below runs while PGlite's lock is held, so no statement runs
 * between the database copy and the file links. A file is stored before its row commits and
 * removed only after its row's deletion commits (resources service; quiz images, decision 036,
 * are never removed), so every row of the
 * copy has its file in uploads/ at that moment. Files are never changed in place (written
 * to .partial/, then renamed), so a hard link is as good as a copy and costs no time in the
 * lock. Files without a row (an upload whose row is not committed yet) are left out.
 *
 * The database copy is what a crash at that moment would leave (WAL included); a
 * CHECKPOINT first makes the replay on the first start of the restored copy short.
 */
export async function takeSnapshot(
  dataDir: string,
  database: Pick<DatabaseHandle, 'whileExclusive'>,
  staging: string,
): Promise<BackupManifest> {
  if (!database.whileExclusive) throw new Error('Only the embedded database is backed up by StudyHall');
  const uploadsFolder = path.join(dataDir, 'uploads');
  await mkdir(path.join(staging, 'uploads'), { recursive: true, mode: 0o700 });

  const snapshot = await database.whileExclusive(async (query) => {
    await query('checkpoint');
    const counts = await countRows(query);
    const migrations = await migrationLevel(query);
    const storedFiles = await query(
      `select storage_key from ${getTableName(resources)} where storage_key is not null
        union all select storage_key from ${getTableName(quizImages)} order by storage_key`,
    );
    await cp(pgliteDirectory(dataDir), path.join(staging, 'pglite'), {
      recursive: true,
      filter: (source) => !RUNTIME_FILES.has(path.basename(source)),
    });
    const missing: string[] = [];
    for (const { storage_key: key } of storedFiles as { storage_key: string }[]) {
      const isCopied = await linkOrCopy(path.join(uploadsFolder, key), path.join(staging, 'uploads', key));
      if (!isCopied) missing.push(key);
    }
    return { counts, migrations, missing, fileCount: storedFiles.length - missing.length };
  });

  // Outside the lock: the links already hold the files' content.
  let bytes = 0;
  for (const name of await readdir(path.join(staging, 'uploads'))) {
    bytes += (await stat(path.join(staging, 'uploads', name))).size;
  }
  const hasJwtSecret = await linkOrCopy(path.join(dataDir, 'jwt-secret'), path.join(staging, 'jwt-secret'));
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    app: { version: appVersion() },
    database: { kind: 'pglite', migrations: snapshot.migrations, counts: snapshot.counts },
    files: { count: snapshot.fileCount, bytes, missing: snapshot.missing },
    hasJwtSecret,
  };
}

/** Row counts of the tables a school's data lives in (a restore must find the same). */
export async function countRows(query: RawQuery): Promise<TableCounts> {
  const columns = Object.entries(COUNTED_TABLES)
    .map(([name, table]) => `(select count(*)::int from ${getTableName(table)}) as "${name}"`)
    .join(', ');
  const [row] = await query(`select ${columns}`);
  return row as TableCounts;
}

/** How far drizzle-kit's migrations went: their number and the last one's tag. */
export async function migrationLevel(query: RawQuery): Promise<{ applied: number; latest: string }> {
  const [row] = await query(
    'select count(*)::int as applied, max(created_at)::text as latest from drizzle.__drizzle_migrations',
  );
  const applied = Number(row?.applied ?? 0);
  const latestWhen = Number(row?.latest ?? 0);
  const known = migrationJournal().find((entry) => entry.when === latestWhen);
  return { applied, latest: applied === 0 ? '' : (known?.tag ?? `unknown migration of ${latestWhen}`) };
}

/** Hard link (same file system, instant), or a copy where links are refused; false when the source is missing. */
async function linkOrCopy(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
  }
  await copyFile(source, target);
  return true;
}

/** Staging folders of backups and restores cut short by a crash (call while holding DATA_DIR's lock). */
export async function removeStagingLeftovers(dataDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(BACKUP_STAGING_PREFIX) || name.startsWith(RESTORE_STAGING_PREFIX)) {
      await rm(path.join(dataDir, name), { recursive: true, force: true });
    }
  }
}
