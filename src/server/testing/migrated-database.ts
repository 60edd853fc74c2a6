import { afterAll } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { migrateSchema } from '../db/migrate.ts';
import { createScratchDatabase } from './postgres-databases.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * For migration tests: a database of an earlier version, filled by `prepare`, then opened as
 * the new server opens it (which runs the migrations after `previous`). PostgreSQL when
 * TEST_DATABASE_URL is set, PGlite otherwise, so each migration test runs on both in CI.
 * Call at most from tests: the app and the scratch database are closed after the file.
 */
export function migrationFrom(previous: string, scratchPrefix: string) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  return async function migratedFromPrevious(prepare: (handle: DatabaseHandle) => Promise<void>): Promise<TestApp> {
    let reopened: DatabaseHandle;
    if (adminUrl) {
      const scratch = await createScratchDatabase(adminUrl, scratchPrefix);
      const handle = await openDatabase({ kind: 'postgres', url: scratch.url, isMigrated: false });
      await migrateSchema(handle.db, { through: previous });
      await prepare(handle);
      await handle.close();
      reopened = await openDatabase({ kind: 'postgres', url: scratch.url });
      cleanups.push(scratch.drop);
    } else {
      const handle = await openDatabase({ kind: 'pglite', isMigrated: false });
      await migrateSchema(handle.db, { through: previous });
      await prepare(handle);
      const dump = await handle.dumpDataDir!();
      await handle.close();
      reopened = await openDatabase({ kind: 'pglite', loadDataDir: dump });
    }
    const t = await createTestApp({ database: reopened });
    cleanups.push(() => t.close());
    return t;
  };
}
