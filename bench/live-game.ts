// The live game under a hall's load (issue 34's benchmark, decisions 065 and 066): the server as
// `npm start` runs it, and players that are WebSocket clients (not browsers) in this process, so
// every time is one clock's (performance.now()). A teacher, classes of students written straight
// to the database, a quiz of single-choice questions, games made through the REST API, room
// tokens minted with the servers' secret (the host's through POST /api/live-games/:id/token).
//
//   A  one game of 300 players
//   B  20 games of 30 players at once
//   C  A again through two instances on one PostgreSQL database and Redis: the host on the
//      first, the players alternating between them (with BENCH_REDIS_URL or REDIS_URL only)
//
// Per question: the host's `start`/`next` → every player's `question-opened`; each player answers
// (a random option, right or wrong) at a random moment within 2 s of receiving it → its
// `answer-accepted`; once all are acknowledged the host's `skip` → the host's `question-closed`
// (the distribution). Budgets (issue 34), p99 each: question to every player < 250 ms, answer
// acknowledged < 100 ms, distribution on the host's screen < 500 ms. Also: the server's memory
// per connected player (RSS and heap after a full collection, before and after the players join).
//
//   npm run bench:live                          PGlite (PostgreSQL when BENCH_POSTGRES_URL is set)
//   npm run bench:live -- --db postgres         or pglite, or both (BENCH_DB)
//   BENCH_REDIS_URL=redis://127.0.0.1:6379 npm run bench:live     with scenario C
//   BENCH_QUICK=1 npm run bench:live            CI smoke: 60 players, 4 games of 15, 2 questions
//
// Environment: BENCH_POSTGRES_URL (an admin connection; a database is created and dropped;
// scenario C's database too, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PORT
// (first of three ports, default 3741), BENCH_PLAYERS (300; quick 60), BENCH_GAMES (20; quick 4),
// BENCH_GAME_PLAYERS (30; quick 15), BENCH_QUESTIONS (5; quick 2), BENCH_ONLY (A,B,C),
// BENCH_CPU_PROF=1 (a V8 profile of each server in bench/results/profiles), BENCH_OUT (the JSON file).
//
// Exits 1 when a player misses a message, a message is refused, a socket closes, or (full mode)
// a p99 misses its budget.
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import {
  LIVE_GAME_PROTOCOL_VERSION,
  LIVE_GAME_SOCKET_PATH,
  type LiveGameSummary,
  type LiveServerMessage,
  type LiveTicket,
} from '#shared/live-games';
import type { TypedQuestionInput } from '#shared/question-types';
import { LIVE_GAME_CLOSE_CODES } from '#shared/live-game-basics';
import { QUIZ_BACKGROUNDS } from '#shared/quizzes';
import { studentIdentityColumns } from '#server/db/identity-keys';
import { classStudents, students } from '#server/db/schema';
import { createLiveTokens } from '#server/features/live-games/live-tokens';
import { buildNewQuiz, buildSchoolSetup } from '#server/testing/factories';
import { toBuffer } from '#server/realtime/room-socket';
import { cpuMeter, processCpuMs } from './api/cpu.ts';
import { prepareDatabase, type Engine } from './api/databases.ts';
import { summariseLatencies, type LatencySummary } from './api/load.ts';
import { postJson, type RunningServer, type ServerDatabase } from './api/servers.ts';
import {
  finishRun,
  loadAverage,
  log,
  MB,
  memoryOf,
  readCommonOptions,
  resultsDir,
  sleep,
  startProbedServer,
  type MemoryReading,
} from './api/realtime-bench.ts';

/** Issue 34's budgets, p99 each. */
const BUDGETS_MS = { opened: 250, answer: 100, closed: 500 } as const;
/** Every player answers within this long of receiving the question. */
const ANSWER_WINDOW_MS = 2_000;
/** How long any awaited message may take before the player counts as having missed it. */
const MESSAGE_TIMEOUT_MS = 30_000;
/** Players connecting at once (each: upgrade, token, seat, join transaction, welcome). */
const CONNECT_CONCURRENCY = 25;

function readOptions() {
  const { isQuick, engines, postgresAdminUrl, redisUrl, scenarios, out, number } = readCommonOptions('A,B,C');
  return {
    isQuick,
    engines,
    postgresAdminUrl,
    redisUrl,
    port: number('BENCH_PORT', 3741),
    players: number('BENCH_PLAYERS', isQuick ? 60 : 300),
    games: number('BENCH_GAMES', isQuick ? 4 : 20),
    gamePlayers: number('BENCH_GAME_PLAYERS', isQuick ? 15 : 30),
    questions: number('BENCH_QUESTIONS', isQuick ? 2 : 5),
    scenarios,
    cpuProfileDir: process.env.BENCH_CPU_PROF ? path.join(resultsDir, 'profiles') : undefined,
    out,
  };
}
type Options = ReturnType<typeof readOptions>;

