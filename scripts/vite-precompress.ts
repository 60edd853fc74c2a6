import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants, gzip, gunzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; source maps are left out (only developer tools fetch them). */
const COMPRESSIBLE_EXTENSIONS = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt']);
/** Below this, the saving is lost in the headers and the round trip. */
export const PRECOMPRESS_MIN_BYTES = 1024;
/** A file gets its siblings only when gzip saves at least this share of it. */
const PRECOMPRESS_MIN_SAVING = 0.1;

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** The siblings written next to a file, as @fastify/static's preCompressed option looks for them. */
export const PRECOMPRESSED_ENCODINGS = [
  {
    extension: '.br',
    compress: (bytes: Buffer) =>
      compressBrotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    decompress: (bytes: Buffer) => brotliDecompressSync(bytes),
  },
  {
    extension: '.gz',
    compress: (bytes: Buffer) => compressGzip(bytes, { level: constants.Z_BEST_COMPRESSION }),
    decompress: (bytes: Buffer) => gunzipSync(bytes),
  },
] as const;

/** A file the build compresses when it is large enough and compression pays (see wantsSiblings). */
export function isCompressible(filePath: string): boolean {
  return COMPRESSIBLE_EXTENSIONS.has(path.extname(filePath)) && !path.basename(filePath).startsWith('.');
}

/** Whether a compressible file of `originalBytes` whose gzip is `gzipBytes` gets its .br and .gz. */
export function wantsSiblings(originalBytes: number, gzipBytes: number): boolean {
  return originalBytes >= PRECOMPRESS_MIN_BYTES && gzipBytes <= originalBytes * (1 - PRECOMPRESS_MIN_SAVING);
}

/**
 * Every file below `folder`, relative to it, leaving out dot folders (.vite holds the
 * manifest, which is not served) and the siblings themselves.
 */
export async function listServedFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => part.startsWith('.')))
    .filter((file) => !PRECOMPRESSED_ENCODINGS.some(({ extension }) => file.endsWith(extension)));
}

type PrecompressSummary = { files: number; originalBytes: number; brotliBytes: number; gzipBytes: number };

/** Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) next to each compressible file of `folder`. */
export async function precompressFolder(folder: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, originalBytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const files = (await listServedFiles(folder)).filter(isCompressible);
  // All at once: zlib works in libuv's thread pool, which runs four at a time.
  await Promise.all(
    files.map(async (file) => {
      const fullPath = path.join(folder, file);
      const original = await readFile(fullPath);
      if (original.length < PRECOMPRESS_MIN_BYTES) return;
      const [brotli, gzipped] = await Promise.all(PRECOMPRESSED_ENCODINGS.map(({ compress }) => compress(original)));
      if (!wantsSiblings(original.length, gzipped!.length)) return;
      await Promise.all([writeFile(`${fullPath}.br`, brotli!), writeFile(`${fullPath}.gz`, gzipped!)]);
      summary.files += 1;
      summary.originalBytes += original.length;
      summary.brotliBytes += brotli!.length;
      summary.gzipBytes += gzipped!.length;
    }),
  );
  return summary;
}

/**
 * Vite plugin: after the build has written dist/client (the prerendered landing.html and the
 * copied public files included), writes a .br and a .gz next to every text file worth it, which
 * the server sends to browsers that accept them (plugins/static-client.ts, decision 021). In the
 * build only, so `npm run build`, `npm start`'s first build, the cluster and CI all get them;
 * scripts/check-bundle.mjs fails when one is missing or does not match its file.
 */
export function precompressClient(): Plugin {
  let logInfo: (message: string) => void = () => {};
  return {
    name: 'studyhall:precompress',
    apply: 'build',
    configResolved(config) {
      logInfo = (message) => config.logger.info(message);
    },
    writeBundle: {
      // After every other plugin's writeBundle: nothing may change a file once it is compressed.
      order: 'post',
      sequential: true,
      async handler(options) {
        if (!options.dir) throw new Error('precompress: the build has no output folder');
        const startedAt = Date.now();
        const { files, originalBytes, brotliBytes, gzipBytes } = await precompressFolder(options.dir);
        const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
        logInfo(
          `precompressed ${files} files (${kB(originalBytes)}) to .br ${kB(brotliBytes)} and .gz ${kB(gzipBytes)} ` +
            `in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
        );
      },
    },
  };
}
