// Sign-in under attack (issue 17, point 5; decision 016): the real server over HTTP with the
// real throttle. Everyone comes from one address, the school's public one (NAT): the bench
// plays the school's proxy (TRUST_PROXY=127.0.0.1) and names an address of the benchmarking
// range 198.18.0.0/15, a new one each run, so no run (nor anyone else sharing the Redis)
// meets the counters another left. A
// script sprays wrong passwords (the student's own account every 5th try, classmates, made-up
// names): first as fast as it can until the network's budget refuses it, then 5 a second for
// 30 s, while a student signs in 10 times with the right password in the browser she has used
// before (its device cookie kept, as a browser does), and another student 10 times from
// browsers their account has never seen (no cookie). First of all, a burst (issue 30, point 7):
// 150 failing sign-ins at once from 150 addresses (no network budget stops them), while health
// and a cheap read (a teacher's classes) are probed 20 times a second each; argon2 filling
// both cores took health's p99 to 1.5 s, decision 040 bounds it.
//
//   npm run bench:sign-in                        PGlite and PostgreSQL, default limits, 30 s
//   npm run bench:sign-in -- --db postgres       one database (or BENCH_DB)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379 BENCH_INSTANCES=2 npm run bench:sign-in -- --db postgres
//                                                two instances counting in one Redis, round robin
//   BENCH_QUICK=1 npm run bench:sign-in          CI smoke: SIGN_IN_LIMIT_PER_IP=100, 5 s of attack
//
// Environment: BENCH_PORT (the first instance; default 3411), BENCH_POSTGRES_URL (as for
// bench:api), BENCH_ATTACK_SECONDS (30; quick 5), BENCH_SIGN_IN_LIMIT (SIGN_IN_LIMIT_PER_IP;
// the app's default, quick 100), BENCH_OUT (the JSON file; bench/results/sign-in-*.json).
//
// Exits 1 when the student on her own browser is let in fewer than 9 times of 10, or the
// script got more password checks than the network's budget, or one account's lock-out, allows,
// or (full mode) health's or the cheap read's p99 during the burst is 200 ms or more.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import { buildSchoolSetup, buildStudentRegistration } from '#server/testing/factories';
import { DEFAULT_THROTTLE_LIMITS, FAILURE_COST, HOUR_MS } from '#server/throttle/limits';
import { lockDurationMs } from '#server/throttle/throttle-store';
import { prepareDatabase, type Engine } from './api/databases.ts';
import { benchArguments, sideBySide } from './api/options.ts';
import { summariseLatencies, type LatencySummary } from './api/load.ts';
import { startAppServer, type RunningServer } from './api/servers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const count = (value: number) => value.toLocaleString('en-GB');

function readOptions() {
  const { isQuick, db, number, engines } = benchArguments('both');
  const instances = number('BENCH_INSTANCES', 1);
  const redisUrl = process.env.BENCH_REDIS_URL || undefined;
  if (instances > 1 && (!redisUrl || db !== 'postgres')) {
    throw new Error('BENCH_INSTANCES > 1 needs --db postgres and BENCH_REDIS_URL (instances share both)');
  }
  return {
    isQuick,
    engines,
    postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    port: number('BENCH_PORT', 3411),
    instances,
    redisUrl,
    attackSeconds: number('BENCH_ATTACK_SECONDS', isQuick ? 5 : 30),
    signInLimit: number('BENCH_SIGN_IN_LIMIT', isQuick ? 100 : DEFAULT_THROTTLE_LIMITS.signInPerNetwork),
    classmates: isQuick ? 5 : 20,
    out: process.env.BENCH_OUT,
  };
}
type Options = ReturnType<typeof readOptions>;

/** A browser's cookies, as far as sign-in needs them. */
type Jar = Map<string, string>;

type Answer = { status: number; message: string; ms: number };

