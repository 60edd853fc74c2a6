import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

export type LockPurpose = 'server' | 'backup' | 'restore' | 'seed';

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
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (createLock(lockPath, record)) return;
    const found = readLock(lockPath);
    if (found === undefined) continue; // released meanwhile
    if (!found.record) {
      // Being written by another process at this instant, or garbage left by hand.
      if (Date.now() - found.modifiedMs < 2_000) {
        sleep(50);
        continue;
      }
    } else if (isHeld(found.record, found.modifiedMs)) {
      throw new DataDirInUseError(found.record, lockPath);
    }
    removeStaleLock(lockPath, found.record?.token);
  }
  throw new Error(`Could not take ${lockPath}: other processes keep replacing it`);
}

/**
 * Removes the lock judged stale, and only that one: it is moved aside first, and if what
 * was moved turns out to be a fresh lock (a racing process took over in between), it is
 * put back (link() never replaces an existing name) and we look again.
 */
function removeStaleLock(lockPath: string, staleToken: string | undefined) {
  const aside = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // gone already: try again from the start
  }
  const moved = readLock(aside);
  if (moved?.record && moved.record.token !== staleToken) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // a third process holds the name now; the one we moved will notice at its heartbeat
    }
  }
  rmSync(aside, { force: true });
}

/** Creates the file only if no lock exists: O_EXCL, so of two processes exactly one succeeds. */
function createLock(lockPath: string, record: LockRecord): boolean {
  try {
    writeFileSync(lockPath, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function readLock(lockPath: string): { record: LockRecord | undefined; modifiedMs: number } | undefined {
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
    return { record: isRecord ? (parsed as LockRecord) : undefined, modifiedMs };
  } catch {
    return { record: undefined, modifiedMs };
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

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
