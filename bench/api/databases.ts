import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, pgliteDirectory } from '#server/db/client';
import { createScratchDatabase } from '#server/testing/postgres-databases';
import { copyMigratedPglite } from '#server/testing/pglite-template';
import type { ServerDatabase } from './servers.ts';

export type Engine = 'pglite' | 'postgres';

/**
 * A fresh database for one bench run: a temporary DATA_DIR with PGlite in it, or a new
 * database on the PostgreSQL server behind postgresAdminUrl. open() migrates it; drop()
 * removes it.
 */
export async function prepareDatabase(engine: Engine, postgresAdminUrl: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studyhall-bench-api-'));
  if (engine === 'pglite') {
    await copyMigratedPglite(pgliteDirectory(dataDir));
    const database: ServerDatabase = { kind: 'pglite', dataDir };
    return {
      database,
      open: () => openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir) }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const scratch = await createScratchDatabase(postgresAdminUrl, 'studyhall_bench');
  const database: ServerDatabase = { kind: 'postgres', url: scratch.url, dataDir };
  return {
    database,
    open: () => openDatabase({ kind: 'postgres', url: scratch.url }),
    drop: async () => {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
