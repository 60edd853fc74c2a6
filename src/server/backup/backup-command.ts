import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backUp } from './backup.ts';
import { dataSettingsOrExit, describeManifest, externalStorageAdvice, fail } from './commands.ts';

/**
 * `npm run backup [-- --output <file.tar.gz>]`: the embedded database and the uploaded files
 * of DATA_DIR in one archive (decision 019), whether the server runs or not.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
let values;
try {
  ({ values } = parseArgs({ options: { output: { type: 'string', short: 'o' } }, allowPositionals: false }));
} catch (error) {
  fail(`${(error as Error).message}\nUsage: npm run backup [-- --output <file.tar.gz>]`);
}
const settings = dataSettingsOrExit();
const advice = externalStorageAdvice(settings, 'backup');
if (advice) fail(advice);

const stamp = new Date()
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
  .replaceAll(':', '-');
const output = values.output ?? path.join('backups', `studyhall-${stamp}.tar.gz`);
try {
  const result = await backUp({ dataDir: settings.dataDir, output });
  const how = result.takenBy === 'server' ? 'taken by the running server' : 'taken with the server stopped';
  console.log(`Backup written to ${result.archive} (${how}):\n${describeManifest(result.manifest)}`);
  console.log('It holds password hashes and the JWT secret: keep it as private as DATA_DIR.');
} catch (error) {
  fail(`Backup failed: ${(error as Error).message}`);
}
