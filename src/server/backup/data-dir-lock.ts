import { createHash, randomBytes } from 'node:crypto';
import { linkSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * One process at a time on an embedded DATA_DIR (decision 019). PGlite does not notice a
 * second process opening its folder: both would write the same files. So the server,
 * `npm run backup` (server stopped), `npm run restore` and `npm run seed` hold this file
 * while they use the folder, and refuse clearly when another live process holds it.
 *
 * A holder that dies without releasing (SIGKILL, a power cut) leaves the file behind; the
 * next process judges it stale and takes over:
 * - on the same machine, by the holder's process: gone, or its pid now belongs to another
 *   process (a different start time in /proc, or our own pid: a restarted container);
 * - from another machine (a shared disk, a recreated container with a new host name), only
 *   by its heartbeat: the holder touches the file every LOCK_HEARTBEAT_MS, and one untouched
 *   for LOCK_STALE_MS is abandoned.
 */
export const LOCK_FILE_NAME = 'studyhall.lock';
export const LOCK_HEARTBEAT_MS = 10_000;
export const LOCK_STALE_MS = 60_000;

export type LockPurpose = 'server' | 'backup' | 'restore' | 'seed' | 'move' | 'demo-remove';

export type LockRecord = {
  purpose: LockPurpose;
  pid: number;
  hostname: string;
  /** Linux: the kernel's boot id and the process's start time, so a reused pid is not mistaken for the holder. */
  bootId?: string;
  processStart?: string;
  startedAt: string;
  token: string;
};

export type DataDirLock = {
  readonly record: LockRecord;
  release(): void;
};

const PURPOSE_NAMES: Record<LockPurpose, string> = {
  server: 'a StudyHall server',
  backup: 'a backup (npm run backup)',
  restore: 'a restore (npm run restore)',
  seed: 'the demo seed (npm run seed)',
  move: 'the move to PostgreSQL (npm run move-to-postgres)',
  'demo-remove': "the demo's removal (npm run demo:remove)",
};

export class DataDirInUseError extends Error {
  constructor(
    readonly holder: LockRecord,
    readonly lockPath: string,
  ) {
    const where = holder.hostname === hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on ${holder.hostname}`;
    super(
      `${path.dirname(lockPath)} is in use by ${PURPOSE_NAMES[holder.purpose] ?? 'another process'} (${where}, since ${holder.startedAt}). ` +
        'Only one process at a time may use the embedded database: stop that one first. ' +
        `If it is not running any more, delete ${lockPath}` +
        (holder.hostname === hostname()
          ? '.'
          : ` (a lock from another machine also expires ${LOCK_STALE_MS / 1000} s after its last heartbeat).`),
    );
    this.name = 'DataDirInUseError';
  }
}

/** Folders this process holds: a second acquire from the same process is a bug, not a stale lock. */
const heldHere = new Set<string>();

export const lockPathOf = (dataDir: string) => path.join(path.resolve(dataDir), LOCK_FILE_NAME);

/**
 * Takes DATA_DIR for this process or throws DataDirInUseError. `onLost` is called if the
 * heartbeat finds the file taken by another process (it judged us dead): the caller must
 * stop using the folder at once.
 */
export function acquireDataDirLock(
  dataDir: string,
  options: {
    purpose: LockPurpose;
    onLost?: (holder: LockRecord | undefined) => void;
    /** Tests only: a faster heartbeat. */
    heartbeatMs?: number;
  },
): DataDirLock {
  const lockPath = lockPathOf(dataDir);
  if (heldHere.has(lockPath)) throw new Error(`${lockPath} is already held by this process`);
  const record: LockRecord = {
    purpose: options.purpose,
    pid: process.pid,
    hostname: hostname(),
    ...ownIdentity(),
    startedAt: new Date().toISOString(),
    token: randomBytes(12).toString('hex'),
  };
  takeOver(lockPath, record);
  heldHere.add(lockPath);

  let isReleased = false;
  const heartbeat = setInterval(() => {
    const found = readLock(lockPath);
    if (found?.record?.token === record.token) {
      touch(lockPath);
    } else if (found === undefined) {
      // Removed by hand while we run: put it back so that nobody else starts on our folder.
      if (!createLock(lockPath, record)) options.onLost?.(readLock(lockPath)?.record);
    } else {
      options.onLost?.(found.record);
    }
  }, options.heartbeatMs ?? LOCK_HEARTBEAT_MS);
  heartbeat.unref();

  const release = () => {
    if (isReleased) return;
    isReleased = true;
    clearInterval(heartbeat);
    process.removeListener('exit', release);
    heldHere.delete(lockPath);
    if (readLock(lockPath)?.record?.token === record.token) rmSync(lockPath, { force: true });
  };
  // process.exit() after a failed start, an uncaught error: the lock goes with the process.
  process.once('exit', release);
  return { record, release };
}

/** The current holder of DATA_DIR, if a live process holds it (stale locks are reported as free). */
export function findDataDirHolder(dataDir: string): LockRecord | undefined {
  const found = readLock(lockPathOf(dataDir));
  if (!found?.record) return undefined;
  return isHeld(found.record, found.modifiedMs) ? found.record : undefined;
}

function takeOver(lockPath: string, record: LockRecord) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (createLock(lockPath, record)) return;
    const found = readLock(lockPath);
    if (found === undefined) continue; // released meanwhile
    if (found.record && isHeld(found.record, found.modifiedMs)) throw new DataDirInUseError(found.record, lockPath);
    // Garbage that is not a lock: written by hand, or half-written by an older version this instant.
    const isFreshGarbage = !found.record && Date.now() - found.modifiedMs < 2_000;
    pauseForTests();
    if (!isFreshGarbage && replaceStaleLock(lockPath, found.text, record)) return;
    sleep(25); // another process is replacing it: look again once it is done
  }
  throw new Error(`Could not take ${lockPath}: other processes keep replacing it`);
}

/**
 * Replaces the lock judged stale, and only that one, with ours. Removing it and then creating
 * ours let two racers both believe they held the folder: one could remove the other's fresh
 * lock in between. So the right to replace one stale lock goes to whoever creates its claim
 * file first (O_EXCL), and the winner swaps the file by rename, which never leaves the name
 * free. A claim whose process died mid-takeover passes to the next claim number.
 */
function replaceStaleLock(lockPath: string, staleText: string, record: LockRecord): boolean {
  const claimPrefix = `${path.basename(lockPath)}.takeover-${createHash('sha256').update(staleText).digest('hex').slice(0, 16)}-`;
  const folder = path.dirname(lockPath);
  for (let claimNumber = 0; claimNumber < 100; claimNumber += 1) {
    const claimPath = path.join(folder, `${claimPrefix}${claimNumber}`);
    if (!createExclusive(claimPath, lockText({ ...record, token: `claim-${record.token}` }))) {
      if (isClaimAlive(claimPath)) return false;
      continue; // its process died before finishing: the next number decides
    }
    // Ours alone: earlier claimants are dead, later ones wait for us.
    pauseForTests();
    const isStillStale = readLock(lockPath)?.text === staleText;
    if (isStillStale) {
      const fresh = `${lockPath}.new-${randomBytes(6).toString('hex')}`;
      writeFileSync(fresh, lockText(record), { flag: 'wx', mode: 0o600 });
      renameSync(fresh, lockPath);
    }
    for (const name of readdirSync(folder)) {
      if (name.startsWith(claimPrefix)) rmSync(path.join(folder, name), { force: true });
    }
    return isStillStale;
  }
  throw new Error(`Could not take ${lockPath}: too many abandoned takeovers`);
}

function isClaimAlive(claimPath: string): boolean {
  const claim = readLock(claimPath);
  if (claim === undefined) return false; // cleaned up: the winner is done
  if (!claim.record) return true; // cannot happen (written whole by link), so wait rather than guess
  return isHeld(claim.record, claim.modifiedMs); // the same test as a lock: a live process, or fresh from another machine
}

/** Creates the file only if no lock exists: of two processes exactly one succeeds. */
function createLock(lockPath: string, record: LockRecord): boolean {
  return createExclusive(lockPath, lockText(record));
}

const lockText = (record: LockRecord) => `${JSON.stringify(record)}\n`;

/**
 * Creates `target` with `text` unless it exists. The text is written to a private name first and
 * linked into place (link never replaces a name), so nobody ever reads a half-written file.
 */
function createExclusive(target: string, text: string): boolean {
  const draft = `${target}.draft-${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, text, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      return createWithExclusiveFlag(target, text); // a file system without hard links
    }
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function createWithExclusiveFlag(target: string, text: string): boolean {
  try {
    writeFileSync(target, text, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readLock(lockPath: string): { record: LockRecord | undefined; modifiedMs: number; text: string } | undefined {
  let text: string;
  let modifiedMs: number;
  try {
    modifiedMs = statSync(lockPath).mtimeMs;
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockRecord>;
    const isRecord = typeof parsed.pid === 'number' && typeof parsed.token === 'string' && !!parsed.hostname;
    return { record: isRecord ? (parsed as LockRecord) : undefined, modifiedMs, text };
  } catch {
    return { record: undefined, modifiedMs, text };
  }
}

function isHeld(holder: LockRecord, modifiedMs: number): boolean {
  if (holder.hostname !== hostname()) return Date.now() - modifiedMs < LOCK_STALE_MS;
  if (holder.pid === process.pid) return false; // our own pid: an earlier life of this container
  const own = ownIdentity();
  if (holder.bootId && own.bootId && holder.bootId !== own.bootId) return false; // the machine restarted
  if (!isProcessAlive(holder.pid)) return false;
  if (holder.processStart) {
    const start = processStartOf(holder.pid);
    if (start !== undefined && start !== holder.processStart) return false; // the pid was reused
  }
  return true;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

/** Linux only (/proc); elsewhere the pid alone identifies the holder. */
function ownIdentity(): { bootId?: string; processStart?: string } {
  const bootId = readQuietly('/proc/sys/kernel/random/boot_id')?.trim();
  const processStart = processStartOf(process.pid);
  return { ...(bootId ? { bootId } : {}), ...(processStart ? { processStart } : {}) };
}

/** Field 22 of /proc/<pid>/stat: start time in clock ticks since boot (after the command name, which may hold spaces). */
function processStartOf(pid: number): string | undefined {
  const stat = readQuietly(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function readQuietly(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function touch(lockPath: string) {
  const now = new Date();
  try {
    utimesSync(lockPath, now, now);
  } catch {
    // removed meanwhile: the next heartbeat puts it back
  }
}

/**
 * Tests only: STUDYHALL_TEST_LOCK_PAUSE_MS widens the takeover's steps as a loaded machine's
 * scheduler would (CI once caught two holders; the race test fails on the old code with it).
 */
const TEST_PAUSE_MS = Number(process.env.STUDYHALL_TEST_LOCK_PAUSE_MS ?? 0);
function pauseForTests() {
  if (TEST_PAUSE_MS > 0) sleep(TEST_PAUSE_MS);
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
