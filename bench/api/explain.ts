// The evidence behind the API bench's findings: seeds the same school, sends each scenario's
// requests once through the real app (inject, no network), and prints every SQL statement
// they sent with its EXPLAIN (ANALYZE, BUFFERS) plan. Writes are explained inside a
// transaction that is rolled back.
//
//   node --import tsx bench/api/explain.ts [--db postgres|pglite] [--quick] [--only id,id] [--keep]
//
// --keep leaves the seeded database in place (its address is printed) for more EXPLAINs by hand.
//
// BENCH_POSTGRES_URL as for bench:api. Ids: the read scenarios' ids, and exam (open, start,
// save, submit of one student).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { RESOURCE_LIMITS } from '#shared/resources';
import { QUIZ_BACKGROUNDS } from '#shared/quizzes';
import { buildApp } from '#server/app';
import { openDatabase, pgliteDirectory } from '#server/db/client';
import { createDiskStorage } from '#server/storage/disk-storage';
import { buildNewQuiz } from '#server/testing/factories';
import { prepareDatabase, type Engine } from './databases.ts';
import { examQuestions, readScenarios } from './scenarios.ts';
import { BENCH_PASSWORD, FULL_PLAN, QUICK_PLAN, seedSchool } from './seed-school.ts';

type RawClient = {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
};

const argv = process.argv.slice(2);
const flag = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const engine = (flag('db') ?? 'postgres') as Engine;
const isQuick = argv.includes('--quick');
const isKeeping = argv.includes('--keep');
const only = flag('only') ? new Set(flag('only')!.split(',')) : undefined;
const plan = isQuick ? QUICK_PLAN : FULL_PLAN;

const captured: { query: string; params: unknown[] }[] = [];
let isCapturing = false;

const prepared = await prepareDatabase(
  engine,
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
const uploads = mkdtempSync(path.join(os.tmpdir(), 'studyhall-explain-'));
try {
  const seeding = await prepared.open();
  const school = await seedSchool(seeding.db, plan, (line) => console.log(line));
  await seeding.close();
  const onQuery = (query: string, params: unknown[]) => void (isCapturing && captured.push({ query, params }));
  const database = await openDatabase(
    prepared.database.kind === 'pglite'
      ? { kind: 'pglite', dataDir: pgliteDirectory(prepared.database.dataDir), onQuery }
      : { kind: 'postgres', url: prepared.database.url, onQuery },
  );
  const app = await buildApp({
    database,
    jwtSecret: 'explain-secret-that-is-long-enough-for-hs256-0123456789',
    logLevel: 'silent',
    storage: await createDiskStorage(uploads),
    uploadMaxBytes: RESOURCE_LIMITS.uploadMaxBytesDefault,
  });
  const raw = (
    database.db as unknown as { $client: RawClient & { connect?: () => Promise<RawClient & { release(): void }> } }
  ).$client;

  const call = async (options: InjectOptions & { url: string }) => {
    const response = await app.inject(options);
    if (response.statusCode >= 300)
      throw new Error(`${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
    return response.json<{ data: unknown }>();
  };
  const login = async (url: string, body: object) =>
    (await call({ method: 'POST', url, payload: body })).data as string;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  async function explainStatements(label: string, send: () => Promise<unknown>) {
    captured.length = 0;
    isCapturing = true;
    const began = performance.now();
    await send();
    const elapsed = performance.now() - began;
    isCapturing = false;
    console.log(`\n## ${label}: ${captured.length} statements, ${elapsed.toFixed(1)} ms through inject()`);
    for (const statement of [...captured]) {
      if (/^\s*(begin|commit|rollback)\b/i.test(statement.query)) {
        console.log(`\n${statement.query}`);
        continue;
      }
      const client = raw.connect ? await raw.connect() : raw;
      try {
        const isRead = /^\s*(select|with)\b/i.test(statement.query) && !/for update/i.test(statement.query);
        if (!isRead) await client.query('begin');
        const plan = await client.query(`explain (analyze, buffers) ${statement.query}`, statement.params);
        if (!isRead) await client.query('rollback');
        console.log(`\n${statement.query.replace(/\s+/g, ' ').slice(0, 600)}`);
        for (const row of plan.rows) console.log(`    ${String(Object.values(row)[0])}`);
      } catch (error) {
        console.log(
          `\n${statement.query.replace(/\s+/g, ' ').slice(0, 300)}\n    (not explained: ${(error as Error).message})`,
        );
        if (raw.connect) await client.query('rollback').catch(() => {});
      } finally {
        if ('release' in client && typeof client.release === 'function') (client as { release(): void }).release();
      }
    }
  }

  const tokens = {
    teacher: await login('/api/teacher/login', { email: school.teacherEmail, password: BENCH_PASSWORD }),
    leaderboardStudent: await login('/api/student/login', {
      rollNumber: school.leaderboardStudent,
      password: BENCH_PASSWORD,
    }),
    // One student is enough to explain the queries (the others send the same ones).
    listStudents: [await login('/api/student/login', { rollNumber: school.listStudent, password: BENCH_PASSWORD })],
  };
  for (const scenario of readScenarios(school, tokens)) {
    if (only && !only.has(scenario.id)) continue;
    for (const request of scenario.requests) {
      const send = () => call({ method: 'GET', url: request.path, headers: request.headers });
      await send(); // warm the caches first, as under load
      await explainStatements(`${scenario.id}: GET ${request.path}`, send);
    }
  }

  if (!only || only.has('exam')) {
    const className = school.classes[0]!;
    const quiz = (
      await call({
        method: 'POST',
        url: '/api/teacher/add-quiz',
        headers: auth(tokens.teacher),
        payload: buildNewQuiz({
          classId: school.classIdOf(className),
          quiz: { background: QUIZ_BACKGROUNDS[0], questions: examQuestions(1) },
        }),
      })
    ).data as { _id: string };
    const student = await login('/api/student/login', {
      rollNumber: school.rollNumbersOf(className)[0],
      password: BENCH_PASSWORD,
    });
    const quizUrl = `/api/quiz/${quiz._id}`;
    await explainStatements('exam open: GET /api/quiz/:id', () =>
      call({ method: 'GET', url: quizUrl, headers: auth(student) }),
    );
    let questions: { _id: string; options: { _id: string }[] }[] = [];
    await explainStatements('exam start: POST /api/quiz/:id/start', async () => {
      const started = (await call({ method: 'POST', url: `${quizUrl}/start`, headers: auth(student), payload: {} }))
        .data as {
        quiz: { questions: { _id: string; options: { _id: string }[] }[] };
      };
      questions = started.quiz.questions;
    });
    await explainStatements('exam save: PUT /api/quiz/:id/answers', () =>
      call({
        method: 'PUT',
        url: `${quizUrl}/answers`,
        headers: auth(student),
        payload: { answers: { [questions[0]!._id]: questions[0]!.options[0]!._id } },
      }),
    );
    await explainStatements('exam submit: POST /api/student/update-student', () =>
      call({
        method: 'POST',
        url: '/api/student/update-student',
        headers: auth(student),
        payload: {
          quiz: {
            _id: quiz._id,
            questions: questions.map((question) => ({ _id: question._id, selectedOption: question.options[0]!._id })),
          },
        },
      }),
    );
  }
  await app.close();
} finally {
  rmSync(uploads, { recursive: true, force: true });
  if (isKeeping) {
    const where = prepared.database.kind === 'postgres' ? prepared.database.url : prepared.database.dataDir;
    console.log(`\nKept the seeded database: ${where}`);
  } else await prepared.drop();
}
