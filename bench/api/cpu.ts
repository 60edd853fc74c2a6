import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * CPU time spent per request by the app, by the database and by the load generator: a figure
 * that other programs on a shared machine do not distort the way they distort req/s. Read
 * from /proc (Linux); elsewhere the figures are left out.
 */

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** One process's parent and user + system CPU so far, in ms; undefined when it cannot be read. */
export function processStat(pid: number, file = `/proc/${pid}/stat`): { parentPid: number; cpuMs: number } | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    // Fields after the command (which may hold spaces): state is field 3, ppid 4, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parentPid: Number(fields[1]), cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond };
  } catch {
    return undefined;
  }
}

/** User + system CPU of one process so far, in ms; undefined when it cannot be read. */
export const processCpuMs = (pid: number): number | undefined => processStat(pid)?.cpuMs;

export type CpuFigures = {
  /** The app's process (PGlite runs inside it). */
  appMsPerRequest: number;
  /** PostgreSQL backends serving the app's connections; absent on PGlite. */
  databaseMsPerRequest?: number;
  /** This process: autocannon or the exam driver. */
  loadGeneratorMsPerRequest: number;
};

export type CpuMeter = { start(): Promise<void>; stop(requests: number): Promise<CpuFigures | undefined> };

/**
 * Measures between start() and stop(). databaseUrl: the app's PostgreSQL database, whose
 * client backends (other than the meter's own connection) are counted.
 */
export function cpuMeter(appPid: number, databaseUrl?: string): CpuMeter {
  let client: pg.Client | undefined;
  let before = new Map<number, number>();
  let generatorBefore = 0;
  let isAvailable = processCpuMs(appPid) !== undefined;

  async function backendPids(): Promise<number[]> {
    if (!databaseUrl) return [];
    if (!client) {
      client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
    }
    const result = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity
       where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
    );
    return result.rows.map((row) => row.pid);
  }

  const sample = async () => {
    const pids = [appPid, ...(await backendPids())];
    return new Map(
      pids.flatMap((pid) => {
        const cpu = processCpuMs(pid);
        return cpu === undefined ? [] : [[pid, cpu] as [number, number]];
      }),
    );
  };

  return {
    async start() {
      if (!isAvailable) return;
      before = await sample();
      const usage = process.cpuUsage();
      generatorBefore = (usage.user + usage.system) / 1000;
    },
    async stop(requests) {
      if (!isAvailable || requests === 0) return undefined;
      const usage = process.cpuUsage();
      const generator = (usage.user + usage.system) / 1000 - generatorBefore;
      const after = await sample();
      await client?.end();
      client = undefined;
      const spent = (pid: number) => (after.get(pid) ?? before.get(pid) ?? 0) - (before.get(pid) ?? 0);
      const app = spent(appPid);
      // A backend born during the run counts from zero; one that ended is lost (the pool keeps them busy).
      const database = [...new Set([...before.keys(), ...after.keys()])]
        .filter((pid) => pid !== appPid)
        .reduce((total, pid) => total + spent(pid), 0);
      const perRequest = (ms: number) => Math.round((ms / requests) * 1000) / 1000;
      isAvailable = true;
      return {
        appMsPerRequest: perRequest(app),
        ...(databaseUrl ? { databaseMsPerRequest: perRequest(database) } : {}),
        loadGeneratorMsPerRequest: perRequest(generator),
      };
    },
  };
}

/**
 * CPU of one process so far, in ms: its main thread (JavaScript, and PGlite inside it) and
 * its other threads together (V8's concurrent marking, sweeping and compiling, libuv's pool:
 * argon2, files; Node 20 leaves them unnamed). Undefined off Linux.
 */
export function threadCpuMs(pid: number): { main: number; otherThreads: number } | undefined {
  try {
    const split = { main: 0, otherThreads: 0 };
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const cpu = processStat(Number(tid), `/proc/${pid}/task/${tid}/stat`)?.cpuMs ?? 0;
      if (Number(tid) === pid) split.main += cpu;
      else split.otherThreads += cpu;
    }
    return split;
  } catch {
    return undefined;
  }
}

/** Bytes one process has read so far (files and sockets: /proc/<pid>/io rchar). Undefined off Linux. */
export function bytesReadBy(pid: number): number | undefined {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}
