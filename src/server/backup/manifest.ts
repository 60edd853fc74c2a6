import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { migrationJournal } from '../db/migrate.ts';

/** The first entry of every backup archive: what it holds, checked by `npm run restore`. */
export const MANIFEST_NAME = 'studyhall-backup.json';
export const BACKUP_FORMAT = 'studyhall-backup';
/** Bumped when the archive's layout changes in a way an older restore cannot read. */
export const BACKUP_FORMAT_VERSION = 1;

const countsSchema = z.object({
  teachers: z.number().int().min(0),
  students: z.number().int().min(0),
  quizzes: z.number().int().min(0),
  quizAttempts: z.number().int().min(0),
  tasks: z.number().int().min(0),
  resources: z.number().int().min(0),
  resourceStars: z.number().int().min(0),
});
export type TableCounts = z.infer<typeof countsSchema>;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().positive(),
  createdAt: z.iso.datetime(),
  app: z.object({ version: z.string() }),
  database: z.object({
    kind: z.literal('pglite'),
    /** How many drizzle-kit migrations the snapshot had, and the last one's tag. */
    migrations: z.object({ applied: z.number().int().min(0), latest: z.string() }),
    counts: countsSchema,
  }),
  files: z.object({
    /** Stored files the snapshot's rows refer to, all in the archive under uploads/. */
    count: z.number().int().min(0),
    bytes: z.number().int().min(0),
    /** Referred to by a row but already missing from DATA_DIR/uploads when the backup ran. */
    missing: z.array(z.string()),
  }),
  hasJwtSecret: z.boolean(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** The version in package.json, recorded so a person can tell which StudyHall made a backup. */
export function appVersion(): string {
  const packageJson = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

/**
 * Why this version cannot restore the backup, or undefined. An older backup is fine: the
 * server applies the missing migrations when it starts. A newer one (a migration this
 * version does not know) would be run by code that does not understand its schema.
 */
export function restoreRefusal(manifest: BackupManifest): string | undefined {
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    return `This backup has format ${manifest.formatVersion}; this StudyHall (${appVersion()}) reads up to format ${BACKUP_FORMAT_VERSION}. Restore it with StudyHall ${manifest.app.version} or newer.`;
  }
  const journal = migrationJournal();
  const { applied, latest } = manifest.database.migrations;
  const isKnown = applied === 0 || journal[applied - 1]?.tag === latest;
  if (!isKnown) {
    return `This backup was made by a newer StudyHall (${manifest.app.version}, database migration ${latest}); this one (${appVersion()}) knows migrations up to ${journal.at(-1)?.tag}. Install StudyHall ${manifest.app.version} or newer to restore it.`;
  }
  return undefined;
}
