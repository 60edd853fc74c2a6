import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, pgliteDirectory } from '../db/client.ts';
import { migrationJournal } from '../db/migrate.ts';
import {
  callJson,
  demoTeacherToken,
  runNpmScript,
  startServerProcess,
  type ServerProcess,
} from '../testing/server-process.ts';
import { migrationLevel } from './snapshot.ts';

/**
 * Issue 31 point 1: a backup made by an older StudyHall restores with today's code. Each
 * fixture under tests/fixtures/backups/<migration>/ was made by the old code itself
 * (make-fixture.sh: its `npm run seed`, then its `npm run backup`), with what it held written
 * beside it (.expected.json). Restored by today's `npm run restore` into a fresh DATA_DIR,
 * the school must start, let the demo teacher in, and hold the same rows and file bytes.
 */
type Expected = {
  migration: string;
  counts: Record<string, number>;
  teachers: string[];
  quizzes: { title: string; questions: string[] }[];
  files: { key: string; sha256: string }[];
};

const FIXTURES = path.resolve('tests/fixtures/backups');
const fixtures = readdirSync(FIXTURES)
  .filter((name) => /^\d{4}$/.test(name))
  .sort();
const root = mkdtempSync(path.join(tmpdir(), 'studyhall-old-backups-'));
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const server of running) server.kill();
  await Promise.all(running.map((server) => server.exited));
  rmSync(root, { recursive: true, force: true });
});

describe('restoring a backup made by an older StudyHall', () => {
  it('has fixtures from several released schema versions', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(3);
  });

  it.each(fixtures)(
    'migration %s: restores, starts, and holds the same rows and files',
    async (migration) => {
      const archive = path.join(FIXTURES, migration, `studyhall-${migration}.tar.gz`);
      const expected = JSON.parse(
        readFileSync(path.join(FIXTURES, migration, `studyhall-${migration}.expected.json`), 'utf8'),
      ) as Expected;
      expect(expected.migration.startsWith(migration)).toBe(true);
      const dataDir = path.join(root, migration);

      const restored = await runNpmScript('restore', [archive], { DATA_DIR: dataDir });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);

      const server = await startServerProcess({ DATA_DIR: dataDir });
      running.push(server);
      const token = await demoTeacherToken(server.baseUrl);
      // The teacher's quizzes, read through today's API, with their questions as the old code stored them.
      const listed = await callJson(server.baseUrl, 'GET', '/api/get-all-quiz', { token });
      expect(listed.status).toBe(200);
      const quizzes = listed.body.data as { _id: string; title: string }[];
      expect(quizzes.length).toBeGreaterThan(0);
      const expectedTitles = expected.quizzes.map((quiz) => quiz.title);
      for (const quiz of quizzes) expect(expectedTitles).toContain(quiz.title);
      // Its questions as GIFT (GIFT escapes its special characters with a backslash).
      const exported = await fetch(`${server.baseUrl}/api/quizzes/${quizzes[0]!._id}/export?format=gift`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(exported.status).toBe(200);
      const gift = (await exported.text()).replace(/\\(.)/g, '$1');
      const expectedQuiz = expected.quizzes.find((quiz) => quiz.title === quizzes[0]!.title)!;
      for (const question of expectedQuiz.questions) expect(gift).toContain(question);
      expect(await server.stop()).toBe(0);

      // Every table the old school had: the same number of rows; the same accounts and quizzes.
      const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir), isMigrated: false });
      try {
        const query = (statement: string) => database.whileExclusive!((raw) => raw(statement)) as Promise<any[]>;
        const migrations = await database.whileExclusive!(migrationLevel);
        expect(migrations.latest).toBe(migrationJournal().at(-1)!.tag);
        const counts: Record<string, number> = {};
        for (const table of Object.keys(expected.counts)) {
          counts[table] = (await query(`select count(*)::int as n from "${table}"`))[0].n;
        }
        expect(counts).toEqual(expected.counts);
        expect((await query('select email from teachers order by email')).map((row) => row.email)).toEqual(
          expected.teachers,
        );
        const storedQuizzes = await query(
          `select title, (select jsonb_agg(item->>'question_text') from jsonb_array_elements(questions) item) as questions
             from quizzes order by title, id`,
        );
        expect(storedQuizzes).toEqual(expected.quizzes);
      } finally {
        await database.close();
      }

      // Every file the old backup held, byte for byte.
      const uploads = path.join(dataDir, 'uploads');
      const files = readdirSync(uploads)
        .filter((name) => !name.startsWith('.'))
        .sort()
        .map((key) => ({
          key,
          sha256: createHash('sha256')
            .update(readFileSync(path.join(uploads, key)))
            .digest('hex'),
        }));
      expect(files).toEqual(expected.files);
    },
    180_000,
  );
});
