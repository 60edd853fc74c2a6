import { existsSync } from 'node:fs';
import { acquireDataDirLock, DataDirInUseError } from '../backup/data-dir-lock.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, pgliteDirectory } from '../db/client.ts';
import { createFileStorage } from '../storage/create-storage.ts';
import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { seedDemo } from './seed.ts';

/** `npm run seed`: fills the configured database (DATABASE_URL or DATA_DIR) with the demo school. */
if (existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig();
// The embedded database: never while the server (or a backup, a restore) has it open.
try {
  if (!config.databaseUrl) acquireDataDirLock(config.dataDir, { purpose: 'seed' });
} catch (error) {
  if (!(error instanceof DataDirInUseError)) throw error;
  console.error(
    error.holder.purpose === 'server'
      ? serverIsRunning(error.holder.pid)
      : `npm run seed cannot run now: ${error.message}`,
  );
  process.exit(1);
}
const database = await openDatabase(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: pgliteDirectory(config.dataDir) },
);
try {
  const summary = await seedDemo(database.db, await createFileStorage(config));
  console.log(
    `Demo school ready: ${summary.teachers} teachers, ${summary.students} students, ${summary.quizzes} quizzes, ${summary.attempts} new attempts, ${summary.resources} new resources.`,
  );
  console.log(`Teacher: ${DEMO_TEACHER_EMAIL} / ${DEMO_PASSWORD}`);
  console.log(`Student: ${DEMO_STUDENT_ROLL_NUMBER} / ${DEMO_PASSWORD}`);
} finally {
  await database.close();
}

/**
 * The embedded database is the running server's (decision 019): say how to reach the demo from
 * here, in either order (decision 041), rather than only that the folder is taken.
 */
function serverIsRunning(pid: number): string {
  return [
    `npm run seed cannot fill ${config.dataDir}: a StudyHall server is using it (pid ${pid}), and only one process at a time may use the embedded database.`,
    'To get the demo school, either:',
    `  - if that server's school is not set up yet: open its set-up screen (http://localhost:${config.port}/setup) and choose "Fill with a demo school";`,
    '  - or stop the server (Ctrl+C), run npm run seed, and start it again.',
  ].join('\n');
}
