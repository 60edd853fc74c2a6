import { isDeepStrictEqual } from 'node:util';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openDatabase, pgliteDirectory } from '../db/client.ts';
import { inspectArchive, InvalidArchiveError, packArchive } from './archive.ts';
import { requestBackup } from './backup-socket.ts';
import { acquireDataDirLock, DataDirInUseError } from './data-dir-lock.ts';
import type { BackupManifest } from './manifest.ts';
import { newBackupStaging, removeStagingLeftovers, takeSnapshot } from './snapshot.ts';

export type BackupResult = {
  manifest: BackupManifest;
  /** By the running server (through its socket), or by this process with the server stopped. */
  takenBy: 'server' | 'this process';
  archive: string;
};

/**
 * `npm run backup`: one archive of DATA_DIR's database and uploaded files. While the server
 * runs, the server takes the snapshot (only it may open the database); otherwise this
 * process holds DATA_DIR's lock and takes it. Either way the archive is written aside,
 * read back whole and compared with its manifest before it gets its name.
 */
export async function backUp(options: { dataDir: string; output: string }): Promise<BackupResult> {
  const output = path.resolve(options.output);
  await mkdir(path.dirname(output), { recursive: true, mode: 0o700 });
  const partial = `${output}.partial`;
  const writeArchive = () => createWriteStream(partial, { mode: 0o600 }); // password hashes and the JWT secret
  try {
    let manifest: BackupManifest;
    let takenBy: BackupResult['takenBy'];
    try {
      manifest = await backUpStopped(options.dataDir, writeArchive);
      takenBy = 'this process';
    } catch (error) {
      if (!(error instanceof DataDirInUseError) || error.holder.purpose !== 'server') throw error;
      manifest = await requestBackup(options.dataDir, writeArchive());
      takenBy = 'server';
    }
    const written = await inspectArchive(partial);
    if (!isDeepStrictEqual(written, manifest)) {
      throw new InvalidArchiveError(partial, 'its manifest differs from the one the snapshot reported');
    }
    await chmod(partial, 0o600);
    await rename(partial, output);
    return { manifest, takenBy, archive: output };
  } finally {
    await rm(partial, { force: true });
  }
}

async function backUpStopped(dataDir: string, writeArchive: () => NodeJS.WritableStream): Promise<BackupManifest> {
  if (!existsSync(pgliteDirectory(dataDir))) {
    throw new Error(`${dataDir} holds no embedded database (no pglite folder): nothing to back up`);
  }
  const lock = acquireDataDirLock(dataDir, { purpose: 'backup' });
  const staging = newBackupStaging(dataDir);
  try {
    await removeStagingLeftovers(dataDir);
    // As it is: a backup copies the data, it never migrates it.
    const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir), isMigrated: false });
    let manifest: BackupManifest;
    try {
      manifest = await takeSnapshot(dataDir, database, staging);
    } finally {
      await database.close();
    }
    await pipeline(await packArchive(staging, manifest), writeArchive());
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
    lock.release();
  }
}