// ---- the quiz ------------------------------------------------------------------------------

/** Single-choice questions of four options; the players pick one at random, right or wrong. */
function benchQuestions(count: number): TypedQuestionInput[] {
  return Array.from({ length: count }, (_, index) => ({
    type: 'single' as const,
    question_text: `What is ${index + 2} × 3?`,
    points: 1,
    options: [0, 1, 2, 3].map((offset) => ({ text: String((index + 2) * 3 + offset), correct: offset === 0 })),
  }));
}

// ---- a socket of the game ------------------------------------------------------------------

type Typed<Type extends LiveServerMessage['type']> = Extract<LiveServerMessage, { type: Type }>;
type Arrival<Message> = { message: Message; at: number };
type Waiter = { accepts(message: LiveServerMessage): boolean; settle(arrival: Arrival<LiveServerMessage>): void };

/**
 * One person on the game's socket. Waits are registered before what triggers them is sent, and a
 * message is timed in the socket's own event (performance.now()), not when a waiting promise resumes.
 */
class LiveBenchSocket {
  private waiters: Waiter[] = [];
  readonly problems: string[] = [];
  isClosing = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const at = performance.now();
      const message = JSON.parse(toBuffer(data).toString('utf8')) as LiveServerMessage;
      if (message.type === 'error') this.problems.push(`refused: ${message.code}`);
      const waiter = this.waiters.find((candidate) => candidate.accepts(message));
      if (!waiter) return;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.settle({ message, at });
    });
    socket.on('close', (code, reason) => {
      // The server closes every socket of a game once it has ended (decision 066's addendum).
      if (!this.isClosing && code !== LIVE_GAME_CLOSE_CODES.GAME_ENDED)
        this.problems.push(`closed ${code} ${String(reason)}`);
    });
    socket.on('error', (error) => this.problems.push(`socket error: ${error.message}`));
  }

  static open(baseUrl: string, token: string): Promise<LiveBenchSocket> {
    const socket = new WebSocket(
      `${baseUrl.replace(/^http/, 'ws')}${LIVE_GAME_SOCKET_PATH}?token=${encodeURIComponent(token)}`,
    );
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new LiveBenchSocket(socket)));
      socket.once('error', reject);
    });
  }

  /** The next message of this type (and matching `where`) from now on, with its arrival time. */
  next<Type extends LiveServerMessage['type']>(
    type: Type,
    where: (message: Typed<Type>) => boolean = () => true,
    timeoutMs = MESSAGE_TIMEOUT_MS,
  ): Promise<Arrival<Typed<Type>>> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        accepts: (message) => message.type === type && where(message as Typed<Type>),
        settle: (arrival) => {
          clearTimeout(timer);
          resolve(arrival as Arrival<Typed<Type>>);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  send(message: object): number {
    const at = performance.now();
    this.socket.send(JSON.stringify(message));
    return at;
  }

  /** Says join; resolves once welcomed. */
  async join(welcome: 'host-welcome' | 'player-welcome') {
    const welcomed = this.next(welcome);
    this.send({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION });
    return (await welcomed).message;
  }

  close() {
    this.isClosing = true;
    this.socket.close();
  }
}

async function startServer(
  options: Options,
  port: number,
  database: ServerDatabase,
  jwtSecret: string,
  redisUrl?: string,
) {
  return startProbedServer({ port, database, jwtSecret, redisUrl, cpuProfileDir: options.cpuProfileDir });
}

// ---- the school ----------------------------------------------------------------------------

type Student = { id: string; name: string };
type BenchClass = { id: string; quizId: string; students: Student[] };
type School = { teacherToken: string; classes: BenchClass[] };

