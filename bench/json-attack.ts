// Hostile JSON benchmark (issue 17, point 6): the real server over HTTP (as `npm start` runs
// it, PGlite), GET /api/health probed at a steady rate while nobody else calls, then while 20
// connections with a teacher's token send ~1.3 MB deeply nested bodies to add-quiz one after
// another, then the same with ~1.3 MB wide bodies (one object, tens of thousands of members),
// then with ~1.3 MB valid quizzes whose texts are all `\u00e9` escapes (they pass the scan),
// then the nested attack again right after an exam's save and submit traffic (issue 30, point
// 7: students open, start, save each answer and submit; the traffic leaves the old generation
// larger, and the attack's garbage then made V8 run one full collection after another). The
// server runs with --trace-gc: each phase reports its garbage collections (scavenges, full
// mark-compacts and their pauses).
//
//   npm run bench:json-attack               full: 10 s per phase; exits 1 when health's p99
//                                           under the nested or the escapes attack, or after
//                                           the exam, is 200 ms or more
//   BENCH_QUICK=1 npm run bench:json-attack CI smoke: 2 s per phase, no budget (exits 1 on
//                                           a failed health check or a 5xx to an attacker)
//
// Environment: BENCH_PORT (3421), BENCH_DURATION (seconds per phase), BENCH_ATTACKERS (20),
// BENCH_ATTACK_BYTES (1,300,000), BENCH_PROBE_RATE (health checks per second, 50), BENCH_OUT
// (the JSON file; bench/results/json-attack-….json otherwise), BENCH_CPU_PROF=1 (a V8 profile
// of the server in bench/results/profiles), BENCH_PHASES (the attacks to run, comma-separated:
// nested,wide,escapes,after-exam by default; a budget is only checked for a phase that ran),
// BENCH_ATTACK_ACCOUNTS (teachers each attack's connections share, new ones for every
// attack, 1: each connection i sends as teacher i mod n; 20 = one teacher per connection),
// BENCH_EXAM_STUDENTS (students taking the exam
// before the after-exam phase, 200; quick 40), BENCH_EXAM_WINDOW (seconds they take, 30;
// quick 10), BENCH_NODE_FLAGS (more node flags for the server, space-separated: V8's heap
// flags, to compare), BENCH_GC_LOG (a file the server's --trace-gc lines are appended to),
// BENCH_HEAP_SNAPSHOTS=1 (a heap snapshot of the server as each phase begins, in
// bench/results/profiles). Each phase reports the server's CPU (main thread and the others,
// from /proc) and its window on the monotonic clock, to cut a profile with
// bench/api/profile-summary.ts.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import {
  buildNewQuiz,
  buildSchoolSetup,
  buildStudentRegistration,
  buildTeacherRegistration,
} from '#server/testing/factories';
import { QUIZ_BACKGROUNDS } from '#shared/quizzes';
import type { AttackFigures, AttackShape } from './api/json-attackers.ts';
import { prepareDatabase } from './api/databases.ts';
import { runExamRush, type RushFigures } from './api/exam-rush.ts';
import { bytesReadBy, threadCpuMs } from './api/cpu.ts';
import { createGcCounter, type GcFigures } from './api/gc-trace.ts';
import { examQuestions } from './api/scenarios.ts';
import { summariseLatencies, type LatencySummary } from './api/load.ts';
import { postJson, startAppServer } from './api/servers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const resultsDir = path.join(root, 'bench/results');
const ATTACKED_PATH = '/api/teacher/add-quiz';
/** Budget of issue 17: health stays answerable while teachers send hostile bodies. */
const BUDGET = { healthP99Ms: 200 };
type AttackPhase = AttackShape | 'after-exam';
/** The attacks whose health p99 the budget binds (the wide one is reported). */
const BUDGETED: readonly AttackPhase[] = ['nested', 'escapes', 'after-exam'];
const ATTACK_TITLES: Record<AttackPhase, string> = {
  nested: 'deeply nested ([[[…]]])',
  wide: 'wide ({"k0":0,"k1":0,…})',
  escapes: 'valid quizzes of escapes ("\\u00e9…")',
  'after-exam': 'deeply nested, right after an exam',
};
/** What each phase sends: after the exam, the nested bodies again. */
const ATTACK_SHAPE: Record<AttackPhase, AttackShape> = {
  nested: 'nested',
  wide: 'wide',
  escapes: 'escapes',
  'after-exam': 'nested',
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
    attacks: (process.env.BENCH_PHASES ?? 'nested,wide,escapes,after-exam').split(',').map((phase) => {
      if (!(phase in ATTACK_TITLES)) throw new Error(`BENCH_PHASES: unknown attack ${phase}`);
      return phase as AttackPhase;
    }),
    examStudents: number('BENCH_EXAM_STUDENTS', isQuick ? 40 : 200),
    examWindowSeconds: number('BENCH_EXAM_WINDOW', isQuick ? 10 : 30),
    nodeFlags: (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    gcLog: process.env.BENCH_GC_LOG,
    cpuProfileDir: process.env.BENCH_CPU_PROF ? path.join(resultsDir, 'profiles') : undefined,
    heapSnapshots: Boolean(process.env.BENCH_HEAP_SNAPSHOTS),
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

/** The attackers in a child process (each sender `token:classId`); resolves once they are sending. */
async function startAttackers(options: Options, baseUrl: string, senders: string[], shape: AttackShape) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/api/json-attackers.ts',
      baseUrl,
      ATTACKED_PATH,
      senders.join(','),
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
  id: 'quiet' | AttackPhase;
  title: string;
  health: HealthFigures;
  /** The server's garbage collections while health was probed. */
  gc: GcFigures;
  attack?: AttackFigures & { rps: number };
  /** The after-exam phase: the exam's figures and its collections. */
  exam?: Pick<RushFigures, 'students' | 'requests' | 'rps' | 'errors' | 'errorSamples'> & {
    p99: number;
    gc: GcFigures;
  };
  /**
   * The server's CPU while health was probed, ms of its main thread and of its other threads
   * (the collector's helpers, libuv's pool): what the load of other programs does not change.
   */
  serverCpu?: { mainMs: number; otherThreadsMs: number; mbRead: number };
  /** When health was probed: the monotonic clock in µs, the profile's (bench/api/profile-summary.ts). */
  window: { fromUs: number; toUs: number };
  loadAverage: number[];
};

type Gc = ReturnType<typeof createGcCounter>;
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

const gcText = (gc: GcFigures) =>
  `gc: ${gc.fullGcs} full (${gc.fullGcPauseMs} ms, longest ${gc.longestFullGcPauseMs} ms), ${gc.scavenges} scavenges (${gc.scavengePauseMs} ms)` +
  (gc.heapAfterLastFullGcMb === null ? '' : `, heap ${gc.heapAfterLastFullGcMb} MB after the last full`) +
  Object.entries(gc.fullGcReasons)
    .map(([reason, count]) => `\n          ${count} × ${reason}`)
    .join('');

/** The exam before the after-exam phase: its students, their quiz, their tokens. */
type Exam = { run(): Promise<RushFigures> };

async function runPhase(
  options: Options,
  { baseUrl, pid }: { baseUrl: string; pid: number },
  tokens: string[],
  gc: Gc,
  id: Phase['id'],
  title: string,
  exam?: Exam,
): Promise<Phase> {
  let examFigures: Phase['exam'];
  if (exam) {
    gc.take();
    const rush = await exam.run();
    examFigures = {
      students: rush.students,
      requests: rush.requests,
      rps: rush.rps,
      errors: rush.errors,
      errorSamples: rush.errorSamples,
      p99: rush.latency.p99,
      gc: gc.take(),
    };
    console.log(
      `exam    ${rush.students} students, ${rush.requests} requests (${rush.rps}/s), p99 ${rush.latency.p99} ms, errors ${rush.errors}  | ${gcText(examFigures.gc)}`,
    );
    for (const sample of rush.errorSamples) console.log(`  ! ${sample}`);
  }
  if (options.heapSnapshots) {
    // What the heap holds as the phase begins (after the exam, for that phase): V8 writes it
    // to bench/results/profiles on the signal, the server standing still meanwhile.
    process.kill(pid, 'SIGUSR2');
    await sleep(5000);
  }
  const attackers = id === 'quiet' ? undefined : await startAttackers(options, baseUrl, tokens, ATTACK_SHAPE[id]);
  // Let the attack reach its stride (and the quiet server warm its routes) before measuring; the
  // CI smoke (quick) proves the phases run, not their figures, and waits half as long here and below.
  await sleep(options.isQuick ? 500 : 1000);
  gc.take();
  const cpuBefore = threadCpuMs(pid);
  const readBefore = bytesReadBy(pid) ?? 0;
  const fromUs = monotonicUs();
  const began = performance.now();
  const health = await probeHealth(baseUrl, options.probeRate, options.durationSeconds);
  const toUs = monotonicUs();
  const cpuAfter = threadCpuMs(pid);
  const mbRead = Math.round(((bytesReadBy(pid) ?? 0) - readBefore) / 1e5) / 10;
  const collections = gc.take();
  const attack = await attackers?.stop();
  const seconds = (performance.now() - began) / 1000 + 1;
  const serverCpu =
    cpuBefore && cpuAfter
      ? {
          mainMs: cpuAfter.main - cpuBefore.main,
          otherThreadsMs: cpuAfter.otherThreads - cpuBefore.otherThreads,
          mbRead,
        }
      : undefined;
  const phase: Phase = {
    id,
    title,
    health,
    gc: collections,
    ...(attack ? { attack: { ...attack, rps: Math.round((attack.requests / seconds) * 10) / 10 } } : {}),
    ...(examFigures ? { exam: examFigures } : {}),
    ...(serverCpu ? { serverCpu } : {}),
    window: { fromUs, toUs },
    loadAverage: loadAverage(),
  };
  console.log(
    `${id.padEnd(7)} health n ${health.n}  p50 ${health.p50}  p95 ${health.p95}  p99 ${health.p99}  max ${health.max} ms  errors ${health.errors}` +
      (phase.attack
        ? `  | attack ${phase.attack.requests} requests (${phase.attack.rps}/s) ${JSON.stringify(phase.attack.statusCodes)}, network errors ${phase.attack.networkErrors}`
        : '') +
      `  | load ${phase.loadAverage.join(' ')}\n        ${gcText(collections)}` +
      (serverCpu
        ? `\n        server CPU: main thread ${serverCpu.mainMs} ms, other threads ${serverCpu.otherThreadsMs} ms in ${options.durationSeconds} s; read ${serverCpu.mbRead} MB`
        : ''),
  );
  for (const sample of health.errorSamples) console.log(`  ! ${sample}`);
  // The server finishes whatever the attackers left in flight before the next phase.
  await sleep(options.isQuick ? 1000 : 2000);
  return phase;
}

/**
 * The exam of the after-exam phase: its students register with the class's code and sign in
 * now (argon2 for each, before any phase), and the teacher sets a 20-question quiz; run() is
 * the rush itself (bench/api/exam-rush.ts: open, start, a save per answer, submit).
 */
async function prepareExam(
  baseUrl: string,
  options: Options,
  teacherToken: string,
  { classId, classCode }: { classId: string; classCode: string },
): Promise<Exam> {
  const quiz = buildNewQuiz({
    classId,
    title: 'The exam before the attack',
    // The rush checks each result against the key, so the key comes with the result (decision 032).
    reviewAnswers: 'after-submit',
    quiz: { background: QUIZ_BACKGROUNDS[2]!, questions: examQuestions(1) },
  });
  const quizId = ((await postJson(baseUrl, ATTACKED_PATH, quiz, teacherToken)) as { _id: string })._id;
  const students: string[] = [];
  for (let index = 0; index < options.examStudents; index += 1) {
    const student = buildStudentRegistration({ classCode });
    await postJson(baseUrl, '/api/student/register', student);
    students.push(
      (await postJson(baseUrl, '/api/student/login', {
        rollNumber: student.rollNumber,
        password: student.password,
      })) as string,
    );
  }
  return {
    run: () =>
      runExamRush({
        baseUrl,
        students: students.map((token) => ({ token, quizId })),
        windowSeconds: options.examWindowSeconds,
        connections: 32,
      }),
  };
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
  const gc = createGcCounter();
  const server = await startAppServer({
    port: options.port,
    database: prepared.database,
    cpuProfileDir: options.cpuProfileDir,
    logLevel: process.env.BENCH_LOG_LEVEL,
    nodeFlags: [
      '--trace-gc',
      ...(options.heapSnapshots
        ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${path.join(resultsDir, 'profiles')}`]
        : []),
      ...options.nodeFlags,
    ],
    onStdoutLine: (line) => {
      if (!gc.read(line)) console.log(line);
      else if (options.gcLog) appendFileSync(options.gcLog, `${line}\n`);
    },
  });
  let phases: Phase[] = [];
  try {
    // Teachers join by invitation (decision 030): the bench's school is set up first.
    const administratorToken = (await postJson(server.baseUrl, '/api/school/setup', buildSchoolSetup())) as string;
    let teachersMade = 0;
    /** `count` new teachers, signed in, each with a class and a real quiz the attacked route accepted. */
    const signUpTeachers = async (count: number) => {
      const teachers: { token: string; classId: string; classCode: string }[] = [];
      for (let index = 0; index < count; index += 1) {
        const invited = (await postJson(server.baseUrl, '/api/school/invitations', {}, administratorToken)) as {
          code: string;
        };
        const registration = buildTeacherRegistration(invited.code);
        await postJson(server.baseUrl, '/api/teacher/register', registration);
        const token = (await postJson(server.baseUrl, '/api/teacher/login', {
          email: registration.email,
          password: registration.password,
        })) as string;
        const made = (await postJson(
          server.baseUrl,
          '/api/classes',
          { name: `10A-${(teachersMade += 1)}` },
          token,
        )) as {
          _id: string;
          joinCode: string;
        };
        await postJson(server.baseUrl, ATTACKED_PATH, buildNewQuiz({ classId: made._id }), token);
        teachers.push({ token, classId: made._id, classCode: made.joinCode });
      }
      return teachers;
    };
    // Each attack has teachers of its own, so no phase starts with bytes an hour (decision 023)
    // another spent: the nested attack after the exam meets the server the nested attack alone
    // met, less the exam.
    const attackTokens = new Map<AttackPhase, string[]>();
    for (const attack of options.attacks) {
      attackTokens.set(
        attack,
        (await signUpTeachers(options.attackAccounts)).map((teacher) => `${teacher.token}:${teacher.classId}`),
      );
    }
    const examTeacher = options.attacks.includes('after-exam') ? (await signUpTeachers(1))[0]! : undefined;
    const exam = examTeacher ? await prepareExam(server.baseUrl, options, examTeacher.token, examTeacher) : undefined;

    phases = [await runPhase(options, server, [], gc, 'quiet', 'nobody else calls')];
    for (const attack of options.attacks) {
      phases.push(
        await runPhase(
          options,
          server,
          attackTokens.get(attack)!,
          gc,
          attack,
          `${options.attackers} × ${ATTACK_TITLES[attack]}${options.attackAccounts > 1 ? `, ${options.attackAccounts} teachers` : ''}`,
          attack === 'after-exam' ? exam : undefined,
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
    ...phases.filter((phase) => (phase.exam?.errors ?? 0) > 0).map((phase) => `${phase.id}: the exam had errors`),
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

  console.log(
    '\n| phase | health p50 | health p99 | health max | full GCs (pause) | attack requests/s | attack answers |',
  );
  console.log('| --- | --: | --: | --: | --: | --: | --- |');
  for (const phase of phases) {
    const answers = phase.attack
      ? Object.entries(phase.attack.statusCodes)
          .map(([code, count]) => `${code} × ${count}`)
          .join(', ')
      : '';
    console.log(
      `| ${phase.title} | ${phase.health.p50} ms | ${phase.health.p99} ms | ${phase.health.max} ms | ${phase.gc.fullGcs} (${phase.gc.fullGcPauseMs} ms) | ${phase.attack?.rps ?? ''} | ${answers} |`,
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
