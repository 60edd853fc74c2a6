import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_FOLDER, openDatabase } from '#server/db/client';

/**
 * A bench's embedded database starts as a copy of one migrated once per machine: PGlite's initdb
 * and the migrations took ~4.7 s of every fresh DATA_DIR (a server's start 8.1 s -> 3.5 s), about a
 * dozen times in CI's bench smoke (issue 36: under 3 minutes). Kept in the temporary folder under
 * a name that changes with the migrations and PGlite's version; made once, by whichever bench
 * gets there first (written aside, then renamed into place).
 */
function templateKey(): string {
  const hash = createHash('sha256');
  // The package exports no package.json: read it where npm puts it.
  hash.update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  for (const name of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const file = path.join(MIGRATIONS_FOLDER, name);
    hash.update(name);
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;

const TEMPLATE_PREFIX = 'studyhall-bench-pglite-';

async function migratedTemplate(): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${templateKey()}`;
  const finalPath = path.join(os.tmpdir(), name);
  if (existsSync(finalPath)) return finalPath;
  // Older migrations' templates (40 MB each) go as a new one is made.
  for (const other of readdirSync(os.tmpdir())) {
    if (/^studyhall-bench-pglite-[0-9a-f]{16}$/.test(other) && other !== name) {
      rmSync(path.join(os.tmpdir(), other), { recursive: true, force: true });
    }
  }
  const aside = mkdtempSync(path.join(os.tmpdir(), `${TEMPLATE_PREFIX}making-`));
  const handle = await openDatabase({ kind: 'pglite', dataDir: path.join(aside, 'pglite') });
  await handle.close();
  try {
    renameSync(path.join(aside, 'pglite'), finalPath);
  } catch (error) {
    // Another bench made it meanwhile: theirs is the same.
    if (!existsSync(finalPath)) throw error;
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
  return finalPath;
}

/** Fills `directory` (a DATA_DIR's PGlite folder, not there yet) with a migrated, empty database. */
export async function copyMigratedPglite(directory: string): Promise<void> {
  template ??= migratedTemplate();
  cpSync(await template, directory, { recursive: true });
}
