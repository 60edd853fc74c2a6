import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism } from 'node:os';

/**
 * Password hashing and checking (argon2id, ~20-30 ms of one core each) one at a time per core
 * but one (decision 040). @node-rs/argon2 runs on libuv's pool of four threads: 150 failing
 * sign-ins at once kept all four busy, both cores of a small server full, and the only JavaScript
 * thread got a share of them: health's p99 was 1.5 s. With at most `cores - 1` at once, one core
 * stays for the thread that answers everyone else. The cores are the process's, so the line is
 * too: one per process, whatever the app instances in it.
 */
export const PASSWORD_WORK_CONCURRENCY = Math.max(1, availableParallelism() - 1);

let running = 0;
const waiting: (() => void)[] = [];

/** Password work waiting for its turn now. */
export const passwordWorkWaiting = () => waiting.length;

let admitted = 0;

/**
 * Admits a request that will check a password, unless `waitingLimit` more than the checks that
 * can run at once are admitted already; answers its release (call it once, when its answer
 * has gone), or undefined when it must be refused. Counted from admission, not from the queue: the
 * account's lookup comes before the check, and during a burst every request passed a test of the
 * queue alone while the lookups of the first ones were still running (134 of 150 on the embedded
 * database, where the limit meant 41).
 */
export function admitPasswordWork(waitingLimit: number): (() => void) | undefined {
  if (admitted >= PASSWORD_WORK_CONCURRENCY + waitingLimit) return undefined;
  admitted += 1;
  return () => {
    admitted -= 1;
  };
}

/** Requests admitted to check a password and not yet answered (admitPasswordWork). */
export const passwordWorkAdmitted = () => admitted;

/** Set inside a turn: work called from it (a sign-in's check inside its lookup's turn) runs in that turn. */
const turn = new AsyncLocalStorage<true>();

/** True when called inside a turn (inPasswordWorkTurn). */
export const isInPasswordWorkTurn = () => turn.getStore() === true;

/**
 * Runs `work` (a hash, a check, or a sign-in's account lookup with its check) in its turn;
 * everything waits, nothing is refused here. Work already inside a turn runs at once, in it.
 */
export async function inPasswordWorkTurn<T>(work: () => Promise<T>): Promise<T> {
  if (isInPasswordWorkTurn()) return work();
  if (running >= PASSWORD_WORK_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await turn.run(true, work);
  } finally {
    // The turn passes straight to the next in line (`running` unchanged), or is given back.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}
