// The gradebook benchmark (issue 33, decision 062): the real server over HTTP on PostgreSQL, a
// school of 2,000 students in classes of 40, each class with 200 graded items (100 quizzes, 100
// assignments) and nine in ten of them done by each student (360,000 attempts and hand-ins). A
// teacher pages through gradebooks: random class, sort (name, roll number, average, each way),
// now and then only missing work or a name search. Nothing is cached: the gradebook reads the
// database on every request.
//
//   npm run bench:gradebook                     PostgreSQL (BENCH_DB=pglite or both for PGlite)
//   BENCH_QUICK=1 npm run bench:gradebook       CI smoke: 200 students, 20 items a class, 3 s
//
// Environment: BENCH_POSTGRES_URL (as bench:api), BENCH_PORT (default 3421), BENCH_DURATION
// (seconds, default 10; quick 3), BENCH_CONNECTIONS (default 1: one teacher's latency; more
// measures the same under concurrency), BENCH_OUT (the JSON file), BENCH_KEEP_DB=1 (keep the
// seeded PostgreSQL database and print its URL, to EXPLAIN the gradebook's statements).
//
// Exits 1 when a request fails, or (full mode, PostgreSQL) the rows' p99 is 50 ms or more.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildSchoolSetup } from '#server/testing/factories';
import { cpuMeter } from './api/cpu.ts';
import { prepareDatabase, type Engine } from './api/databases.ts';
import { runCannon, type LoadFigures } from './api/load.ts';
import { postJson, startAppServer } from './api/servers.ts';
import { codeVersion } from './code-version.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => console.log(line);
const P99_BUDGET_MS = 50;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

function readOptions() {
  const argv = process.argv.slice(2);
  const flag = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
  const isQuick = argv.includes('--quick') || ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
  const db = flag('db') ?? process.env.BENCH_DB_GRADEBOOK ?? 'postgres';
  if (!['pglite', 'postgres', 'both'].includes(db))
    throw new Error(`--db must be pglite, postgres or both (got ${db})`);
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name] || fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value;
  };
  return {
    isQuick,
    engines: (db === 'both' ? ['postgres', 'pglite'] : [db]) as Engine[],
    postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    port: number('BENCH_PORT', 3421),
    plan: isQuick
      ? { students: 200, classSize: 20, quizzes: 10, assignments: 10 }
      : { students: 2000, classSize: 40, quizzes: 100, assignments: 100 },
    load: {
      connections: number('BENCH_CONNECTIONS', 1),
      durationSeconds: number('BENCH_DURATION', isQuick ? 3 : 10),
      warmupSeconds: isQuick ? 1 : 3,
    },
    out: flag('out') ?? process.env.BENCH_OUT,
  };
}
type Options = ReturnType<typeof readOptions>;

/**
 * The school in SQL (generate_series): students, classes the teacher teaches, each class's quizzes
 * and assignments due over the last months, nine in ten of them done by each student, scores and
 * grades spread, a third of the assignments' grades not yet returned.
 */
