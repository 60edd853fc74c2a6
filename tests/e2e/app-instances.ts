import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * Several instances of the app, as `npm start` runs them, sharing one PostgreSQL
 * database (made fresh for the test) and one Redis: a cluster on one machine,
 * for the scenarios about scale-out. Each instance has its own port and DATA_DIR.
 */
export type ClusterSettings = { databaseUrl: string; redisUrl: string };

/** The cluster's engines, from E2E_CLUSTER_DATABASE_URL and E2E_CLUSTER_REDIS_URL (set by .ci/run). */
export function clusterSettings(): ClusterSettings | undefined {
  const databaseUrl = process.env.E2E_CLUSTER_DATABASE_URL;
  const redisUrl = process.env.E2E_CLUSTER_REDIS_URL;
  return databaseUrl && redisUrl ? { databaseUrl, redisUrl } : undefined;
}

export class AppInstance {
  private process: ChildProcess | undefined;
  private output = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get baseUrl() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    this.output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    child.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`Instance on ${this.port} exited:\n${this.output}`);
      try {
        if ((await fetch(`${this.baseUrl}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`Instance on ${this.port} did not start:\n${this.output}`);
  }

  /** SIGTERM, as a deploy or `docker stop` would: the app closes its sockets with GOING_AWAY. */
  async stop() {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/**
 * Starts `count` instances on ports from `firstPort`, on a fresh database of the
 * cluster's PostgreSQL; `stop()` stops them and drops that database.
 */
export async function startCluster(
  settings: ClusterSettings,
  count: number,
  firstPort: number,
  env: Record<string, string> = {},
) {
  const databaseName = `studyhall_e2e_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: settings.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const databaseUrl = new URL(settings.databaseUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const dataDirs: string[] = [];
  const shared = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: settings.redisUrl,
    // Every instance signs and checks the same tokens.
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
    ...env,
  };
  const instances = Array.from({ length: count }, (_, index) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'studyhall-cluster-'));
    dataDirs.push(dataDir);
    return new AppInstance(firstPort + index, { ...shared, DATA_DIR: dataDir });
  });
  // One after the other: the first applies the migrations.
  for (const instance of instances) await instance.start();
  return {
    instances,
    async stop() {
      await Promise.all(instances.map((instance) => instance.stop()));
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
