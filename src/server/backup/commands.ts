import { ConfigError, loadDataSettings, type DataSettings } from '../config.ts';
import type { BackupManifest } from './manifest.ts';

/** What `npm run backup` and `npm run restore` share: settings, the PostgreSQL/S3 answer, summaries. */

/** The data settings, or exits with the list of configuration problems. */
export function dataSettingsOrExit(): DataSettings {
  try {
    return loadDataSettings();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/**
 * PostgreSQL and S3 keep data StudyHall does not hold itself: their own tools back them up
 * consistently (decision 019), so the commands say how and stop.
 */
export function externalStorageAdvice(settings: DataSettings, command: 'backup' | 'restore'): string | undefined {
  if (!settings.databaseUrl && !settings.s3Bucket) return undefined;
  const lines = [`npm run ${command} handles the embedded database and DATA_DIR/uploads only.`];
  if (settings.databaseUrl) {
    lines.push(
      '',
      "DATABASE_URL is set: the data is in PostgreSQL. Use PostgreSQL's tools:",
      '  back up:  pg_dump --format=custom --file=studyhall.dump "$DATABASE_URL"',
      '  restore:  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" studyhall.dump',
      'Restore into a database of the same or an older StudyHall version; the server applies newer migrations when it starts.',
    );
  }
  if (!settings.databaseUrl) {
    lines.push(
      '',
      `The database is the embedded one in ${settings.dataDir}/pglite: stop the server, then copy ${settings.dataDir} (pglite and jwt-secret) before starting it again.`,
    );
  }
  lines.push(
    '',
    settings.s3Bucket
      ? `S3_BUCKET is set: uploaded files are in the bucket ${settings.s3Bucket}. Use the bucket's own tools (versioning, replication, rclone or mc mirror), after the database dump.`
      : `Uploaded files are in ${settings.dataDir}/uploads: copy that folder after the database dump (files newer than the dump are harmless).`,
    'Keep the JWT secret (JWT_SECRET, or DATA_DIR/jwt-secret when it is unset) in your secret store: without it, everyone is logged out and file links break.',
  );
  return lines.join('\n');
}

export function describeManifest(manifest: BackupManifest): string {
  const { counts, migrations } = manifest.database;
  const megabytes = (manifest.files.bytes / 1_000_000).toFixed(1);
  const lines = [
    `  made ${manifest.createdAt} by StudyHall ${manifest.app.version} (database migration ${migrations.latest || 'none'})`,
    `  database: ${counts.teachers} teachers, ${counts.students} students, ${counts.quizzes} quizzes, ${counts.quizAttempts} attempts, ${counts.tasks} tasks, ${counts.resources} resources`,
    `  files: ${manifest.files.count} (${megabytes} MB)${manifest.hasJwtSecret ? ', and DATA_DIR/jwt-secret' : ''}`,
  ];
  if (manifest.files.missing.length > 0) {
    lines.push(
      `  warning: ${manifest.files.missing.length} file(s) were already missing from DATA_DIR/uploads: ${manifest.files.missing.join(', ')}`,
    );
  }
  return lines.join('\n');
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
