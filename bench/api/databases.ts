import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, pgliteDirectory } from '#server/db/client';
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
    const database: ServerDatabase = { kind: 'pglite', dataDir };
    return {
      database,
      open: () => openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir) }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `studyhall_bench_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresAdminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const database: ServerDatabase = { kind: 'postgres', url: url.toString(), dataDir };
  return {
    database,
    open: () => openDatabase({ kind: 'postgres', url: url.toString() }),
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