/** The school's address for this run: one of 198.18.0.0/15 (RFC 2544, for benchmarks). */
const SCHOOL = `198.${18 + Math.floor(Math.random() * 2)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** A POST from the school, on the next instance in turn. */
function postFrom(servers: RunningServer[]) {
  let turn = 0;
  return (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${servers[turn++ % servers.length]!.baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': SCHOOL, ...headers },
      body: JSON.stringify(body),
    });
}

/** One sign-in; `jar`'s cookies sent and kept, as a browser does. */
function signInWith(post: ReturnType<typeof postFrom>) {
  return async (rollNumber: string, password: string, jar?: Jar): Promise<Answer> => {
    const started = performance.now();
    const cookie: Record<string, string> = jar?.size
      ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') }
      : {};
    const response = await post('/api/student/login', { rollNumber, password }, cookie);
    const { message } = (await response.json()) as { message: string };
    for (const line of jar ? response.headers.getSetCookie() : []) {
      const pair = line.split(';')[0]!;
      jar!.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return { status: response.status, message, ms: performance.now() - started };
  };
}

/** Password checks one account can be made to run in `elapsedMs`: the free failures, then one as each lock ends. */
function accountBound(elapsedMs: number): number {
  const policy = DEFAULT_THROTTLE_LIMITS.accountLockout;
  let failures = policy.freeFailures;
  for (let at = lockDurationMs(failures, policy); at <= elapsedMs; at += lockDurationMs(failures, policy)) {
    failures += 1;
  }
  return failures;
}

/** The script: whom its n-th try names (the student every 5th, a classmate, or a likely username). */
function sprayTarget(n: number, student: string, classmates: string[]) {
  if (n % 5 === 0) return student;
  if (n % 5 === 1) return classmates[n % classmates.length]!;
  return `pupil-${n}`;
}

/** An answer as a line of the report: its status and words, the wait left out (it changes by the second). */
const sentence = (answer: Answer) => `${answer.status} ${answer.message.replace(/in \d+ (seconds?|minutes?)/, 'in …')}`;

/** Failing sign-ins of the burst, each from its own address; the budget on what else answers meanwhile. */
const BURST = { signIns: 150, probesPerSecond: 20, p99Ms: 200 };

/** The burst's sign-ins, sent together from a worker thread; answers the count of each status. */
const BURST_ATTACKERS = `
  const { parentPort, workerData } = require('node:worker_threads');
  const { baseUrl, signIns, third } = workerData;
  const statuses = {};
  Promise.allSettled(
    Array.from({ length: signIns }, async (_, index) => {
      const response = await fetch(baseUrl + '/api/student/login', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': '198.19.' + (third + (index >> 8)) + '.' + ((index % 254) + 1),
        },
        body: JSON.stringify({ rollNumber: 'burst-' + index, password: 'wrong-' + index }),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }),
  ).then(() => parentPort.postMessage(statuses));
