import type { AppConfig } from '../config.ts';
import { createFileStorage } from '../storage/create-storage.ts';
import { AppError } from '../errors.ts';
import { openDatabaseForCommand } from './command-database.ts';
import { removeDemo } from './remove-demo.ts';

/**
 * `npm run demo:remove`: removes the demo school's accounts, classes, quizzes, attempts,
 * resources and stored files from the configured database, in one transaction (decision 050).
 */
const { config, database } = await openDatabaseForCommand('demo-remove', 'npm run demo:remove', serverIsRunning);
try {
  const removed = await removeDemo(database.db, await createFileStorage(config));
  if (removed.teachers + removed.students + removed.classes === 0) {
    console.log('No demo school here: nothing was removed.');
  } else {
    console.log(
      `Demo removed: ${removed.teachers} teachers, ${removed.students} students, ${removed.classes} classes, ${removed.quizzes} quizzes, ${removed.attempts} attempts, ${removed.resources} resources, ${removed.files} stored files.`,
    );
    if (removed.schoolRemoved) {
      console.log(
        'Only the demo was here: the school is gone too. The next start asks for its set-up (the code is in its log).',
      );
    }
  }
} catch (error) {
  if (!(error instanceof AppError)) throw error;
  console.error(`npm run demo:remove refused: ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}

function serverIsRunning(config: AppConfig, pid: number): string {
  return [
    `npm run demo:remove cannot change ${config.dataDir}: a StudyHall server is using it (pid ${pid}).`,
    'Either remove the demo from the running server (an administrator: School → "Remove the demo"),',
    'or stop the server (Ctrl+C), run npm run demo:remove, and start it again.',
  ].join('\n');
}
