import { availableParallelism, loadavg } from 'node:os';

/**
 * How long tests wait before they call a wait a hang (decision 042). Tests wait for the event
 * they need (a health answer, a log line, a row, a text on the screen); the limit only decides
 * when waiting becomes a failure. It is written as what the thing takes on a quiet machine and
 * grows with the machine's load (runnable tasks per core, read at the moment it is asked) and
 * with TEST_PATIENCE, a factor for machines known to be slow (e.g. `TEST_PATIENCE=3`). It never
 * shrinks below the quiet figure: every limit in the tests goes through here, no literal numbers.
 */
export function patience(quietMs: number): number {
  return Math.round(quietMs * patienceFactor());
}

/** The suite's limits on a quiet machine (vitest.config.ts and patience-setup.ts scale them). */
export const QUIET_LIMITS = {
  /** One test: most take well under a second; a few start a server process or a database. */
  testMs: 20_000,
  /** One hook: creating a database (a PGlite clone or a PostgreSQL copy) takes a second or two. */
  hookMs: 60_000,
  /** One `expect.poll` or Testing Library `findBy`/`waitFor` without a limit of its own. */
  pollMs: 1_000,
};

/** Past this many runnable tasks per core a hang is a hang: the limit stops growing. */
const MOST_LOAD_PER_CORE = 25;

/** The factor `patience` applies now: TEST_PATIENCE times the load per core (at least 1). */
export function patienceFactor(): number {
  const configured = Number(process.env.TEST_PATIENCE);
  const factor = Number.isFinite(configured) && configured > 0 ? configured : 1;
  // The larger of the 1- and 5-minute averages: a burst that just ended still slows what follows.
  const [lastMinute = 0, lastFiveMinutes = 0] = loadavg();
  const perCore = Math.max(lastMinute, lastFiveMinutes) / availableParallelism();
  return factor * Math.min(MOST_LOAD_PER_CORE, Math.max(1, perCore));
}

/**
 * Asks `probe` until it returns something other than undefined or false, and returns that:
 * the wait for an event only seen by polling (a port answering, a line in a log). Fails with
 * "waited N s for `what`" when it has not happened within patience(quietMs).
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  quietMs: number,
  intervalMs = 100,
): Promise<T> {
  const limitMs = patience(quietMs);
  const deadline = Date.now() + limitMs;
  for (;;) {
    const seen = await probe();
    if (seen !== undefined && seen !== false) return seen;
    if (Date.now() > deadline) throw new Error(`waited ${Math.round(limitMs / 1000)} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