`;

/**
 * BURST.signIns failing sign-ins sent at once, each from its own address of 198.18.0.0/15, while
 * GET `probes` are sent every 1/probesPerSecond s, open-loop, until the last sign-in is answered.
 */
async function signInBurst(baseUrl: string, probes: { name: string; path: string; token?: string }[]) {
  const third = Math.floor(Math.random() * 200);
  // The window on the machine's monotonic clock, as CPU profiles count (bench/api/profile-summary.ts).
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  const fromUs = monotonicUs();
  const started = performance.now();
  let isDone = false;
  const samples = new Map(probes.map((probe) => [probe.name, [] as number[]]));
  const probeErrors = new Map(probes.map((probe) => [probe.name, 0]));
  const inFlight: Promise<void>[] = [];
  // A few connections, as a load balancer's checks use: a stalled server shows as waiting, not as
  // thousands of new sockets the bench itself opened.
  const pool = new Pool(baseUrl, { connections: 8 });
  const probing = (async () => {
    for (let tick = 0; !isDone; tick += 1) {
      await sleep(started + (tick * 1000) / BURST.probesPerSecond - performance.now());
      for (const probe of probes) {
        const due = performance.now();
        inFlight.push(
          pool
            .request({
              method: 'GET',
              path: probe.path,
              headers: probe.token ? { authorization: `Bearer ${probe.token}` } : {},
            })
            .then(async (response) => {
              await response.body.dump();
              if (response.statusCode !== 200) probeErrors.set(probe.name, probeErrors.get(probe.name)! + 1);
            })
            .catch(() => {
              probeErrors.set(probe.name, probeErrors.get(probe.name)! + 1);
            })
            .finally(() => samples.get(probe.name)!.push(performance.now() - due)),
        );
      }
    }
  })();
  // The attackers run on a thread of their own: their 150 requests and answers must not delay
  // the probes' own timing here (a busy prober reads every answer late, the server's or not).
  const statuses = await new Promise<Record<string, number>>((resolve, reject) => {
    const attackers = new Worker(BURST_ATTACKERS, {
      eval: true,
      workerData: { baseUrl, signIns: BURST.signIns, third },
    });
    attackers.once('message', resolve);
    attackers.once('error', reject);
  }).finally(() => {
    isDone = true; // a refused burst still ends the probing, so the bench reports instead of probing forever
  });
  await probing;
  await Promise.all(inFlight);
  await pool.close();
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const window = { fromUs, toUs: monotonicUs() };
  const probed = Object.fromEntries(
    probes.map((probe) => [
      probe.name,
      { ...summariseLatencies(samples.get(probe.name)!), errors: probeErrors.get(probe.name)! },
    ]),
  ) as Record<string, LatencySummary & { errors: number }>;
  return { signIns: BURST.signIns, seconds, statuses, probed, window };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One engine's run; `log` is this engine's (its lines are prefixed when the engines run side by side). */
async function runEngine(engine: Engine, options: Options, log = (line: string) => console.log(line)) {
  log(`\n=== ${engine}${options.instances > 1 ? `, ${options.instances} instances on one Redis` : ''} ===`);
  const prepared = await prepareDatabase(engine, options.postgresAdminUrl);
  const servers: RunningServer[] = [];
  try {
    await (await prepared.open()).close(); // migrated once, before the instances start
    const jwtSecret = randomBytes(32).toString('hex');
    for (let index = 0; index < options.instances; index += 1) {
      servers.push(
        await startAppServer({
          port: options.port + index,
          database: prepared.database,
          redisUrl: options.redisUrl,
          jwtSecret,
          signInLimitPerIp: options.signInLimit,
          trustProxy: '127.0.0.1',
          // BENCH_CPU_PROF=1: a V8 profile of each server, written when it stops (bench/results/profiles).
          cpuProfileDir: process.env.BENCH_CPU_PROF ? path.join(root, 'bench/results/profiles') : undefined,
        }),
      );
    }
    const post = postFrom(servers);
    const signIn = signInWith(post);
    // The school's administrator makes the students' class; they register with its code (decision 031).
    const setUp = await post('/api/school/setup', buildSchoolSetup());
    const administrator = ((await setUp.json()) as { data: string }).data;
    const made = await post('/api/classes', { name: '10A' }, { authorization: `Bearer ${administrator}` });
    const classCode = ((await made.json()) as { data: { joinCode: string } }).data.joinCode;
    const register = async () => {
      const student = buildStudentRegistration({ classCode });
      const response = await post('/api/student/register', student);
      if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
      return student;
    };
    const [student, newcomer] = [await register(), await register()];
    const classmates: string[] = [];
    for (let index = 0; index < options.classmates; index += 1) classmates.push((await register()).rollNumber);

    // 0. The burst, health and a cheap read probed meanwhile.
    const burst = await signInBurst(servers[0]!.baseUrl, [
      { name: 'health', path: '/api/health' },
      { name: 'classes', path: '/api/classes', token: administrator },
    ]);
    log(
      `burst: ${burst.signIns} failing sign-ins at once from as many addresses, answered in ${burst.seconds} s ${JSON.stringify(burst.statuses)}; ` +
        Object.entries(burst.probed)
          .map(
            ([name, figures]) =>
              `${name} p50 ${figures.p50} p99 ${figures.p99} max ${figures.max} ms (n ${figures.n}, errors ${figures.errors})`,
          )
          .join('; ') +
        ` (window ${burst.window.fromUs} ${burst.window.toUs} µs)`,
    );

    // Yesterday, in class: the student signed in on her browser. (The network's budget refills
    // from its first use: the bounds below count from here.)
    const startedAt = performance.now();
    const studentsBrowser: Jar = new Map();
    const yesterday = await signIn(student.rollNumber, student.password, studentsBrowser);
    if (yesterday.status !== 200)
      throw new Error(`the student's first sign-in: ${yesterday.status} ${yesterday.message}`);

    const checks = new Map<string, number>(); // the script's password checks (a 401 is one), per account
    const refusals = new Map<string, number>();
    let tries = 0;
    const attack = async () => {
      const n = tries++;
      const answer = await signIn(sprayTarget(n, student.rollNumber, classmates), `wrong-${n}`);
      const target = sprayTarget(n, student.rollNumber, classmates).toLowerCase();
      const refusal = sentence(answer);
      if (answer.status === 401) checks.set(target, (checks.get(target) ?? 0) + 1);
      else refusals.set(refusal, (refusals.get(refusal) ?? 0) + 1);
      return answer;
    };
    const totalChecks = () => [...checks.values()].reduce((sum, value) => sum + value, 0);

    // 1. As fast as it can (4 at a time) until the network's budget refuses it.
    const drainStart = performance.now();
    let isDrained = false;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!isDrained) if ((await attack()).message.includes('from your network')) isDrained = true;
      }),
    );
    const drain = { tries, checks: totalChecks(), seconds: (performance.now() - drainStart) / 1000 };
    log(
      `script, as fast as it can: ${count(drain.checks)} password checks in ${drain.seconds.toFixed(1)} s (${count(drain.tries)} tries), until refused`,
    );

    // 2. Five tries a second for the attack's seconds; the two students sign in 10 times each, evenly.
    const windowMs = options.attackSeconds * 1000;
    const windowStart = performance.now();
    const triesBefore = tries;
    const checksBefore = totalChecks();
    const scriptTries: Promise<Answer>[] = [];
    const polling = (async () => {
      for (let tick = 0; tick < options.attackSeconds * 5; tick += 1) {
        await sleep(windowStart + tick * 200 - performance.now());
        scriptTries.push(attack()); // open loop: a slow answer does not slow the script
      }
    })();
    const person = (rollNumber: string, password: string, offset: number, jar?: Jar) =>
      (async () => {
        const answers: Answer[] = [];
        for (let round = 0; round < 10; round += 1) {
          await sleep(windowStart + ((round + offset) * windowMs) / 10 - performance.now());
          answers.push(await signIn(rollNumber, password, jar));
        }
        return answers;
      })();
    const [own, fresh] = await Promise.all([
      person(student.rollNumber, student.password, 0.5, studentsBrowser),
      person(newcomer.rollNumber, newcomer.password, 0.75),
      polling,
    ]);
    await Promise.all(scriptTries);
    const elapsedMs = performance.now() - startedAt;
    const window = { tries: tries - triesBefore, checks: totalChecks() - checksBefore };

    const accepted = (answers: Answer[]) => answers.filter((answer) => answer.status === 200);
    const refusedWith = (answers: Answer[]) =>
      [...new Set(answers.filter((answer) => answer.status !== 200).map(sentence))].join(' | ');
    const networkBound = Math.floor((options.signInLimit * (1 + elapsedMs / HOUR_MS)) / FAILURE_COST);
    const perAccountBound = accountBound(elapsedMs);
    const mostOnOneAccount = Math.max(0, ...checks.values());
    const figures = {
      engine,
      instances: options.instances,
      redis: options.redisUrl !== undefined,
      signInLimitPerIp: options.signInLimit,
      attackSeconds: options.attackSeconds,
      drain,
      window: { ...window, refusals: Object.fromEntries(refusals) },
      knownDevice: {
        accepted: accepted(own).length,
        of: own.length,
        medianMs: Math.round(median(own.map((a) => a.ms))),
      },
      newDevice: { accepted: accepted(fresh).length, of: fresh.length, refusedWith: refusedWith(fresh) },
      script: {
        checks: totalChecks(),
        networkBound,
        mostOnOneAccount,
        onTheStudentsAccount: checks.get(student.rollNumber.toLowerCase()) ?? 0,
        perAccountBound,
        accountsChecked: checks.size,
      },
      seconds: Math.round(elapsedMs / 100) / 10,
      burst,
    };
    log(
      `then ${options.attackSeconds} s at 5 tries a second: ${count(window.tries)} tries, ${count(window.checks)} password checks`,
    );
    log(
      `the student, on the browser she used before: ${figures.knownDevice.accepted} of 10 let in (median ${figures.knownDevice.medianMs} ms)${accepted(own).length < 10 ? `; refused: ${refusedWith(own)}` : ''}`,
    );
    log(
      `a student on browsers the account never saw: ${figures.newDevice.accepted} of 10 let in${figures.newDevice.refusedWith ? `; refused: ${figures.newDevice.refusedWith}` : ''}`,
    );
    log(
      `the script's password checks: ${count(figures.script.checks)} in all over ${figures.script.accountsChecked} accounts (the network's budget allows ${count(networkBound)} in ${figures.seconds} s), at most ${mostOnOneAccount} on one account (the lock-out allows ${perAccountBound}), ${figures.script.onTheStudentsAccount} on the student's`,
    );
    const budgets = [
      { budget: 'the student on her own browser: ≥ 9 of 10 let in', isMet: figures.knownDevice.accepted >= 9 },
      { budget: "the script's checks ≤ the network's budget", isMet: figures.script.checks <= networkBound },
      { budget: "the script's checks on one account ≤ its lock-out's", isMet: mostOnOneAccount <= perAccountBound },
      ...Object.entries(burst.probed).map(([name, figures]) => ({
        budget: `${name} during the burst: p99 < ${BURST.p99Ms} ms, no errors${options.isQuick ? ' (not binding in quick mode)' : ''}`,
        isMet: figures.errors === 0 && (options.isQuick || figures.p99 < BURST.p99Ms),
      })),
    ];
    return { ...figures, budgets };
  } finally {
    for (const server of servers) await server.stop();
    await prepared.drop();
  }
}