async function seed(database: Awaited<ReturnType<typeof prepareDatabase>>, teacherId: string, plan: Options['plan']) {
  const handle = await database.open();
  const db = handle.db;
  const classes = Math.ceil(plan.students / plan.classSize);
  const run = (statement: ReturnType<typeof sql>) => db.execute(statement);
  await run(sql`insert into classes (name, name_key)
    select 'G' || lpad(n::text, 3, '0'), 'g' || lpad(n::text, 3, '0') from generate_series(1, ${classes}) n`);
  await run(
    sql`insert into class_teachers (class_id, teacher_id, is_owner) select id, ${teacherId}, true from classes`,
  );
  await run(sql`insert into students (name, roll_number, roll_number_key, email, email_key, parent_name, parent_email, password_hash)
    select 'Student ' || md5(n::text), 'g' || lpad(n::text, 6, '0'), 'g' || lpad(n::text, 6, '0'),
      'g' || n || '@bench.example', 'g' || n || '@bench.example', 'Parent', 'parent@bench.example', 'not-a-hash'
    from generate_series(1, ${plan.students}) n`);
  await run(sql`insert into class_students (class_id, student_id)
    select c.id, s.id from (select id, row_number() over (order by roll_number) - 1 as n from students) s
    join (select id, row_number() over (order by name) - 1 as n from classes) c on c.n = s.n % ${classes}`);
  await run(sql`insert into quizzes (title, subject, class_id, deadline, max_time_minutes, created_by_teacher_id,
      background, questions, question_count, total_points, closes_at, review_score, scores_released)
    select 'Quiz ' || n, 'Bench', c.id, now() - (n || ' days')::interval, 10, ${teacherId}, '', '[]'::jsonb, 0, 10,
      now() - (n || ' days')::interval + interval '11 minutes', 'after-submit', true
    from classes c cross join generate_series(1, ${plan.quizzes}) n`);
  await run(sql`insert into assignments (created_by_teacher_id, title, points, due_at)
    select ${teacherId}, c.id::text || ':' || n, 10, now() - (n || ' days')::interval - interval '12 hours'
    from classes c cross join generate_series(1, ${plan.assignments}) n`);
  await run(sql`insert into assignment_classes (assignment_id, class_id)
    select a.id, split_part(a.title, ':', 1)::uuid from assignments a`);
  await run(sql`update assignments set title = 'Homework ' || split_part(title, ':', 2)`);
  // Nine in ten done, by a hash of (item, student) so every run seeds the same school.
  await run(sql`insert into quiz_attempts (quiz_id, student_id, started_at, ends_at, layout, submitted_at, ended_by, score)
    select q.id, cs.student_id, q.deadline, q.deadline + interval '10 minutes', '[]'::jsonb, q.deadline, 'submitted',
      (abs(hashtext(q.id::text || cs.student_id::text)) % 21) / 2.0
    from quizzes q join class_students cs on cs.class_id = q.class_id
    where abs(hashtext(cs.student_id::text || q.id::text)) % 10 <> 0`);
  await run(sql`insert into hand_ins (assignment_id, student_id, class_id, state, text, submitted_at, late, points,
      graded_at, returned_at)
    select a.id, cs.student_id, cs.class_id, g.state, 'Bench work', a.due_at, false,
      case when g.state = 'handed-in' then null else (abs(hashtext(a.id::text || cs.student_id::text)) % 21) / 2.0 end,
      case when g.state = 'handed-in' then null else a.due_at end,
      case when g.state = 'returned' then a.due_at end
    from assignments a join assignment_classes ac on ac.assignment_id = a.id
    join class_students cs on cs.class_id = ac.class_id
    cross join lateral (select (array['returned', 'returned', 'graded', 'handed-in'])[
      1 + abs(hashtext(cs.student_id::text || a.id::text)) % 4] as state) g
    where abs(hashtext(a.id::text || cs.student_id::text || 'x')) % 10 <> 0`);
  await run(sql`analyze`);
  const counts = Object.fromEntries(
    await Promise.all(
      ['students', 'classes', 'quizzes', 'assignments', 'quiz_attempts', 'hand_ins'].map(async (table) => {
        const [row] = rowsOf<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)));
        return [table, row!.n] as const;
      }),
    ),
  );
  const classIds = rowsOf<{ id: string }>(await db.execute(sql`select id from classes order by name`)).map(
    (row) => row.id,
  );
  await handle.close();
  return { counts, classIds };
}

const QUERIES = [
  '?sort=name',
  '?sort=name&order=desc',
  '?sort=roll-number',
  '?sort=average&order=desc',
  '?sort=average&order=asc',
  '?sort=average&order=desc&missing=true',
  '?sort=name&search=ab',
  '?sort=name&offset=25',
];

