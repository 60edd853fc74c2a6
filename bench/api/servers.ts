import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type ServerDatabase = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; dataDir: string };

export type RunningServer = { baseUrl: string; pid: number; stop(): Promise<void> };

/**
 * How long a server may take to start: its TypeScript compiled by tsx and the database migrated
 * take ~10 s on a quiet machine and over 60 s at load 20 (BENCH_START_SECONDS, 180).
 */
const START_SECONDS = Number(process.env.BENCH_START_SECONDS || 180);

async function waitUntilAnswering(child: ChildProcess, url: string, stop: () => Promise<void>) {
  for (let attempt = 0; attempt < START_SECONDS * 4; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`${url} did not answer within ${START_SECONDS} s`);
}

function stopper(child: ChildProcess) {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * The app as `npm start` runs it (src/server/main.ts under tsx, one instance), on a seeded
 * database. LOG_LEVEL warn: per-request info logs are a deployment choice, not the app's cost.
 * cpuProfileDir: write a V8 CPU profile there when the server stops (node --cpu-prof).
 */
export async function startAppServer(options: {
  port: number;
  database: ServerDatabase;
  cpuProfileDir?: string | undefined;
  logLevel?: string | undefined;
  /** READ_CACHE_MS (decision 015); the app's default when omitted, 0 = every read from the database. */
  readCacheMs?: number | undefined;
  /** REDIS_URL: the read cache's versions in Redis, as several instances run (one MGET per cached read). */
  redisUrl?: string | undefined;
  /** JWT_SECRET: instances of one cluster share it (a random one per server when omitted with Redis). */
  jwtSecret?: string | undefined;
  /** SIGN_IN_LIMIT_PER_IP: out of the way (a million) when omitted; the sign-in bench sets the real one. */
  signInLimitPerIp?: number | undefined;
  /** TRUST_PROXY: whose X-Forwarded-For names the client (nobody's when omitted). */
  trustProxy?: string | undefined;
  /** More flags for node (--trace-gc, V8's heap flags). */
  nodeFlags?: string[] | undefined;
  /** Each line the server writes to stdout goes here instead of the bench's own stdout. */
  onStdoutLine?: ((line: string) => void) | undefined;
  /** More environment for the server (the defaults above are overridden). */
  env?: Record<string, string> | undefined;
}): Promise<RunningServer> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const profile = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const flags = [...profile, ...(options.nodeFlags ?? [])];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.database.dataDir,
      DATABASE_URL: options.database.kind === 'postgres' ? options.database.url : '',
      REDIS_URL: options.redisUrl ?? '',
      S3_BUCKET: '',
      // Several instances' settings need a shared secret (config.ts refuses them without one).
      JWT_SECRET: options.jwtSecret ?? (options.redisUrl ? randomBytes(32).toString('hex') : ''),
      // The first run's code (decision 050): buildSchoolSetup sends it.
      SETUP_CODE: TEST_SETUP_CODE,
      LOG_LEVEL: options.logLevel ?? 'warn',
      READ_CACHE_MS: options.readCacheMs === undefined ? '' : String(options.readCacheMs),
      QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
      // Every simulated student signs in from 127.0.0.1. The per-network budget (decision 016)
      // is sized for one school's sign-in rush, not for a whole run's rounds on one server; the
      // throttle still runs and costs what it costs, only its budget is out of the way.
      SIGN_IN_LIMIT_PER_IP: String(options.signInLimitPerIp ?? 1_000_000),
      TRUST_PROXY: options.trustProxy ?? '',
      ...options.env,
    },
    stdio: ['ignore', options.onStdoutLine ? 'pipe' : 'inherit', 'inherit'],
  });
  if (options.onStdoutLine) createInterface({ input: child.stdout! }).on('line', options.onStdoutLine);
  const stop = stopper(child);
  await waitUntilAnswering(child, `${baseUrl}/api/health`, stop);
  return { baseUrl, pid: child.pid!, stop };
}

/** The bare Fastify hello-world (bench/api/hello-world.ts) on `port`. */
export async function startBaselineServer(port: number): Promise<RunningServer> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api/hello-world.ts', String(port)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = stopper(child);
  await waitUntilAnswering(child, `${baseUrl}/`, stop);
  return { baseUrl, pid: child.pid!, stop };
}

/** POST a JSON body (with a bearer token when given) and return the envelope's data; throws on a failure. */
export async function postJson(baseUrl: string, url: string, body: unknown, token?: string) {
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data: unknown; message: string };
  if (!response.ok) throw new Error(`${url}: ${response.status} ${json.message}`);
  return json.data;
}