async function main() {
  const options = readOptions();
  const machine = {
    cpus: os.cpus().length,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
  log(
    `Sign-in under attack (${options.isQuick ? 'quick' : 'full'}): from ${SCHOOL}, SIGN_IN_LIMIT_PER_IP=${options.signInLimit}, ${options.attackSeconds} s of attack, ${machine.cpus} cores, load ${machine.loadAverageAtStart.join(' ')}`,
  );
  // The CI smoke runs the engines side by side, each on ports (and a database) of its own.
  const engines = options.isQuick
    ? await sideBySide(options.engines, (engine, index, engineLog) =>
        runEngine(engine, { ...options, port: options.port + options.instances * index }, engineLog),
      )
    : [];
  if (!options.isQuick) for (const engine of options.engines) engines.push(await runEngine(engine, options));
  const report = { kind: 'studyhall-sign-in-attack', date: new Date().toISOString(), machine, engines };
  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file =
    options.out ??
    path.join(
      resultsDir,
      `sign-in-${options.isQuick ? 'quick' : 'full'}-${report.date.replaceAll(':', '-').slice(0, 19)}.json`,
    );
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nResults: ${path.relative(root, file)}`);
  const missed = engines.flatMap((engine) =>
    engine.budgets.filter((check) => !check.isMet).map((check) => `${engine.engine}: ${check.budget}`),
  );
  for (const miss of missed) log(`MISSED ${miss}`);
  if (missed.length > 0) process.exitCode = 1;
  else log('Every budget met.');
}

await main();
