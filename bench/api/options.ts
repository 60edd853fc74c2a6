import type { Engine } from './databases.ts';

/**
 * What every benchmark reads from its command line and environment: `--name value` flags,
 * `--quick` or BENCH_QUICK, the database engines from `--db` or BENCH_DB (`defaultDb` else), and
 * `number`, a positive whole number from the environment.
 */
export function benchArguments(defaultDb: string) {
  const argv = process.argv.slice(2);
  const flag = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
  const isQuick = argv.includes('--quick') || ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
  const db = flag('db') ?? process.env.BENCH_DB ?? defaultDb;
  if (!['pglite', 'postgres', 'both'].includes(db))
    throw new Error(`--db must be pglite, postgres or both (got ${db})`);
  const number = (name: string, fallback: number) => {
    const value = Number(process.env[name] || fallback);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
    return value;
  };
  return { flag, isQuick, db, number, engines: (db === 'both' ? ['pglite', 'postgres'] : [db]) as Engine[] };
}

/**
 * The engines side by side (the CI smoke: a quick run mostly waits, for PGlite's start, servers
 * starting, windows, and binds no figure): `run` gets the engine's index, for ports of its own,
 * and a log that prefixes its lines with the engine. Every run ends (its servers stopped, its
 * database dropped) before a failure of one is thrown.
 */
export async function sideBySide<T>(
  engines: Engine[],
  run: (engine: Engine, index: number, log: (line: string) => void) => Promise<T>,
): Promise<T[]> {
  const outcomes = await Promise.allSettled(
    engines.map((engine, index) =>
      run(engine, index, (line) => console.log(line.replace(/^/gm, `${engine.padEnd(8)} `))),
    ),
  );
  return outcomes.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
}
