// What the realtime benchmarks (bench/live-game.ts, bench/class-board.ts) share: where the figures
// go and how they are written, the load average, the server under the memory probe and its
// readings, and the options every one of them reads (quick mode, the database engines, PostgreSQL
// and Redis, the scenarios to run, the JSON file).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeVersion } from '../code-version.ts';
import { benchArguments } from './options.ts';
import { startAppServer, type RunningServer } from './servers.ts';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const resultsDir = path.join(root, 'bench/results');
export const log = (line: string) => console.log(line);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
export const loadAverage = () => os.loadavg().map((value) => Math.round(value * 100) / 100);
export const MB = 1024 * 1024;
/** The line bench/live-memory-probe.mjs prints its reading on (plain JavaScript there: it loads before tsx). */
export const MEMORY_LINE_PREFIX = 'live-bench-memory ';

/**
 * The options every realtime benchmark reads: `--quick` or BENCH_QUICK, `--db` or BENCH_DB,
 * BENCH_POSTGRES_URL, BENCH_REDIS_URL (or REDIS_URL), BENCH_ONLY (else `defaultScenarios`) and
 * `--out` or BENCH_OUT; `number` reads a positive whole number from the environment.
 */
export function readCommonOptions(defaultScenarios: string) {
  const { flag, isQuick, number, engines } = benchArguments(process.env.BENCH_POSTGRES_URL ? 'postgres' : 'pglite');
  const only = (process.env.BENCH_ONLY ?? defaultScenarios).split(',').map((id) => id.trim().toUpperCase());
  return {
    isQuick,
    number,
    engines,
    postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL || process.env.REDIS_URL || undefined,
    scenarios: new Set(only),
    out: flag('out') ?? process.env.BENCH_OUT,
  };
}

// ---- the server's memory (bench/live-memory-probe.mjs) ---------------------------------------

export type MemoryReading = {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
};

/** The probe's answers awaited, per server process. */
const pendingReadings = new Map<number, (reading: MemoryReading) => void>();

/**
 * The app as `npm start` runs it (startAppServer) with the memory probe loaded: its stdout comes
 * through here, the probe's lines answering memoryOf() and every other line printed as it comes.
 */
export async function startProbedServer(
  settings: Omit<Parameters<typeof startAppServer>[0], 'nodeFlags' | 'onStdoutLine'>,
): Promise<RunningServer> {
  let pid = 0;
  const server = await startAppServer({
    ...settings,
    nodeFlags: ['--expose-gc', '--import', path.join(root, 'bench/live-memory-probe.mjs')],
    onStdoutLine: (line) => {
      if (!line.startsWith(MEMORY_LINE_PREFIX)) return log(line);
      pendingReadings.get(pid)?.(JSON.parse(line.slice(MEMORY_LINE_PREFIX.length)) as MemoryReading);
      pendingReadings.delete(pid);
    },
  });
  pid = server.pid;
  return server;
}

/** One server's memory after a full collection (it must have been started by startProbedServer). */
function readMemory(pid: number): Promise<MemoryReading> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no memory reading from ${pid}`)), 10_000);
    pendingReadings.set(pid, (reading) => {
      clearTimeout(timer);
      resolve(reading);
    });
    process.kill(pid, 'SIGUSR2');
  });
}

/** The servers' memory after a full collection, summed. */
export async function memoryOf(servers: RunningServer[]): Promise<MemoryReading> {
  const readings = await Promise.all(servers.map((server) => readMemory(server.pid)));
  const sum = (key: keyof MemoryReading) => readings.reduce((total, reading) => total + reading[key], 0);
  return {
    rss: sum('rss'),
    heapUsed: sum('heapUsed'),
    heapTotal: sum('heapTotal'),
    external: sum('external'),
    arrayBuffers: sum('arrayBuffers'),
  };
}

// ---- the figures -----------------------------------------------------------------------------

/**
 * Writes the run's figures as JSON (the options without the database and Redis addresses), to
 * `options.out` or bench/results/<name>-quick|full-<date>.json; prints where, then exits: 1 with
 * each failure printed, else 0.
 */
export function finishRun(
  name: string,
  options: { isQuick: boolean; out: string | undefined; scenarios: Set<string> },
  budgetsMs: Record<string, number>,
  results: unknown[],
  failures: string[],
): never {
  const out =
    options.out ??
    path.join(
      resultsDir,
      `${name}-${options.isQuick ? 'quick' : 'full'}-${new Date().toISOString().slice(0, 10)}.json`,
    );
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        version: codeVersion(),
        cores: os.cpus().length,
        options: { ...options, scenarios: [...options.scenarios], postgresAdminUrl: undefined, redisUrl: undefined },
        budgetsMs,
        results,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nfigures: ${path.relative(root, out)}`);
  if (failures.length > 0) {
    for (const failure of failures) log(`FAILED: ${failure}`);
    process.exit(1);
  }
  log(options.isQuick ? 'quick run: no budgets, no problems' : 'budgets met');
  process.exit(0);
}
