import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '#shared/resources';
import { createScratchDatabase } from '../testing/postgres-databases.ts';
import { patience } from '../testing/patience.ts';
import {
  callJson,
  demoTeacherToken,
  runNpmScript,
  startServerProcess,
  type ServerProcess,
} from '../testing/server-process.ts';
import { openDatabase, pgliteDirectory } from '../db/client.ts';
import { MOVED_MARKER_NAME } from './move-to-postgres.ts';

/**
 * Issue 31 point 5: `npm run move-to-postgres` copies the demo school from an embedded DATA_DIR
 * into a fresh PostgreSQL database (one per test, dropped after), through the real commands
 * and a real server. Runs with TEST_DATABASE_URL (CI's PostgreSQL pass).
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const root = mkdtempSync(path.join(tmpdir(), 'studyhall-move-'));
const running: ServerProcess[] = [];
const dropped: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const server of running) server.kill();
  await Promise.all(running.map((server) => server.exited));
  for (const drop of dropped) await drop();
  rmSync(root, { recursive: true, force: true });
});

async function freshDatabase() {
  const database = await createScratchDatabase(adminUrl!, 'studyhall_move');
  dropped.push(database.drop);
  return database.url;
}

/** Row count and md5 of every application table, by the same rule on either engine. */
const DIGEST_TABLES = `select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r' order by 1`;
async function digests(query: (statement: string) => Promise<Record<string, unknown>[]>) {
  await query("set TimeZone = 'UTC'");
  await query('set extra_float_digits = 1');
  const result: Record<string, string> = {};
  for (const { name } of (await query(DIGEST_TABLES)) as { name: string }[]) {
    const [row] = await query(
      `select count(*)::int || ' ' || md5(coalesce(string_agg(t::text, E'\\n' order by t::text collate "C"), '')) as digest from "${name}" t`,
    );
    result[name] = String(row!.digest);
  }
  return result;
}

async function postgresDigests(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await digests(async (statement) => (await client.query(statement)).rows);
  } finally {
    await client.end();
  }
}

async function pgliteDigests(dataDir: string) {
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir), isMigrated: false });
  try {
    return await database.whileExclusive!((query) => digests(query));
  } finally {
    await database.close();
  }
}

