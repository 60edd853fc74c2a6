// Hostile JSON benchmark (issue 17, point 6): the real server over HTTP (as `npm start` runs
// it, PGlite), GET /api/health probed at a steady rate while nobody else calls, then while 20
// connections with a teacher's token send ~1.3 MB deeply nested bodies to add-quiz one after
// another, then the same with ~1.3 MB wide bodies (one object, tens of thousands of members),
// then with ~1.3 MB valid quizzes whose texts are all `\u00e9` escapes (they pass the scan).
//
//   npm run bench:json-attack               full: 10 s per phase; exits 1 when health's p99
//                                           under the nested or the escapes attack is 200 ms
//                                           or more
//   BENCH_QUICK=1 npm run bench:json-attack CI smoke: 2 s per phase, no budget (exits 1 on
//                                           a failed health check or a 5xx to an attacker)
//
// Environment: BENCH_PORT (3421), BENCH_DURATION (seconds per phase), BENCH_ATTACKERS (20),
// BENCH_ATTACK_BYTES (1,300,000), BENCH_PROBE_RATE (health checks per second, 50), BENCH_OUT
// (the JSON file; bench/results/json-attack-….json otherwise), BENCH_CPU_PROF=1 (a V8 profile
// of the server in bench/results/profiles), BENCH_PHASES (the attacks to run, comma-separated:
// nested,wide,escapes by default; a budget is only checked for a phase that ran),
// BENCH_ATTACK_ACCOUNTS (teachers the attackers share, 1: each connection i sends as teacher
// i mod n; 20 = one teacher per connection).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { buildNewQuiz, buildSchoolSetup, buildTeacherRegistration } from '#server/testing/factories';
import type { AttackFigures, AttackShape } from './api/json-attackers.ts';
import { prepareDatabase } from './api/databases.ts';
import { summariseLatencies, type LatencySummary } from './api/load.ts';
import { postJson, startAppServer } from './api/servers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = path.join(root, 'bench/results');
const ATTACKED_PATH = '/api/teacher/add-quiz';
/** Budget of issue 17: health stays answerable while teachers send hostile bodies. */
const BUDGET = { healthP99Ms: 200 };
/** The attacks whose health p99 the budget binds (the wide one is reported). */
const BUDGETED: readonly AttackShape[] = ['nested', 'escapes'];
const ATTACK_TITLES: Record<AttackShape, string> = {
  nested: 'deeply nested ([[[…]]])',
  wide: 'wide ({"k0":0,"k1":0,…})',
  escapes: 'valid quizzes of escapes ("\\u00e9…")',
};

function readOptions() {
  const isQuick = process.argv.includes('--quick') || ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
    return value;
  };
  return {
    isQuick,
    port: number('BENCH_PORT', 3421),
    durationSeconds: number('BENCH_DURATION', isQuick ? 2 : 10),
    attackers: number('BENCH_ATTACKERS', 20),
    attackAccounts: number('BENCH_ATTACK_ACCOUNTS', 1),
    attackBytes: number('BENCH_ATTACK_BYTES', 1_300_000),
    probeRate: number('BENCH_PROBE_RATE', 50),
    out: process.env.BENCH_OUT,
    attacks: (process.env.BENCH_PHASES ?? 'nested,wide,escapes').split(',').map((phase) => {
      if (!(phase in ATTACK_TITLES)) throw new Error(`BENCH_PHASES: unknown attack ${phase}`);
      return phase as AttackShape;
    }),
    cpuProfileDir: process.env.BENCH_CPU_PROF ? path.join(resultsDir, 'profiles') : undefined,
  };
}
type Options = ReturnType<typeof readOptions>;

const loadAverage = () => os.loadavg().map((value) => Math.round(value * 100) / 100);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

type HealthFigures = LatencySummary & { errors: number; errorSamples: string[] };

/** A health check that has not answered by then has failed (a load balancer gives up sooner). */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * GET /api/health `rate` times a second for `seconds`, open-loop: each check is sent when it
 * is due whatever the previous ones are doing, and its latency runs from that moment, so a
 * stalled server shows as the time a load balancer's check would have waited. A failed check
 * counts as an error and as a sample of the time it took to fail.
 */
