import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { getTableName } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { migrateSchema } from '../db/migrate.ts';
import { quizImages, resources } from '../db/schema.ts';
import { ARCHIVE_ENTRIES, extractArchive, inspectArchive } from './archive.ts';
import { acquireDataDirLock, LOCK_FILE_NAME } from './data-dir-lock.ts';
import { restoreRefusal, type BackupManifest } from './manifest.ts';
import { countRows, migrationLevel, removeStagingLeftovers, RESTORE_STAGING_PREFIX } from './snapshot.ts';

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/**
 * `npm run restore`: puts a backup into DATA_DIR. Refuses a folder that holds anything
 * unless `isForced` (then what it held is replaced), and a folder a live process holds.
 * The archive is unpacked beside and opened; its migration level is compared with the
 * manifest, then it is migrated to this version's schema (a backup from an older version
 * lacks later tables, decision 051) and checked against its manifest (row counts, every
 * referenced file with its size), all before anything in DATA_DIR moves.
 */
export async function restoreBackup(options: {
  archive: string;
  dataDir: string;
  isForced?: boolean;
}): Promise<BackupManifest> {
  const { archive, dataDir } = options;
  const manifest = await inspectArchive(archive);
  const refusal = restoreRefusal(manifest);
  if (refusal) throw new RestoreRefusedError(refusal);

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  const lock = acquireDataDirLock(dataDir, { purpose: 'restore' });
  try {
    await removeStagingLeftovers(dataDir);
    const existing = (await readdir(dataDir)).filter((name) => name !== LOCK_FILE_NAME);
    if (existing.length > 0 && !options.isForced) {
      throw new RestoreRefusedError(
        `${dataDir} is not empty (it holds ${existing.join(', ')}). Restore into an empty or new folder (set DATA_DIR), ` +
          'or add --force to replace what it holds: its current database and files are deleted.',
      );
    }
    const staging = path.join(dataDir, `${RESTORE_STAGING_PREFIX}${randomBytes(6).toString('hex')}`);
    const replaced = `${staging}-replaced`;
    await mkdir(staging, { mode: 0o700 });
    try {
      await extractArchive(archive, staging);
      await verifyRestoredCopy(staging, manifest);
      await mkdir(path.join(staging, 'uploads'), { recursive: true, mode: 0o700 });
      // Moves within one folder: each rename is instant and complete.
      if (existing.length > 0) {
        await mkdir(replaced, { mode: 0o700 });
        for (const name of existing) await rename(path.join(dataDir, name), path.join(replaced, name));
      }
      for (const name of ARCHIVE_ENTRIES) {
        if (existsSync(path.join(staging, name))) await rename(path.join(staging, name), path.join(dataDir, name));
      }
    } finally {
      await rm(staging, { recursive: true, force: true });
      await rm(replaced, { recursive: true, force: true });
    }
  } finally {
    lock.release();
  }
  return manifest;
}

/**
 * Opens the unpacked database, checks it is at the manifest's migration, brings it to this
 * version's schema (the same migrations the server would run at its first start, in one
 * transaction), then compares it with the manifest and the unpacked files. The checks run
 * on the migrated copy: they use today's tables (quiz_images, since 0018), which an older
 * copy lacks; and a migration that failed is found here, before DATA_DIR is touched.
 */
async function verifyRestoredCopy(staging: string, manifest: BackupManifest) {
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(staging, 'pglite'), isMigrated: false });
  try {
    const migrations = await database.whileExclusive!(migrationLevel);
    if (!isDeepStrictEqual(migrations, manifest.database.migrations)) {
      throw new RestoreRefusedError(
        `The restored database is at migration ${migrations.latest}, the manifest says ${manifest.database.migrations.latest}; nothing was changed.`,
      );
    }
    try {
      await migrateSchema(database.db);
    } catch (error) {
      throw new RestoreRefusedError(
        `The backup's database (migration ${migrations.latest}) could not be brought to this version's schema (${(error as Error).message}); nothing was changed.`,
      );
    }
    await database.whileExclusive!(async (query) => {
      const counts = await countRows(query);
      if (!isDeepStrictEqual(counts, manifest.database.counts)) {
        throw new RestoreRefusedError(
          `The restored database does not hold what the backup's manifest lists (found ${JSON.stringify(counts)}, expected ${JSON.stringify(manifest.database.counts)}); nothing was changed.`,
        );
      }
      const missing = new Set(manifest.files.missing);
      const storedFiles = (await query(
        `select storage_key, size_bytes::text from ${getTableName(resources)} where storage_key is not null
          union all select storage_key, size_bytes::text from ${getTableName(quizImages)}`,
      )) as { storage_key: string; size_bytes: string }[];
      for (const { storage_key: key, size_bytes: size } of storedFiles) {
        if (missing.has(key)) continue;
        const found = await stat(path.join(staging, 'uploads', key)).catch(() => undefined);
        if (found?.size !== Number(size)) {
          throw new RestoreRefusedError(
            `The backup lacks the file of a resource (${key}: ${found ? `${found.size} bytes instead of ${size}` : 'missing'}); nothing was changed.`,
          );
        }
      }
    });
  } finally {
    await database.close();
  }
}