describe.skipIf(!adminUrl)('npm run move-to-postgres', () => {
  const dataDir = path.join(root, 'school');
  beforeAll(async () => {
    const seeded = await runNpmScript('seed', [], { DATA_DIR: dataDir });
    expect(seeded.code, seeded.stderr).toBe(0);
  }, patience(180_000));

  it(
    'refuses a target that is not empty and changes nothing on either side',
    { timeout: patience(120_000) },
    async () => {
      const url = await freshDatabase();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("create table notes (id int primary key, body text); insert into notes values (1, 'mine')");
      await client.end();

      const moved = await runNpmScript('move-to-postgres', [], { DATA_DIR: dataDir, DATABASE_URL: url });
      expect(moved.code).toBe(1);
      expect(moved.stderr).toContain('is not empty (it holds public.notes)');
      expect(moved.stderr).toContain('nothing was changed');
      expect(await postgresDigests(url)).toEqual({ notes: expect.stringMatching(/^1 /) });
      expect(existsSync(path.join(dataDir, MOVED_MARKER_NAME))).toBe(false);
    },
  );

  it(
    'leaves the target empty when the copy fails after the schema was made (one transaction)',
    { timeout: patience(120_000) },
    async () => {
      const url = await freshDatabase();
      // The target refuses a row during the copy: an event trigger (not a table, so the target
      // counts as empty) puts a refusing trigger on "tasks" as the migrations create it.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`
        create function refuse_rows() returns trigger language plpgsql as $$
          begin raise exception 'this database refuses the row'; end $$;
        create function arm_tasks() returns event_trigger language plpgsql as $$
          declare command record;
          begin
            for command in select * from pg_event_trigger_ddl_commands() loop
              if command.object_identity = 'public.tasks' and command.command_tag = 'CREATE TABLE' then
                execute 'create trigger refuse before insert on public.tasks for each row execute function refuse_rows()';
              end if;
            end loop;
          end $$;
        create event trigger arm_tasks on ddl_command_end execute function arm_tasks();`);
      await client.end();

      const moved = await runNpmScript('move-to-postgres', [], { DATA_DIR: dataDir, DATABASE_URL: url });
      expect(moved.code).toBe(1);
      expect(moved.stderr).toContain('this database refuses the row');
      expect(await postgresDigests(url)).toEqual({}); // no table, not even the schema's
      expect(existsSync(path.join(dataDir, MOVED_MARKER_NAME))).toBe(false);
    },
  );

  it(
    'verifies a target whose collation is not C (ICU en-US), where text keys sort otherwise',
    { timeout: patience(300_000) },
    async () => {
      const database = await createScratchDatabase(
        adminUrl!,
        'studyhall_move',
        "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'",
      );
      dropped.push(database.drop);
      // Two task ids that byte order and en-US order put the other way round.
      const source = await openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir), isMigrated: false });
      try {
        await source.whileExclusive!(async (query) => {
          await query(`insert into tasks (owner_role, owner_id, id, text, position) values
            ('teacher', '00000000-0000-4000-8000-000000000031', 'Bcollate1', 'B first in bytes', 0),
            ('teacher', '00000000-0000-4000-8000-000000000031', 'acollate2', 'a first in en-US', 1)`);
          return [];
        });
      } finally {
        await source.close();
      }
      const moved = await runNpmScript('move-to-postgres', [], { DATA_DIR: dataDir, DATABASE_URL: database.url });
      expect(moved.stderr).toBe('');
      expect(moved.code).toBe(0);
      expect(await postgresDigests(database.url)).toEqual(await pgliteDigests(dataDir));
      rmSync(path.join(dataDir, MOVED_MARKER_NAME)); // undo, as the README says, for the next test
    },
  );

  it(
    'copies every row with the same checksums, the app signs the demo teacher in on PostgreSQL, and the old DATA_DIR refuses to start',
    { timeout: patience(300_000) },
    async () => {
      const url = await freshDatabase();
      const moved = await runNpmScript('move-to-postgres', [], { DATA_DIR: dataDir, DATABASE_URL: url });
      expect(moved.stderr).toBe('');
      expect(moved.code).toBe(0);
      expect(moved.stdout).toContain('Verified per table');

      // Every table: the same rows on both sides (the command's own report is checked, not trusted).
      const source = await pgliteDigests(dataDir);
      const target = await postgresDigests(url);
      expect(Object.keys(source).length).toBeGreaterThan(10);
      expect(target).toEqual(source);
      expect(source.teachers).toMatch(/^2 /);
      for (const [table, digest] of Object.entries(source)) {
        const [rows, checksum] = digest.split(' ');
        expect(moved.stdout).toMatch(new RegExp(`${table}\\s+${rows} rows`));
        expect(checksum).toMatch(/^[0-9a-f]{32}$/);
      }

      const marker = JSON.parse(readFileSync(path.join(dataDir, MOVED_MARKER_NAME), 'utf8'));
      expect(marker.target).toContain('studyhall_move_');

      // The app on PostgreSQL, with the same DATA_DIR for files and the JWT secret.
      const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: url });
      running.push(server);
      const token = await demoTeacherToken(server.baseUrl);
      const resources = await callJson(server.baseUrl, 'GET', '/api/get-resources', { token });
      expect(resources.status).toBe(200);
      // Files stay in DATA_DIR/uploads: served as before, with file links signed by the same secret.
      const files = (resources.body.data as Resource[]).filter((resource) => resource.kind === 'file');
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect((await fetch(`${server.baseUrl}${file.fileURL}`)).status).toBe(200);
      expect(await server.stop()).toBe(0);

      // The embedded copy is stale now: it refuses to start and says why and how to undo.
      const refused = await startServerProcess({ DATA_DIR: dataDir }).then(
        (server) => {
          running.push(server);
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(refused).toContain('This school moved to PostgreSQL');
      expect(refused).toContain(`delete ${path.join(dataDir, MOVED_MARKER_NAME)}`);

      // And a second move of the same folder is refused.
      const again = await runNpmScript('move-to-postgres', [], {
        DATA_DIR: dataDir,
        DATABASE_URL: await freshDatabase(),
      });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('Nothing to move');
    },
  );

  it(
    '--from-backup restores a backup (here one made at migration 0010) into an empty DATA_DIR, then moves it',
    { timeout: patience(300_000) },
    async () => {
      const url = await freshDatabase();
      const fromBackup = path.join(root, 'from-backup');
      const archive = path.resolve('tests/fixtures/backups/0010/studyhall-0010.tar.gz');
      const moved = await runNpmScript('move-to-postgres', ['--from-backup', archive], {
        DATA_DIR: fromBackup,
        DATABASE_URL: url,
      });
      expect(moved.stderr).toBe('');
      expect(moved.code).toBe(0);
      expect(await postgresDigests(url)).toEqual(await pgliteDigests(fromBackup));
      const server = await startServerProcess({ DATA_DIR: fromBackup, DATABASE_URL: url });
      running.push(server);
      await demoTeacherToken(server.baseUrl);
      expect(await server.stop()).toBe(0);
    },
  );
});
