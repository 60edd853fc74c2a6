import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_FOLDER, openDatabase } from '../db/client.ts';

/**
 * A bench's or a test's fresh embedded database starts as a copy of one migrated once per
 * machine: PGlite's initdb and the migrations took ~4.7 s of every fresh DATA_DIR (a server's
 * start 8.1 s -> 3.5 s), about a dozen times in CI's bench smoke and again in the e2e and the
 * server's process tests. Kept in the temporary folder under a name that changes with the
 * migrations, the code that opens the database and PGlite's version; made once, by whichever
 * process gets there first (written aside, marked complete, then renamed into place).
 */
const TEMPLATE_PREFIX = 'studyhall-pglite-template-';
/** Written last into a template: a folder without it (cut short, half cleaned) is made again. */
const COMPLETE_MARK = 'studyhall-template-complete';
/** Another checkout's template, or one cut short, is removed once unused this long. */
const STALE_MS = 24 * 60 * 60 * 1000;

function templateKey(): string {
  const hash = createHash('sha256');
  // The package exports no package.json: read it where npm puts it.
  hash.update(readFileSync(new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  for (const code of ['../db/client.ts', '../db/migrate.ts']) {
    hash.update(readFileSync(new URL(code, import.meta.url)));
  }
  for (const name of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    hash.update(name);
    if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(readFileSync(path.join(MIGRATIONS_FOLDER, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Templates of other keys and folders left by a cut-short making, unused for a day. */
function removeStaleTemplates(current: string) {
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith(TEMPLATE_PREFIX) || name === current) continue;
    const folder = path.join(os.tmpdir(), name);
    try {
      if (Date.now() - statSync(folder).mtimeMs > STALE_MS) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Another bench removed it first.
    }
  }
}

let template: Promise<string> | undefined;

async function migratedTemplate(): Promise<string> {
  // Per user: the temporary folder is shared, and another user's template is not ours to trust or remove.
  const name = `${TEMPLATE_PREFIX}${process.getuid?.() ?? 'user'}-${templateKey()}`;
  const finalPath = path.join(os.tmpdir(), name);
  removeStaleTemplates(name);
  if (existsSync(path.join(finalPath, COMPLETE_MARK))) {
    // In use: a day's cleaning by another checkout's bench leaves it.
    const now = new Date();
    utimesSync(finalPath, now, now);
    return finalPath;
  }
  // A made template arrives whole (renamed with its mark), so a folder there without the mark is
  // a removal cut short; one with the mark is never removed here (another process may be copying it).
  if (existsSync(finalPath) && !existsSync(path.join(finalPath, COMPLETE_MARK))) {
    rmSync(finalPath, { recursive: true, force: true });
  }
  const aside = mkdtempSync(path.join(os.tmpdir(), `${TEMPLATE_PREFIX}making-`));
  try {
    const handle = await openDatabase({ kind: 'pglite', dataDir: path.join(aside, 'pglite') });
    await handle.close();
    writeFileSync(path.join(aside, 'pglite', COMPLETE_MARK), '');
    try {
      renameSync(path.join(aside, 'pglite'), finalPath);
    } catch (error) {
      // Another bench made it meanwhile: theirs is the same.
      if (!existsSync(path.join(finalPath, COMPLETE_MARK))) throw error;
    }
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
  return finalPath;
}

/** Fills `directory` (a DATA_DIR's PGlite folder, not there yet) with a migrated, empty database. */
export async function copyMigratedPglite(directory: string): Promise<void> {
  template ??= migratedTemplate();
  cpSync(await template, directory, { recursive: true, filter: (source) => !source.endsWith(COMPLETE_MARK) });
}