/** The teacher, classes and quizzes through the API (a class per game, as a quiz belongs to one). */
async function setUpSchool(baseUrl: string, classSizes: number[], questions: number) {
  const teacherToken = (await postJson(baseUrl, '/api/school/setup', buildSchoolSetup())) as string;
  const classes: Omit<BenchClass, 'students'>[] = [];
  for (const [index] of classSizes.entries()) {
    const made = (await postJson(baseUrl, '/api/classes', { name: `Live ${index + 1}` }, teacherToken)) as {
      _id: string;
    };
    const quiz = (await postJson(
      baseUrl,
      '/api/teacher/add-quiz',
      buildNewQuiz({
        classId: made._id,
        quiz: { background: QUIZ_BACKGROUNDS[1]!, questions: benchQuestions(questions) },
      }),
      teacherToken,
    )) as { _id: string };
    classes.push({ id: made._id, quizId: quiz._id });
  }
  return { teacherToken, classes };
}

/** The classes' students, straight into the database: they never sign in, the game knows them by id. */
async function addStudents(
  database: Awaited<ReturnType<typeof prepareDatabase>>,
  classes: Omit<BenchClass, 'students'>[],
  classSizes: number[],
): Promise<BenchClass[]> {
  const handle = await database.open();
  try {
    const filled: BenchClass[] = [];
    for (const [index, klass] of classes.entries()) {
      const rows = Array.from({ length: classSizes[index]! }, (_, number) => {
        const tag = randomUUID().slice(0, 12);
        return {
          name: `Player ${index + 1}.${number + 1}`,
          ...studentIdentityColumns({ rollNumber: `live-${tag}`, email: `live-${tag}@bench.example` }),
          parentName: 'A parent',
          parentEmail: `parent-${tag}@bench.example`,
          passwordHash: 'not a password hash: these students never sign in',
        };
      });
      const inserted = await handle.db
        .insert(students)
        .values(rows)
        .returning({ id: students.id, name: students.name });
      await handle.db.insert(classStudents).values(inserted.map((row) => ({ classId: klass.id, studentId: row.id })));
      filled.push({ ...klass, students: inserted });
    }
    return filled;
  } finally {
    await handle.close();
  }
}

// ---- one game ------------------------------------------------------------------------------

type Samples = {
  /** Host's start/next sent → a player's question-opened, per player and question. */
  opened: number[];
  /** A player's answer sent → its answer-accepted. */
  answer: number[];
  /** Host's skip sent → the host's question-closed (the distribution). */
  closed: number[];
  /** Host's skip sent → a player's your-result (not budgeted). */
  result: number[];
  /** Socket open → player-welcome (not budgeted). */
  join: number[];
  problems: string[];
};
const emptySamples = (): Samples => ({ opened: [], answer: [], closed: [], result: [], join: [], problems: [] });

type Seated = { socket: LiveBenchSocket; student: Student };
type RunningGame = { game: LiveGameSummary; host: LiveBenchSocket; players: Seated[] };

const liveTokensFor = (jwtSecret: string) => createLiveTokens(jwtSecret);

/** A game of the class, its host seated on `hostUrl`. */
async function openGame(baseUrl: string, hostUrl: string, school: School, klass: BenchClass) {
  const game = (await postJson(
    baseUrl,
    '/api/live-games',
    { quizId: klass.quizId, classId: klass.id, questionSeconds: 20 },
    school.teacherToken,
  )) as LiveGameSummary;
  const ticket = (await postJson(baseUrl, `/api/live-games/${game._id}/token`, {}, school.teacherToken)) as LiveTicket;
  const host = await LiveBenchSocket.open(hostUrl, ticket.token);
  await host.join('host-welcome');
  return { game, host };
}

/** Every player of every game onto the socket (on the given servers in turn), CONNECT_CONCURRENCY at a time. */
async function seatPlayers(
  entries: { game: LiveGameSummary; student: Student; baseUrl: string }[],
  tokens: ReturnType<typeof liveTokensFor>,
  samples: Samples,
): Promise<Seated[][]> {
  const seated = new Map<string, Seated[]>();
  let next = 0;
  async function worker() {
    while (next < entries.length) {
      const { game, student, baseUrl } = entries[next++]!;
      const { token } = await tokens.issue({
        sub: student.id,
        role: 'student',
        name: student.name,
        room: game._id,
        sv: 0,
        host: false,
      });
      const began = performance.now();
      const socket = await LiveBenchSocket.open(baseUrl, token);
      await socket.join('player-welcome');
      samples.join.push(performance.now() - began);
      seated.set(game._id, [...(seated.get(game._id) ?? []), { socket, student }]);
    }
  }
  await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker));
  return [...new Set(entries.map((entry) => entry.game._id))].map((id) => seated.get(id) ?? []);
}

