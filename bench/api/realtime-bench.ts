// What the realtime benchmarks (bench/live-game.ts, bench/class-board.ts) share: where the figures
// go, the load average, the memory probe's line, and the options every one of them reads (quick
// mode, the database engines, PostgreSQL and Redis, the scenarios to run, the JSON file).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArguments } from './options.ts';

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
