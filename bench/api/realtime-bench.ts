// What the realtime benchmarks (bench/live-game.ts, bench/class-board.ts) share: where the figures
// go, the load average, the memory probe's line, and the options every one of them reads (quick
// mode, the database engines, PostgreSQL and Redis, the scenarios to run, the JSON file).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from './databases.ts';

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
  const argv = process.argv.slice(2);
  const flag = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
  const isQuick = argv.includes('--quick') || ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
  const db = flag('db') ?? process.env.BENCH_DB ?? (process.env.BENCH_POSTGRES_URL ? 'postgres' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(db))
    throw new Error(`--db must be pglite, postgres or both (got ${db})`);
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name] || fallback);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
    return value;
  };
  const only = (process.env.BENCH_ONLY ?? defaultScenarios).split(',').map((id) => id.trim().toUpperCase());
  return {
    isQuick,
    number,
    engines: (db === 'both' ? ['pglite', 'postgres'] : [db]) as Engine[],
    postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL || process.env.REDIS_URL || undefined,
    scenarios: new Set(only),
    out: flag('out') ?? process.env.BENCH_OUT,
  };
}