/** The game played to its end: each question opened, answered by all within 2 s, skipped, results out. */
async function playGame({ host, players }: RunningGame, questions: number, samples: Samples) {
  const noteFailure = (who: string) => (error: unknown) => {
    samples.problems.push(`${who}: ${error instanceof Error ? error.message : String(error)}`);
  };
  for (let index = 0; index < questions; index += 1) {
    let sentAt = 0;
    const hostOpened = host.next('question-opened', (message) => message.index === index);
    const answering = players.map(async ({ socket }) => {
      const { message, at } = await socket.next('question-opened', (opened) => opened.index === index);
      samples.opened.push(at - sentAt);
      await sleep(Math.random() * ANSWER_WINDOW_MS);
      const options = message.question.options ?? [];
      const choice = options[Math.floor(Math.random() * options.length)]!;
      const accepted = socket.next('answer-accepted', (ack) => ack.questionId === message.question._id);
      const answeredAt = socket.send({ type: 'answer', questionId: message.question._id, value: choice._id });
      samples.answer.push((await accepted).at - answeredAt);
    });
    sentAt = host.send(index === 0 ? { type: 'start' } : { type: 'next', from: index - 1 });
    await hostOpened;
    const answered = await Promise.allSettled(answering);
    answered.forEach((outcome, number) => {
      if (outcome.status === 'rejected')
        noteFailure(`${players[number]!.student.name}, question ${index + 1}`)(outcome.reason);
    });

    const hostClosed = host.next('question-closed', (message) => message.index === index);
    const results = players.map(({ socket }) => socket.next('your-result', (result) => result.index === index));
    const skippedAt = host.send({ type: 'skip', index });
    try {
      const closed = await hostClosed;
      samples.closed.push(closed.at - skippedAt);
      const counted = closed.message.distribution.answered;
      if (counted !== players.length - answered.filter((outcome) => outcome.status === 'rejected').length)
        samples.problems.push(`question ${index + 1}: ${counted} answers counted of ${players.length}`);
    } catch (error) {
      noteFailure(`host, question ${index + 1}`)(error);
    }
    for (const outcome of await Promise.allSettled(results)) {
      if (outcome.status === 'fulfilled') samples.result.push(outcome.value.at - skippedAt);
      else noteFailure(`your-result of question ${index + 1}`)(outcome.reason);
    }
  }
  const ended = host.next('ended');
  host.send({ type: 'next', from: questions - 1 });
  await ended.catch(noteFailure('host, the end'));
}

// ---- scenarios -----------------------------------------------------------------------------

type ScenarioResult = {
  id: string;
  title: string;
  games: number;
  playersPerGame: number;
  questions: number;
  instances: number;
  loadAverage: { before: number[]; after: number[] };
  opened: LatencySummary;
  answer: LatencySummary;
  closed: LatencySummary;
  result: LatencySummary;
  join: LatencySummary;
  memory: {
    before: MemoryReading;
    after: MemoryReading;
    rssPerPlayerKB: number;
    heapPerPlayerKB: number;
  };
  /** CPU time over the game's play (after everyone joined), per answer: server(s) and this process. */
  cpu: { serverMs: number; benchMs: number; serverMsPerAnswer: number; databaseMsPerAnswer?: number | undefined };
  /** This process's event-loop delay while playing: its own lateness inflates every figure. */
  benchLoopDelayP99Ms: number;
  /** The play's window on the machine's monotonic clock, for bench/api/profile-summary.ts. */
  window: { fromUs: number; toUs: number };
  problems: string[];
};

