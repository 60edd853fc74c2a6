import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileNotFoundError, type ByteRange, type FileStorage } from './file-storage.ts';

/** Keys are ours, but a key that could leave the folder is a bug worth refusing loudly. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Files being written live here until complete, so a crash never leaves a half file under a real key. */
const PARTIAL_FOLDER = '.partial';

/**
 * A partial file nothing has written to for this long was left by a crash. A younger one
 * may be a live upload of another instance sharing this folder (one volume behind a load
 * balancer), which must not lose it when this instance starts; a live upload keeps writing,
 * and a stalled one has timed out long before an hour.
 */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/**
 * Local disk under DATA_DIR/uploads (the default): one flat folder of generated
 * names. Writes go to .partial/ and are renamed into place once complete. Several
 * instances may share the folder (the keys are unique).
 */
export async function createDiskStorage(folder: string): Promise<FileStorage> {
  const partialFolder = path.join(folder, PARTIAL_FOLDER);
  await mkdir(partialFolder, { recursive: true, mode: 0o700 });
  // Leftovers of writes cut short by a crash: nothing refers to them (found by age, see above).
  for (const leftover of await readdir(partialFolder)) {
    const leftoverPath = path.join(partialFolder, leftover);
    const modified = await stat(leftoverPath).then(
      (found) => found.mtimeMs,
      () => undefined,
    );
    if (modified !== undefined && Date.now() - modified > ABANDONED_AFTER_MS) await rm(leftoverPath, { force: true });
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
      try {
        await pipeline(body, createWriteStream(partialPath, { mode: 0o600 }));
        await rename(partialPath, finalPath);
      } catch (error) {
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
      return createReadStream(filePath, range ? { start: range.start, end: range.end } : {}) as Readable;
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
