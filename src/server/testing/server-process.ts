import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { DEMO_PASSWORD, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { TEST_SETUP_CODE } from './factories.ts';
import { eventually } from './patience.ts';

/**
 * The server as `npm start` runs it (src/server/main.ts under tsx), for tests about the
 * process itself: crashes, restarts, backups. Nothing of the caller's shell leaks in:
 * the embedded database unless `DATABASE_URL` is given, no Redis, no S3.
 */
export type ServerProcess = {
  baseUrl: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM, as a deploy would; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no handler runs, nothing is flushed by the process. */
  kill(): void;
  exited: Promise<void>;
};

/** Settings no test of a server process should inherit from the shell that runs it. */
export const ISOLATED_ENVIRONMENT = {
  DATABASE_URL: '',
  REDIS_URL: '',
  JWT_SECRET: '',
  S3_BUCKET: '',
  S3_ENDPOINT: '',
  S3_REGION: '',
  S3_ACCESS_KEY_ID: '',
  S3_SECRET_ACCESS_KEY: '',
  S3_FORCE_PATH_STYLE: '',
  READ_CACHE_MS: '',
  JANUS_URL: '',
  JANUS_API_SECRET: '',
  LOG_LEVEL: 'warn',
  // The first run's code, known to the tests (decision 050).
  SETUP_CODE: TEST_SETUP_CODE,
  QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
};

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the server with `environment` (DATA_DIR at least) and waits for its health check. */
export async function startServerProcess(environment: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...ISOLATED_ENVIRONMENT, HOST: '127.0.0.1', PORT: String(port), ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    baseUrl,
    child,
    output: () => output,
    exited,
    kill: () => void child.kill('SIGKILL'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      return child.exitCode;
    },
  };
  try {
    await eventually(
      'the server to become healthy',
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
        try {
          return (await fetch(`${baseUrl}/api/health`)).ok;
        } catch {
          return false; // not listening yet
        }
      },
      60_000,
      200,
    );
  } catch (error) {
    if (child.exitCode !== null) throw error;
    server.kill();
    throw new Error(`${(error as Error).message}:\n${output}`, { cause: error });
  }
  return server;
}

/** Runs `npm run <script> -- <args>` as a person would; resolves with its exit code and output. */
export async function runNpmScript(
  script: string,
  args: string[],
  environment: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    env: { ...process.env, ...ISOLATED_ENVIRONMENT, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, stdout, stderr };
}

/** The demo teacher's session on a server holding the demo school (seeded, restored or moved). */
export async function demoTeacherToken(baseUrl: string): Promise<string> {
  const login = await callJson(baseUrl, 'POST', '/api/teacher/login', {
    body: { email: DEMO_TEACHER_EMAIL, password: DEMO_PASSWORD },
  });
  if (login.status !== 200) throw new Error(`the demo teacher could not sign in: ${login.status}`);
  return login.body.data as string;
}

/** JSON over HTTP with an optional bearer token; the parsed body (undefined when not JSON). */
export async function callJson(
  baseUrl: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}
