import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DataDirInUseError,
  findDataDirHolder,
  LOCK_FILE_NAME,
  LOCK_STALE_MS,
  lockPathOf,
  type DataDirLock,
  type LockRecord,
} from './data-dir-lock.ts';
import { patience } from '../testing/patience.ts';

/** The limit of this file's slow tests (decision 042). */
const SLOW_TEST = { timeout: patience(60_000) };

/** The lock that keeps a second process off an embedded DATA_DIR (decision 019). */
const LOCK_MODULE = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));
const folders: string[] = [];
const held: DataDirLock[] = [];
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const newDataDir = () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'studyhall-lock-'));
  folders.push(folder);
  return folder;
};

const acquire = (dataDir: string, options: Partial<Parameters<typeof acquireDataDirLock>[1]> = {}) => {
  const lock = acquireDataDirLock(dataDir, { purpose: 'server', ...options });
  held.push(lock);
  return lock;
};

/**
 * Another process that tries to take DATA_DIR, prints "held <pid>" or "refused <message>",
 * and keeps what it got until its standard input closes (or it is killed).
 */
function lockingProcess(dataDir: string, { startGate = false } = {}) {
  const gate = path.join(dataDir, 'go');
  const code = `
    import { acquireDataDirLock } from ${JSON.stringify(LOCK_MODULE)};
    import { existsSync } from 'node:fs';
    if (${startGate}) {
      console.log('ready');
      while (!existsSync(${JSON.stringify(gate)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
    try {
      acquireDataDirLock(${JSON.stringify(dataDir)}, { purpose: 'backup' });
      console.log('held ' + process.pid);
    } catch (error) {
      console.log('refused ' + error.message);
    }
    process.stdin.resume();
    process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    env: { ...process.env, STUDYHALL_TEST_LOCK_PAUSE_MS: '30' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  const waiting: { resolve: (line: string) => void; isWanted: (line: string) => boolean }[] = [];
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    const parts = output.split('\n');
    output = parts.pop()!;
    for (const line of parts) {
      lines.push(line.trim());
      for (const waiter of waiting.filter((candidate) => candidate.isWanted(line))) waiter.resolve(line.trim());
    }
  });
  const nextLine = (isWanted: (line: string) => boolean) =>
    new Promise<string>((resolve) => {
      const found = lines.find(isWanted);
      if (found !== undefined) resolve(found);
      else waiting.push({ resolve, isWanted });
    });
  const ready = nextLine((line) => line.trim() === 'ready');
  const answer = nextLine((line) => line.trim() !== 'ready');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, ready, answer, exited };
}

const record = (overrides: Partial<LockRecord>): LockRecord => ({
  purpose: 'server',
  pid: process.pid,
  hostname: hostname(),
  startedAt: new Date().toISOString(),
  token: 'someone-else',
  ...overrides,
});

describe('the DATA_DIR lock', () => {
  it('keeps a second process out while the first holds it, and lets the next one in after a release', async () => {
    const dataDir = newDataDir();
    const lock = acquire(dataDir);
    expect(JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8'))).toMatchObject({
      pid: process.pid,
      purpose: 'server',
    });
    expect(statSync(lockPathOf(dataDir)).mode & 0o077).toBe(0);

    const refused = lockingProcess(dataDir);
    expect(await refused.answer).toMatch(
      new RegExp(
        `^refused ${dataDir.replaceAll('/', '\\/')} is in use by a StudyHall server \\(pid ${process.pid}, since`,
      ),
    );
    expect(() => acquireDataDirLock(dataDir, { purpose: 'backup' })).toThrow(/already held by this process/);

    lock.release();
    expect(existsSync(lockPathOf(dataDir))).toBe(false);
    const next = lockingProcess(dataDir);
    expect(await next.answer).toMatch(/^held \d+$/);
    expect(findDataDirHolder(dataDir)).toMatchObject({ purpose: 'backup', pid: next.child.pid });
  });

  it('is taken over from a holder killed with SIGKILL (its file left behind)', async () => {
    const dataDir = newDataDir();
    const holder = lockingProcess(dataDir);
    expect(await holder.answer).toMatch(/^held/);
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(lockPathOf(dataDir))).toBe(true);
    expect(findDataDirHolder(dataDir)).toBeUndefined();
    expect(acquire(dataDir).record.pid).toBe(process.pid);
  });

  it('tells a live holder from a reused pid, and a fresh lock of another machine from an abandoned one', async () => {
    const dataDir = newDataDir();
    const sleeper = lockingProcess(newDataDir()); // any live process of ours
    await sleeper.answer;
    const livePid = sleeper.child.pid!;
    const startOf = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    };
    const write = (lock: LockRecord, ageMs = 0) => {
      writeFileSync(lockPathOf(dataDir), JSON.stringify(lock));
      const when = new Date(Date.now() - ageMs);
      utimesSync(lockPathOf(dataDir), when, when);
    };

    write(record({ pid: livePid, processStart: startOf(livePid) }));
    expect(() => acquireDataDirLock(dataDir, { purpose: 'server' })).toThrow(DataDirInUseError);
    write(record({ pid: livePid, processStart: '1' })); // same pid, another process: the holder is gone
    acquire(dataDir).release();
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    write(record({ pid: livePid, processStart: startOf(livePid), bootId: 'a-boot-before-this-one' })); // a restart since
    acquire(dataDir).release();
    write(record({ pid: livePid, processStart: startOf(livePid), bootId })); // this boot: held again
    expect(() => acquireDataDirLock(dataDir, { purpose: 'server' })).toThrow(DataDirInUseError);
    write(record({})); // our own pid, not ours: an earlier life of this container
    acquire(dataDir).release();

    write(record({ hostname: 'another-machine', pid: 1 }), LOCK_STALE_MS / 2);
    expect(() => acquireDataDirLock(dataDir, { purpose: 'server' })).toThrow(/pid 1 on another-machine/);
    write(record({ hostname: 'another-machine', pid: 1 }), LOCK_STALE_MS + 1_000);
    acquire(dataDir).release();

    writeFileSync(lockPathOf(dataDir), 'not a lock');
    utimesSync(lockPathOf(dataDir), new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    acquire(dataDir).release();
  });

  it('lets exactly one of several processes take over an abandoned lock at once', SLOW_TEST, async () => {
    // CI once saw two of four hold it: one racer removed the lock another had just made.
    // The racers start together and block on a shared file, so their takeovers overlap.
    for (let round = 0; round < 4; round += 1) {
      const dataDir = newDataDir();
      writeFileSync(lockPathOf(dataDir), JSON.stringify(record({ pid: 2 ** 22 + 7, token: 'dead' }))); // no such process
      const racers = Array.from({ length: 5 }, () => lockingProcess(dataDir, { startGate: true }));
      await Promise.all(racers.map((racer) => racer.ready));
      writeFileSync(path.join(dataDir, 'go'), '');
      const answers = await Promise.all(racers.map((racer) => racer.answer));
      expect(answers.filter((answer) => answer.startsWith('held'))).toHaveLength(1);
      expect(answers.filter((answer) => answer.startsWith('refused'))).toHaveLength(4);
      const holderPid = Number(answers.find((answer) => answer.startsWith('held'))!.split(' ')[1]);
      expect(findDataDirHolder(dataDir)?.pid).toBe(holderPid);
      expect(readdirSync(dataDir).sort()).toEqual(['go', LOCK_FILE_NAME]); // no claim or draft left behind
      for (const racer of racers) racer.child.kill('SIGKILL');
    }
  });

  it('passes the takeover on when the process that claimed it died halfway', async () => {
    const dataDir = newDataDir();
    const staleText = JSON.stringify(record({ pid: 2 ** 22 + 7, token: 'dead' }));
    writeFileSync(lockPathOf(dataDir), staleText);
    const claimId = createHash('sha256').update(staleText).digest('hex').slice(0, 16);
    // A claim left by a process that no longer exists: waiting for it would wait for ever.
    writeFileSync(
      `${lockPathOf(dataDir)}.takeover-${claimId}-0`,
      JSON.stringify(record({ pid: 2 ** 22 + 9, token: 'claim-x' })),
    );
    expect(acquire(dataDir).record.pid).toBe(process.pid);
    expect(readdirSync(dataDir)).toEqual([LOCK_FILE_NAME]);
  });

  it('keeps its file fresh, puts it back if removed, and reports a takeover by another process', async () => {
    const dataDir = newDataDir();
    const losses: (LockRecord | undefined)[] = [];
    acquire(dataDir, { heartbeatMs: 50, onLost: (holder) => losses.push(holder) });
    const old = new Date(Date.now() - 30_000);
    utimesSync(lockPathOf(dataDir), old, old);
    await expect.poll(() => Date.now() - statSync(lockPathOf(dataDir)).mtimeMs).toBeLessThan(5_000);

    rmSync(lockPathOf(dataDir));
    await expect
      .poll(() => existsSync(lockPathOf(dataDir)) && JSON.parse(readFileSync(lockPathOf(dataDir), 'utf8')).pid)
      .toBe(process.pid);
    expect(losses).toEqual([]);

    writeFileSync(lockPathOf(dataDir), JSON.stringify(record({ pid: 12345, token: 'usurper' })));
    await expect.poll(() => losses[0]).toMatchObject({ pid: 12345, token: 'usurper' });
    held.pop()!.release();
    expect(existsSync(lockPathOf(dataDir))).toBe(true); // a release never removes another holder's file
  });
});