async function benchEngine(engine: Engine, options: Options) {
  log(
    `\n== ${engine}: ${options.plan.students} students, ${options.plan.quizzes + options.plan.assignments} items a class`,
  );
  const database = await prepareDatabase(engine, options.postgresAdminUrl);
  const server = await startAppServer({ port: options.port, database: database.database });
  try {
    const token = (await postJson(server.baseUrl, '/api/school/setup', buildSchoolSetup())) as string;
    const profile = (await postJson(server.baseUrl, '/api/teacher/get-teacher-by-id', {}, token)) as { _id: string };
    const began = performance.now();
    // PGlite is one process: the server holds it, so its school is seeded through a second server's stop.
    if (engine === 'pglite') await server.stop();
    const { counts, classIds } = await seed(database, profile._id, options.plan);
    // Other work on the machine inflates every figure: the load is part of the record.
    const loadAverage = os.loadavg().map((value) => Math.round(value * 10) / 10);
    log(`load average ${loadAverage.join(' ')} on ${os.cpus().length} cores`);
    const seedSeconds = Math.round((performance.now() - began) / 100) / 10;
    log(`seeded in ${seedSeconds} s: ${JSON.stringify(counts)}`);
    const running =
      engine === 'pglite' ? await startAppServer({ port: options.port, database: database.database }) : server;
    const headers = { authorization: `Bearer ${token}` };
    let turn = 0;
    const pick = <T>(list: T[]) => list[(turn * 7919) % list.length]!;
    const scenario = async (title: string, next: () => string): Promise<LoadFigures & { title: string }> => {
      const figures = await runCannon({
        baseUrl: running.baseUrl,
        settings: options.load,
        next: () => {
          turn += 1;
          return { path: next(), headers };
        },
        // CPU per request: what a loaded machine distorts least (latency waits for the cores).
        meter: cpuMeter(running.pid, database.database.kind === 'postgres' ? database.database.url : undefined),
      });
      const cpu = figures.cpu
        ? `; CPU per request: app ${figures.cpu.appMsPerRequest} ms${figures.cpu.databaseMsPerRequest === undefined ? '' : `, PostgreSQL ${figures.cpu.databaseMsPerRequest} ms`}`
        : '';
      log(
        `${title}: ${figures.requests} requests, ${figures.rps}/s, p50 ${figures.latency.p50} ms, p95 ${figures.latency.p95} ms, p99 ${figures.latency.p99} ms, max ${figures.latency.max} ms, errors ${figures.errors}${cpu}`,
      );
      return { title, ...figures };
    };
    const rows = await scenario('GET /api/classes/:id/gradebook (a page of 25 × 200 cells)', () => {
      const classId = pick(classIds);
      return `/api/classes/${classId}/gradebook${QUERIES[turn % QUERIES.length]}`;
    });
    const columns = await scenario(
      'GET /api/classes/:id/gradebook/columns',
      () => `/api/classes/${pick(classIds)}/gradebook/columns`,
    );
    if (running !== server) await running.stop();
    return { engine, seedSeconds, counts, loadAverage, rows, columns };
  } finally {
    await server.stop();
    // BENCH_KEEP_DB=1: the seeded database stays, for EXPLAIN (its URL is printed).
    if (process.env.BENCH_KEEP_DB && database.database.kind === 'postgres') log(`kept ${database.database.url}`);
    else await database.drop();
  }
}

async function main() {
  const options = readOptions();
  const results = [];
  for (const engine of options.engines) results.push(await benchEngine(engine, options));
  const failures: string[] = [];
  for (const result of results) {
    for (const figures of [result.rows, result.columns])
      if (figures.errors > 0) failures.push(`${result.engine} ${figures.title}: ${figures.errors} failed requests`);
    if (!options.isQuick && result.engine === 'postgres' && result.rows.latency.p99 >= P99_BUDGET_MS)
      failures.push(`postgres rows p99 ${result.rows.latency.p99} ms (budget < ${P99_BUDGET_MS} ms)`);
  }
  const out =
    options.out ??
    path.join(
      root,
      'bench/results',
      `gradebook-${options.isQuick ? 'quick' : 'full'}-${new Date().toISOString().slice(0, 10)}.json`,
    );
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify({ version: codeVersion(), options: { ...options, postgresAdminUrl: undefined }, results }, null, 2),
  );
  log(`\nwritten ${path.relative(root, out)}`);
  if (failures.length > 0) {
    for (const failure of failures) log(`FAILED: ${failure}`);
    process.exit(1);
  }
  log(options.isQuick ? 'quick run: no budgets' : `budget met: rows p99 < ${P99_BUDGET_MS} ms`);
}

await main();
