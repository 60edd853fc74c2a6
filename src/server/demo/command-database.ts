import { existsSync } from 'node:fs';
import { acquireDataDirLock, DataDirInUseError, type LockPurpose } from '../backup/data-dir-lock.ts';
import { loadConfig, type AppConfig } from '../config.ts';
import { openDatabase, pgliteDirectory, type DatabaseHandle } from '../db/client.ts';

/**
 * The configured database (DATABASE_URL or DATA_DIR) for a demo command, `npm run seed` or
 * `npm run demo:remove`. The embedded one never while the server (or a backup, a restore) has
 * it open: `whileServerRuns` words what to do instead, then the process exits with 1.
 */
export async function openDatabaseForCommand(
  purpose: LockPurpose,
  command: string,
  whileServerRuns: (config: AppConfig, pid: number) => string,
): Promise<{ config: AppConfig; database: DatabaseHandle }> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  try {
    if (!config.databaseUrl) acquireDataDirLock(config.dataDir, { purpose });
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(
      error.holder.purpose === 'server'
        ? whileServerRuns(config, error.holder.pid)
        : `${command} cannot run now: ${error.message}`,
    );
    process.exit(1);
  }
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: pgliteDirectory(config.dataDir) },
  );
  return { config, database };
}
