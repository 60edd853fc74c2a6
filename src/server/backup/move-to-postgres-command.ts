import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DataDirInUseError } from './data-dir-lock.ts';
import { dataSettingsOrExit, describeManifest, fail } from './commands.ts';
import { describeDatabaseUrl, moveToPostgres, MoveRefusedError } from './move-to-postgres.ts';
import { restoreBackup, RestoreRefusedError } from './restore.ts';

/**
 * `npm run move-to-postgres [-- --from-backup <backup.tar.gz>]` (decision 051): the school in
 * DATA_DIR's embedded database into the empty PostgreSQL database of DATABASE_URL, with the
 * server stopped. --from-backup first restores the backup into DATA_DIR (empty or new).
 */
if (existsSync('.env')) process.loadEnvFile('.env');
const usage = 'Usage: DATABASE_URL=postgres://… npm run move-to-postgres [-- --from-backup <backup.tar.gz>]';
let values;
try {
  ({ values } = parseArgs({ options: { 'from-backup': { type: 'string' } }, allowPositionals: false }));
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
const settings = dataSettingsOrExit();
if (!settings.databaseUrl) fail(`Set DATABASE_URL to the new, empty PostgreSQL database to move into.\n${usage}`);
if (settings.s3Bucket) {
  console.log(`S3_BUCKET is set: uploaded files stay in the bucket ${settings.s3Bucket}; only the database moves.`);
}
const fromBackup = values['from-backup'];
if (fromBackup !== undefined && !existsSync(fromBackup)) fail(`${fromBackup} does not exist\n${usage}`);

try {
  if (fromBackup !== undefined) {
    const manifest = await restoreBackup({ archive: path.resolve(fromBackup), dataDir: settings.dataDir });
    console.log(`Restored ${fromBackup} into ${settings.dataDir}:\n${describeManifest(manifest)}`);
  }
  const report = await moveToPostgres({ dataDir: settings.dataDir, databaseUrl: settings.databaseUrl });
  const width = Math.max(...report.tables.map((table) => table.table.length));
  console.log(
    `Moved the school from ${settings.dataDir} into ${describeDatabaseUrl(settings.databaseUrl)} (migration ${report.migration}), in one transaction.`,
  );
  console.log('Verified per table, embedded and PostgreSQL: rows, and md5 of the rows ordered by primary key:');
  for (const table of report.tables) {
    console.log(
      `  ${table.table.padEnd(width)}  ${String(table.rows).padStart(7)} rows  ${table.sourceChecksum}  ${table.targetChecksum}`,
    );
  }
  console.log(`Sequences set: ${report.sequences}.`);
  console.log(
    `Uploaded files stay in ${path.join(settings.dataDir, 'uploads')} and the JWT secret in ${settings.dataDir} (unless JWT_SECRET is set): keep DATA_DIR.`,
  );
  console.log(`The embedded copy now refuses to start (${report.marker}).`);
  console.log('Start the server on PostgreSQL: set DATABASE_URL in .env (or the environment), then npm start');
} catch (error) {
  if (error instanceof MoveRefusedError || error instanceof RestoreRefusedError || error instanceof DataDirInUseError) {
    fail(`Move refused: ${error.message}`);
  }
  fail(`Move failed, nothing was changed in PostgreSQL: ${(error as Error).message}`);
}
