import { TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eventually, patience } from '../../src/server/testing/patience.ts';
import { copyMigratedPglite } from '../../src/server/testing/pglite-template.ts';
import { pgliteDirectory } from '../../src/server/db/client.ts';

/**
 * Several instances of the app, as `npm start` runs them, sharing one PostgreSQL
 * database, one Redis and one folder of uploaded files: a cluster on one machine,
 * for the scenarios about scale-out and for `npm run cluster` (scripts/cluster.ts).
 */
export type ClusterSettings = {
  /** A PostgreSQL database; the cluster gets a fresh database on that server unless `isDatabaseKept`. */
  databaseUrl: string;
  redisUrl: string;
  /** Use `databaseUrl` itself: stop() leaves it and its data in place. */
  isDatabaseKept?: boolean;
};

/** The cluster's engines, from E2E_CLUSTER_DATABASE_URL and E2E_CLUSTER_REDIS_URL (set by .ci/run). */
export function clusterSettings(): ClusterSettings | undefined {
  const databaseUrl = process.env.E2E_CLUSTER_DATABASE_URL;
  const redisUrl = process.env.E2E_CLUSTER_REDIS_URL;
  return databaseUrl && redisUrl ? { databaseUrl, redisUrl } : undefined;
}

/** Enough of an instance's log to explain why it did not start. */
const KEPT_OUTPUT_CHARACTERS = 64 * 1024;

export type AppInstanceOptions = {
  /** Sees the instance's log as it comes (the cluster script prints it); its tail is kept either way. */
  onOutput?: (text: string, port: number) => void;
  /** Called when the instance exits without being asked to (a crash, a failed start). */
  onUnexpectedExit?: (port: number, code: number | null, signal: NodeJS.Signals | null) => void;
};

export class AppInstance {
  private process: ChildProcess | undefined;
  private output = '';
  private isStopping = false;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly options: AppInstanceOptions = {},
  ) {}

  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    this.output = '';
    this.isStopping = false;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    const record = (chunk: Buffer) => {
      const text = chunk.toString();
      this.output = (this.output + text).slice(-KEPT_OUTPUT_CHARACTERS);
      this.options.onOutput?.(text, this.port);
    };
    child.stdout.on('data', record);
    child.stderr.on('data', record);
    child.once('exit', (code, signal) => {
      if (!this.isStopping) this.options.onUnexpectedExit?.(this.port, code, signal);
    });
    try {
      await eventually(
        `the instance on ${this.port} to become healthy`,
        async () => {
          if (child.exitCode !== null) throw new Error(`Instance on ${this.port} exited:\n${this.output}`);
          try {
            return (await fetch(`${this.baseUrl}/api/health`)).ok;
          } catch {
            return false; // not listening yet
          }
        },
        60_000,
        250,
      );
    } catch (error) {
      if (child.exitCode !== null) throw error;
      await this.stop();
      throw new Error(`${(error as Error).message}:\n${this.output}`, { cause: error });
    }
  }

  /** SIGTERM, as a deploy or `docker stop` would: the app closes its sockets with GOING_AWAY. */
  async stop() {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.isStopping = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, patience(10_000)))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** A port for a scenario's own instance: `offset` past the e2e server's, one per project (both may run at once). */
export const ownInstancePort = (offset: number, projectName: string) =>
  Number(process.env.E2E_PORT ?? 3100) + offset + (projectName === 'mobile' ? 1 : 0);

/**
 * An instance as `npm start` runs it for a new school: an empty embedded database in a DATA_DIR
 * of its own (the e2e server is set up by other scenarios). `stop()` removes the folder.
 *
 * The database is a copy of one migrated once per machine (the benches' template): PGlite's
 * initdb and the migrations were ~5 s of CPU of each such start, six of them in the desktop run
 * and three at phone size. A first start's own migrating is `npm start`'s, proven by
 * check:production and the server's tests; the scenarios' subject is the school's first run.
 */
export async function startFreshInstance(port: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'studyhall-first-run-'));
  const dataDir = path.join(dir, 'data');
  try {
    // Private, as the server makes a DATA_DIR it creates (the copy would make it 0755).
    mkdirSync(dataDir, { mode: 0o700 });
    await copyMigratedPglite(pgliteDirectory(dataDir));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const instance = new AppInstance(port, {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
    // The first run's code the scenarios type (decision 050).
    SETUP_CODE: TEST_SETUP_CODE,
  });
  const stop = async () => {
    await instance.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await instance.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { instance, stop };
}

export type StartClusterOptions = {
  count: number;
  /** Instances listen on firstPort, firstPort + 1, … */
  firstPort: number;
  /** Extra environment for every instance (it also inherits this process's environment). */
  env?: Record<string, string>;
  /** The shared DATA_DIR, kept by stop(); unset = a temporary folder that stop() removes. */
  dataDir?: string;
} & AppInstanceOptions;

/** A cluster that is up: its instances, what they share, and how to take it all down. */
export type Cluster = Awaited<ReturnType<typeof startCluster>>;

/**
 * Starts `count` instances on a fresh database of the cluster's PostgreSQL (or
 * on the given one, with `isDatabaseKept`); `stop()` stops them, drops a
 * database it created and removes the instances' temporary folder.
 *
 * The instances share one DATA_DIR, as instances on several machines would
 * mount one shared volume there: with DATABASE_URL and JWT_SECRET set it holds
 * only the uploaded files (no embedded database, no generated secret), so a file
 * uploaded through one instance is served by any other. With S3_BUCKET in the
 * environment the files go to that bucket instead.
 */
export async function startCluster(settings: ClusterSettings, options: StartClusterOptions) {
  const { count, firstPort, env = {}, dataDir: givenDataDir, ...instanceOptions } = options;
  let databaseUrl = settings.databaseUrl;
  let dropDatabase = async () => {};
  if (!settings.isDatabaseKept) {
    const databaseName = `studyhall_cluster_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: settings.databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${databaseName}`);
    await admin.end();
    const url = new URL(settings.databaseUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const dropper = new pg.Client({ connectionString: settings.databaseUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    };
  }
  const dataDir = givenDataDir ?? mkdtempSync(path.join(tmpdir(), 'studyhall-cluster-'));
  const shared = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: settings.redisUrl,
    // Every instance signs and checks the same tokens and file addresses.
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
    ...env,
  };
  const instances = Array.from(
    { length: count },
    (_, index) => new AppInstance(firstPort + index, shared, instanceOptions),
  );
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await dropDatabase();
    if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // One after the other: the first applies the migrations.
    for (const instance of instances) await instance.start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, databaseUrl, dataDir, stop };
}