async function probeHealth(baseUrl: string, rate: number, seconds: number): Promise<HealthFigures> {
  const pool = new Pool(baseUrl, {
    connections: 64,
    headersTimeout: PROBE_TIMEOUT_MS,
    bodyTimeout: PROBE_TIMEOUT_MS,
  });
  const samples: number[] = [];
  let errors = 0;
  const errorSamples = new Set<string>();
  const inFlight: Promise<void>[] = [];
  const began = performance.now();
  const count = Math.round(rate * seconds);
  for (let index = 0; index < count; index += 1) {
    const due = began + (index * 1000) / rate;
    await sleep(Math.max(0, due - performance.now()));
    inFlight.push(
      pool
        .request({ method: 'GET', path: '/api/health' })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode !== 200) {
            errors += 1;
            errorSamples.add(`status ${response.statusCode}`);
          }
          samples.push(performance.now() - due);
        })
        .catch((error: unknown) => {
          errors += 1;
          samples.push(performance.now() - due);
          errorSamples.add(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
        }),
    );
  }
  await Promise.all(inFlight);
  await pool.close();
  return { ...summariseLatencies(samples), errors, errorSamples: [...errorSamples].slice(0, 5) };
}

/** The attackers in a child process; resolves once they are sending. */
async function startAttackers(options: Options, baseUrl: string, tokens: string[], shape: AttackShape) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/api/json-attackers.ts',
      baseUrl,
      ATTACKED_PATH,
      tokens.join(','),
      shape,
      String(options.attackBytes),
      String(options.attackers),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== 'ready') throw new Error(`the attackers did not start (${String(first.value)})`);
  return {
    async stop(): Promise<AttackFigures> {
      child.kill('SIGTERM');
      const report = await lines.next();
      return JSON.parse(String(report.value)) as AttackFigures;
    },
  };
}

type Phase = {
  id: 'quiet' | AttackShape;
  title: string;
  health: HealthFigures;
  attack?: AttackFigures & { rps: number };
  loadAverage: number[];
};

async function runPhase(
  options: Options,
  baseUrl: string,
  tokens: string[],
  id: Phase['id'],
  title: string,
): Promise<Phase> {
  const attackers = id === 'quiet' ? undefined : await startAttackers(options, baseUrl, tokens, id);
  // Let the attack reach its stride (and the quiet server warm its routes) before measuring.
  await sleep(1000);
  const began = performance.now();
  const health = await probeHealth(baseUrl, options.probeRate, options.durationSeconds);
  const attack = await attackers?.stop();
  const seconds = (performance.now() - began) / 1000 + 1;
  const phase: Phase = {
    id,
    title,
    health,
    ...(attack ? { attack: { ...attack, rps: Math.round((attack.requests / seconds) * 10) / 10 } } : {}),
    loadAverage: loadAverage(),
  };
  console.log(
    `${id.padEnd(7)} health n ${health.n}  p50 ${health.p50}  p95 ${health.p95}  p99 ${health.p99}  max ${health.max} ms  errors ${health.errors}` +
      (phase.attack
        ? `  | attack ${phase.attack.requests} requests (${phase.attack.rps}/s) ${JSON.stringify(phase.attack.statusCodes)}, network errors ${phase.attack.networkErrors}`
        : '') +
      `  | load ${phase.loadAverage.join(' ')}`,
  );
  for (const sample of health.errorSamples) console.log(`  ! ${sample}`);
  // The server finishes whatever the attackers left in flight before the next phase.
  await sleep(2000);
  return phase;
}