async function runScenario(options: {
  id: string;
  title: string;
  school: School;
  classes: BenchClass[];
  questions: number;
  servers: RunningServer[];
  jwtSecret: string;
  /** The PostgreSQL database the servers use: its backends' CPU is measured too. */
  databaseUrl?: string | undefined;
}): Promise<ScenarioResult> {
  const { servers, school } = options;
  const samples = emptySamples();
  const before = loadAverage();
  log(`\n== ${options.id}: ${options.title} (load ${before.join(' ')})`);
  const restUrl = servers[0]!.baseUrl;
  const games: { game: LiveGameSummary; host: LiveBenchSocket }[] = [];
  for (const klass of options.classes) games.push(await openGame(restUrl, restUrl, school, klass));
  const memoryBefore = await memoryOf(servers);
  let turn = 0;
  const entries = games.flatMap(({ game }, index) =>
    options.classes[index]!.students.map((student) => ({
      game,
      student,
      baseUrl: servers[turn++ % servers.length]!.baseUrl,
    })),
  );
  const began = performance.now();
  const seated = await seatPlayers(entries, liveTokensFor(options.jwtSecret), samples);
  const players = entries.length;
  log(`${players} players joined in ${Math.round(performance.now() - began)} ms`);
  const memoryAfter = await memoryOf(servers);

  const cpuBefore = servers.map((server) => processCpuMs(server.pid) ?? 0);
  const benchCpuBefore = process.cpuUsage();
  const databaseCpu = options.databaseUrl ? cpuMeter(servers[0]!.pid, options.databaseUrl) : undefined;
  await databaseCpu?.start();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const running: RunningGame[] = games.map((game, index) => ({ ...game, players: seated[index]! }));
  await Promise.all(running.map((game) => playGame(game, options.questions, samples)));
  loopDelay.disable();
  const toUs = Number(process.hrtime.bigint() / 1000n);
  const serverMs = servers.reduce(
    (total, server, index) => total + (processCpuMs(server.pid) ?? 0) - cpuBefore[index]!,
    0,
  );
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const answers = Math.max(1, samples.answer.length);
  const databaseMsPerAnswer = (await databaseCpu?.stop(answers))?.databaseMsPerRequest;
  for (const game of running) {
    for (const socket of [game.host, ...game.players.map((player) => player.socket)]) {
      samples.problems.push(...socket.problems);
      socket.close();
    }
  }
  await sleep(500);

  const result: ScenarioResult = {
    id: options.id,
    title: options.title,
    games: games.length,
    playersPerGame: Math.round(players / games.length),
    questions: options.questions,
    instances: servers.length,
    loadAverage: { before, after: loadAverage() },
    opened: summariseLatencies(samples.opened),
    answer: summariseLatencies(samples.answer),
    closed: summariseLatencies(samples.closed),
    result: summariseLatencies(samples.result),
    join: summariseLatencies(samples.join),
    memory: {
      before: memoryBefore,
      after: memoryAfter,
      rssPerPlayerKB: Math.round((memoryAfter.rss - memoryBefore.rss) / players / 102.4) / 10,
      heapPerPlayerKB: Math.round((memoryAfter.heapUsed - memoryBefore.heapUsed) / players / 102.4) / 10,
    },
    cpu: {
      serverMs: Math.round(serverMs),
      benchMs: Math.round((benchCpu.user + benchCpu.system) / 1000),
      serverMsPerAnswer: Math.round((serverMs / answers) * 100) / 100,
      databaseMsPerAnswer,
    },
    benchLoopDelayP99Ms: Math.round(loopDelay.percentile(99) / 1e4) / 100,
    window: { fromUs, toUs },
    problems: samples.problems,
  };
  printScenario(result);
  return result;
}

const figures = (summary: LatencySummary) =>
  `p50 ${summary.p50} / p95 ${summary.p95} / p99 ${summary.p99} / max ${summary.max} ms (n ${summary.n})`;

function printScenario(result: ScenarioResult) {
  log(`question to every player (budget p99 < ${BUDGETS_MS.opened} ms): ${figures(result.opened)}`);
  log(`answer acknowledged     (budget p99 < ${BUDGETS_MS.answer} ms): ${figures(result.answer)}`);
  log(`distribution to host    (budget p99 < ${BUDGETS_MS.closed} ms): ${figures(result.closed)}`);
  log(`skip → each player's result: ${figures(result.result)}; join: ${figures(result.join)}`);
  const { memory: used } = result;
  log(
    `server memory: RSS ${Math.round(used.before.rss / MB)} → ${Math.round(used.after.rss / MB)} MB, heap ${Math.round(used.before.heapUsed / MB)} → ${Math.round(used.after.heapUsed / MB)} MB: ` +
      `${used.rssPerPlayerKB} kB RSS and ${used.heapPerPlayerKB} kB heap per player`,
  );
  log(
    `CPU while playing: server ${result.cpu.serverMs} ms (${result.cpu.serverMsPerAnswer} ms per answer` +
      `${result.cpu.databaseMsPerAnswer === undefined ? '' : `, PostgreSQL ${result.cpu.databaseMsPerAnswer} ms per answer`}), bench ${result.cpu.benchMs} ms; bench event-loop delay p99 ${result.benchLoopDelayP99Ms} ms; load ${result.loadAverage.after.join(' ')}`,
  );
  for (const problem of result.problems.slice(0, 10)) log(`  problem: ${problem}`);
  if (result.problems.length > 10) log(`  … ${result.problems.length - 10} more problems`);
}

// ---- a run on one database -------------------------------------------------------------------

