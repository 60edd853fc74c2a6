import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import * as tar from 'tar';
import { MANIFEST_NAME, manifestSchema, type BackupManifest } from './manifest.ts';

/**
 * One .tar.gz per backup: the manifest first, then pglite/ (the database folder), uploads/
 * (one file per stored key) and jwt-secret when DATA_DIR has one. Written and read by
 * node-tar (npm's own), which also refuses absolute paths, `..` and links out of the
 * target folder when extracting.
 */

/**
 * The database folder holds mostly-empty 16 MB WAL segments, which gzip shrinks about a
 * thousand times: node-tar's default guard against decompression bombs (1000) would
 * refuse our own archives. The archive is the operator's own file, its size checked
 * against the manifest after extraction.
 */
const MAX_DECOMPRESSION_RATIO = 100_000;

/** What a backup holds beside its manifest, and all that a restore puts back into DATA_DIR. */
export const ARCHIVE_ENTRIES = ['pglite', 'uploads', 'jwt-secret'] as const;

/** A gzipped tar stream of `staging`, after writing the manifest into it. */
export async function packArchive(staging: string, manifest: BackupManifest): Promise<Readable> {
  await writeFile(path.join(staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  const entries = [MANIFEST_NAME, ...ARCHIVE_ENTRIES.filter((name) => name !== 'jwt-secret' || manifest.hasJwtSecret)];
  // portable: no owner names or ids, so a restore on another machine owns its files.
  return tar.create({ gzip: true, cwd: staging, portable: true }, entries) as unknown as Readable;
}

export class InvalidArchiveError extends Error {
  constructor(archive: string, reason: string) {
    super(`${archive} is not a usable StudyHall backup: ${reason}`);
    this.name = 'InvalidArchiveError';
  }
}

/** Reads the whole archive (so gzip's checksum is verified), checks it holds what its manifest lists, and returns the manifest. */
export async function inspectArchive(archive: string): Promise<BackupManifest> {
  let manifestText = '';
  let isManifestFirst: boolean | undefined;
  let hasDatabase = false;
  let uploadCount = 0;
  try {
    await tar.list({
      file: archive,
      strict: true,
      maxDecompressionRatio: MAX_DECOMPRESSION_RATIO,
      onReadEntry: (entry) => {
        const entryPath = entry.path.replace(/\/$/, '');
        isManifestFirst ??= entryPath === MANIFEST_NAME;
        if (entryPath === MANIFEST_NAME) entry.on('data', (chunk: Buffer) => (manifestText += chunk.toString('utf8')));
        if (entryPath === 'pglite/PG_VERSION') hasDatabase = true;
        if (entryPath.startsWith('uploads/') && entry.type === 'File') uploadCount += 1;
      },
    });
  } catch (error) {
    throw new InvalidArchiveError(archive, `it could not be read (${(error as Error).message})`);
  }
  if (!isManifestFirst) throw new InvalidArchiveError(archive, `${MANIFEST_NAME} is not its first entry`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifestText);
  } catch {
    throw new InvalidArchiveError(archive, `${MANIFEST_NAME} is not JSON`);
  }
  const manifest = manifestSchema.safeParse(parsed);
  if (!manifest.success) throw new InvalidArchiveError(archive, `${MANIFEST_NAME} is not a StudyHall manifest`);
  if (!hasDatabase) throw new InvalidArchiveError(archive, 'it holds no database (pglite/)');
  if (uploadCount !== manifest.data.files.count) {
    throw new InvalidArchiveError(
      archive,
      `it holds ${uploadCount} uploaded files where its manifest lists ${manifest.data.files.count}`,
    );
  }
  return manifest.data;
}

/** Unpacks the archive into `target` (an empty folder). */
export async function extractArchive(archive: string, target: string): Promise<void> {
  await tar.extract({
    file: archive,
    cwd: target,
    strict: true,
    maxDecompressionRatio: MAX_DECOMPRESSION_RATIO,
    // Only what a backup holds: nothing else lands in DATA_DIR.
    filter: (entryPath) => {
      const top = entryPath.split('/')[0]!;
      return top === MANIFEST_NAME || (ARCHIVE_ENTRIES as readonly string[]).includes(top);
    },
  });
}