async function main() {
  const options = readOptions();
  const startedAt = new Date();
  const kb = Math.round(options.attackBytes / 1000).toLocaleString('en-GB');
  console.log(
    `JSON attack bench (${options.isQuick ? 'quick' : 'full'}): ${options.attackers} × ${kb} kB bodies to ${ATTACKED_PATH} from ${options.attackAccounts} teacher(s), ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, load ${loadAverage().join(' ')}`,
  );
  const prepared = await prepareDatabase('pglite', '');
  const server = await startAppServer({
    port: options.port,
    database: prepared.database,
    cpuProfileDir: options.cpuProfileDir,
    logLevel: process.env.BENCH_LOG_LEVEL,
  });
  let phases: Phase[] = [];
  try {
    const tokens: string[] = [];
    // Teachers join by invitation (decision 030): the bench's school is set up first.
    const administratorToken = (await postJson(server.baseUrl, '/api/school/setup', buildSchoolSetup())) as string;
    for (let index = 0; index < options.attackAccounts; index += 1) {
      const invited = (await postJson(server.baseUrl, '/api/school/invitations', {}, administratorToken)) as {
        code: string;
      };
      const registration = buildTeacherRegistration(invited.code);
      await postJson(server.baseUrl, '/api/teacher/register', registration);
      const token = (await postJson(server.baseUrl, '/api/teacher/login', {
        email: registration.email,
        password: registration.password,
      })) as string;
      // The attacked route works for this teacher: a real quiz for a class of theirs is accepted.
      const made = (await postJson(server.baseUrl, '/api/classes', { name: `10A-${index}` }, token)) as { _id: string };
      await postJson(server.baseUrl, ATTACKED_PATH, buildNewQuiz({ classId: made._id }), token);
      tokens.push(token);
    }

    phases = [await runPhase(options, server.baseUrl, tokens, 'quiet', 'nobody else calls')];
    for (const attack of options.attacks) {
      phases.push(
        await runPhase(
          options,
          server.baseUrl,
          tokens,
          attack,
          `${options.attackers} × ${ATTACK_TITLES[attack]}${options.attackAccounts > 1 ? `, ${options.attackAccounts} teachers` : ''}`,
        ),
      );
    }
  } finally {
    await server.stop();
    await prepared.drop();
  }

  const budgeted = phases.filter((phase) => (BUDGETED as readonly string[]).includes(phase.id));
  const budget = {
    budget: `health p99 < ${BUDGET.healthP99Ms} ms under the ${BUDGETED.join(' and the ')} attacks`,
    actual: budgeted.map((phase) => `${phase.id} ${phase.health.p99} ms`).join(', '),
    isMet: budgeted.every((phase) => phase.health.p99 < BUDGET.healthP99Ms),
    isEnforced: !options.isQuick,
  };
  const problems = [
    ...phases.filter((phase) => phase.health.errors > 0).map((phase) => `${phase.id}: failed health checks`),
    ...phases
      .filter((phase) => Object.keys(phase.attack?.statusCodes ?? {}).some((code) => Number(code) >= 500))
      .map((phase) => `${phase.id}: the server answered an attacker with a 5xx`),
    ...(budget.isEnforced && !budget.isMet ? [`budget missed: ${budget.budget} (${budget.actual})`] : []),
  ];
  const report = {
    kind: 'studyhall-json-attack-bench',
    mode: options.isQuick ? 'quick' : 'full',
    date: startedAt.toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, loadAverageAtEnd: loadAverage() },
    settings: { ...options, attackedPath: ATTACKED_PATH },
    phases,
    budget,
    problems,
  };
  mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replaceAll(':', '-').slice(0, 19);
  const file = options.out ?? path.join(resultsDir, `json-attack-${report.mode}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

  console.log('\n| phase | health p50 | health p99 | health max | attack requests/s | attack answers |');
  console.log('| --- | --: | --: | --: | --: | --- |');
  for (const phase of phases) {
    const answers = phase.attack
      ? Object.entries(phase.attack.statusCodes)
          .map(([code, count]) => `${code} × ${count}`)
          .join(', ')
      : '';
    console.log(
      `| ${phase.title} | ${phase.health.p50} ms | ${phase.health.p99} ms | ${phase.health.max} ms | ${phase.attack?.rps ?? ''} | ${answers} |`,
    );
  }
  console.log(
    `\n${budget.budget}: ${budget.actual} (${budget.isMet ? 'met' : 'missed'}${budget.isEnforced ? '' : ', not binding in quick mode'})`,
  );
  console.log(`Results: ${path.relative(root, file)}, load ${report.machine.loadAverageAtEnd.join(' ')}`);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`✗ ${problem}`);
    process.exit(1);
  }
}

await main();
