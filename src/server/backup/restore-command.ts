import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataSettingsOrExit, describeManifest, externalStorageAdvice, fail } from './commands.ts';
import { restoreBackup } from './restore.ts';

/**
 * `npm run restore -- <backup.tar.gz> [--force]`: puts a backup into DATA_DIR (decision 019).
 * An empty or new DATA_DIR only, unless --force replaces what it holds.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
const usage = 'Usage: npm run restore -- <backup.tar.gz> [--force]';
let parsed;
try {
  parsed = parseArgs({ options: { force: { type: 'boolean' } }, allowPositionals: true });
} catch (error) {
  fail(`${(error as Error).message}\n${usage}`);
}
const [archive, ...extra] = parsed.positionals;
if (!archive || extra.length > 0) fail(usage);
// PostgreSQL or S3: what to use instead comes first, whatever the file.
const settings = dataSettingsOrExit();
const advice = externalStorageAdvice(settings, 'restore');
if (advice) fail(advice);
if (!existsSync(archive)) fail(`${archive} does not exist\n${usage}`);

try {
  const manifest = await restoreBackup({
    archive: path.resolve(archive),
    dataDir: settings.dataDir,
    isForced: parsed.values.force === true,
  });
  console.log(`Restored ${archive} into ${settings.dataDir}:\n${describeManifest(manifest)}`);
  if (manifest.hasJwtSecret && process.env.JWT_SECRET) {
    console.log('JWT_SECRET is set in the environment: it is used instead of the restored DATA_DIR/jwt-secret.');
  }
  console.log('Start the server on it: npm start');
} catch (error) {
  fail(`Restore failed: ${(error as Error).message}`);
}