/** Scenarios A and B on one server of `engine`. */
async function runOneInstance(engine: Engine, options: Options) {
  const sizes = [
    ...(options.scenarios.has('A') ? [options.players] : []),
    ...(options.scenarios.has('B') ? Array.from({ length: options.games }, () => options.gamePlayers) : []),
  ];
  if (sizes.length === 0) return [];
  const database = await prepareDatabase(engine, options.postgresAdminUrl);
  const jwtSecret = randomBytes(32).toString('hex');
  let server = await startServer(options, options.port, database.database, jwtSecret);
  try {
    const { teacherToken, classes } = await setUpSchool(server.baseUrl, sizes, options.questions);
    // PGlite is one process's: the server lets go of it while the students are written.
    if (engine === 'pglite') await server.stop();
    const filled = await addStudents(database, classes, sizes);
    if (engine === 'pglite') server = await startServer(options, options.port, database.database, jwtSecret);
    const school: School = { teacherToken, classes: filled };
    const results: ScenarioResult[] = [];
    const databaseUrl = database.database.kind === 'postgres' ? database.database.url : undefined;
    const common = { school, questions: options.questions, servers: [server], jwtSecret, databaseUrl };
    if (options.scenarios.has('A'))
      results.push(
        await runScenario({
          ...common,
          id: `A-${engine}`,
          title: `one game of ${options.players} players, ${engine}`,
          classes: filled.slice(0, 1),
        }),
      );
    if (options.scenarios.has('B'))
      results.push(
        await runScenario({
          ...common,
          id: `B-${engine}`,
          title: `${options.games} games of ${options.gamePlayers} players at once, ${engine}`,
          classes: filled.slice(options.scenarios.has('A') ? 1 : 0),
        }),
      );
    return results;
  } finally {
    await server.stop();
    await database.drop();
  }
}

/** Scenario C: two instances on one PostgreSQL database and Redis. */
async function runTwoInstances(options: Options): Promise<ScenarioResult | { id: string; skipped: string }> {
  if (!options.redisUrl)
    return { id: 'C', skipped: 'no BENCH_REDIS_URL or REDIS_URL: two instances need Redis (and PostgreSQL)' };
  const database = await prepareDatabase('postgres', options.postgresAdminUrl);
  const jwtSecret = randomBytes(32).toString('hex');
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer(options, options.port + 1, database.database, jwtSecret, options.redisUrl));
    const { teacherToken, classes } = await setUpSchool(servers[0]!.baseUrl, [options.players], options.questions);
    const filled = await addStudents(database, classes, [options.players]);
    servers.push(await startServer(options, options.port + 2, database.database, jwtSecret, options.redisUrl));
    return await runScenario({
      id: 'C-postgres-redis',
      title: `one game of ${options.players} players through two instances, PostgreSQL and Redis`,
      school: { teacherToken, classes: filled },
      classes: filled,
      questions: options.questions,
      servers,
      jwtSecret,
      databaseUrl: database.database.kind === 'postgres' ? database.database.url : undefined,
    });
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}

function budgetMisses(result: ScenarioResult): string[] {
  const misses: string[] = [];
  const check = (name: keyof typeof BUDGETS_MS, summary: LatencySummary) => {
    if (summary.p99 >= BUDGETS_MS[name])
      misses.push(`${result.id}: ${name} p99 ${summary.p99} ms (budget < ${BUDGETS_MS[name]} ms)`);
  };
  check('opened', result.opened);
  check('answer', result.answer);
  check('closed', result.closed);
  return misses;
}

async function main() {
  const options = readOptions();
  log(
    `live game bench (${options.isQuick ? 'quick' : 'full'}): load average ${loadAverage().join(' ')} on ${os.cpus().length} cores`,
  );
  const results: (ScenarioResult | { id: string; skipped: string })[] = [];
  for (const engine of options.engines) results.push(...(await runOneInstance(engine, options)));
  if (options.scenarios.has('C')) {
    const twoInstances = await runTwoInstances(options);
    if ('skipped' in twoInstances) log(`\n== C skipped: ${twoInstances.skipped}`);
    results.push(twoInstances);
  }

  const failures: string[] = [];
  for (const result of results) {
    if ('skipped' in result) continue;
    if (result.problems.length > 0)
      failures.push(`${result.id}: ${result.problems.length} problems (first: ${result.problems[0]})`);
    if (!options.isQuick) failures.push(...budgetMisses(result));
  }
  finishRun('live', options, BUDGETS_MS, results, failures);
}

await main();
