import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileNotFoundError, type ByteRange, type FileStorage } from './file-storage.ts';

/** Keys are ours, but a key that could leave the folder is a bug worth refusing loudly. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Files being written live here until complete, so a crash never leaves a half file under a real key. */
const PARTIAL_FOLDER = '.partial';

/**
 * A write in progress touches its file with every chunk; one untouched this long was cut
 * short by a crash. Younger ones may belong to another instance sharing the folder.
 */
export const PARTIAL_STALE_MS = 60 * 60 * 1000;

/**
 * Local disk under DATA_DIR/uploads (the default): one flat folder of generated
 * names. Writes go to .partial/ and are renamed into place once complete. Several
 * instances may share the folder (NFS or similar): keys are random UUIDs and a
 * rename within one file system is atomic.
 */
export async function createDiskStorage(folder: string): Promise<FileStorage> {
  const partialFolder = path.join(folder, PARTIAL_FOLDER);
  await mkdir(partialFolder, { recursive: true, mode: 0o700 });
  // Leftovers of writes cut short by a crash: nothing refers to them. Only old ones: on a
  // disk shared by several instances, the fresh ones are uploads another instance is receiving.
  for (const leftover of await readdir(partialFolder)) {
    const leftoverPath = path.join(partialFolder, leftover);
    const modified = await stat(leftoverPath).then(
      (found) => found.mtimeMs,
      () => undefined, // finished (renamed) or removed meanwhile
    );
    if (modified !== undefined && Date.now() - modified > PARTIAL_STALE_MS) await rm(leftoverPath, { force: true });
  }

  const pathOf = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key ${JSON.stringify(key)}`);
    return path.join(folder, key);
  };

  return {
    kind: 'disk',

    async write(key, body) {
      const finalPath = pathOf(key);
      const partialPath = path.join(partialFolder, key);
      const file = createWriteStream(partialPath, { mode: 0o600 });
      try {
        await pipeline(body, file);
        await rename(partialPath, finalPath);
      } catch (error) {
        // A body that fails at once fails the pipeline before the file is even opened (on a busy
        // thread pool): removed now, the file would be created after. Its close comes after its open.
        if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
        await rm(partialPath, { force: true });
        throw error;
      }
      return (await stat(finalPath)).size;
    },

    async read(key, range?: ByteRange) {
      const filePath = pathOf(key);
      try {
        await stat(filePath);
      } catch {
        throw new FileNotFoundError(key);
      }
      return createReadStream(filePath, range ? { start: range.start, end: range.end } : {});
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },

    async exists(key) {
      const filePath = pathOf(key); // an unsafe key throws here, not "false"
      try {
        return (await stat(filePath)).isFile();
      } catch {
        return false;
      }
    },
  };
}
