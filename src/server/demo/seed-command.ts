import { createFileStorage } from '../storage/create-storage.ts';
import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';
import type { AppConfig } from '../config.ts';
import { openDatabaseForCommand } from './command-database.ts';
import { realSchoolIn, seedDemo } from './seed.ts';

/**
 * `npm run seed [-- --force]`: fills the configured database (DATABASE_URL or DATA_DIR) with the
 * demo school. A database holding a real school is refused unless --force (decision 050).
 */
const isForced = process.argv.slice(2).includes('--force');
const { config, database } = await openDatabaseForCommand('seed', 'npm run seed', serverIsRunning);
try {
  const realSchool = await realSchoolIn(database.db);
  if (realSchool !== undefined && !isForced) {
    console.error(
      [
        `npm run seed refused: this database holds a real school ("${realSchool}", with teachers who are not the demo's).`,
        `The demo's accounts have public passwords (${DEMO_PASSWORD}): anyone could sign in to them in your school.`,
        'Nothing was changed. To add the demo anyway, run: npm run seed -- --force (remove it later with npm run demo:remove).',
      ].join('\n'),
    );
    process.exitCode = 1;
  } else {
    const summary = await seedDemo(database.db, await createFileStorage(config));
    console.log(
      `Demo school ready: ${summary.teachers} teachers, ${summary.students} students, ${summary.quizzes} quizzes, ${summary.attempts} new attempts, ${summary.resources} new resources, ${summary.assignments} new assignments.`,
    );
    console.log(`Teacher: ${DEMO_TEACHER_EMAIL} / ${DEMO_PASSWORD}`);
    console.log(`Student: ${DEMO_STUDENT_ROLL_NUMBER} / ${DEMO_PASSWORD}`);
    console.log('Remove it all with: npm run demo:remove');
  }
} finally {
  await database.close();
}

/**
 * The embedded database is the running server's (decision 019): say how to reach the demo from
 * here, in either order (decision 041), rather than only that the folder is taken.
 */
function serverIsRunning(config: AppConfig, pid: number): string {
  return [
    `npm run seed cannot fill ${config.dataDir}: a StudyHall server is using it (pid ${pid}), and only one process at a time may use the embedded database.`,
    'To get the demo school, either:',
    `  - if that server's school is not set up yet: open its set-up screen (http://localhost:${config.port}/setup), enter the set-up code from the server's log and choose "Fill with a demo school";`,
    '  - or stop the server (Ctrl+C), run npm run seed, and start it again.',
  ].join('\n');
}
