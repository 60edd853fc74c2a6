import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTeacherRegistration } from './testing/factories.ts';

/**
 * The real process, as `npm start` runs it: first start creates DATA_DIR,
 * SIGTERM shuts down cleanly, and a restart keeps accounts and tokens.
 */
const running: ChildProcess[] = [];
const temporaryRoots: string[] = [];
const temporaryRoot = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-main-'));
  temporaryRoots.push(root);
  return root;
};
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.length = 0;
  for (const root of temporaryRoots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startServer(environment: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${environment.PORT}`;
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return { child, baseUrl, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not become healthy:\n${output}`);
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('server process', () => {
  it(
    'creates DATA_DIR, shuts down on SIGTERM and keeps data and sessions across restarts',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(temporaryRoot(), 'data');
      const environment = { DATA_DIR: dataDir, PORT: String(await freePort()), DATABASE_URL: '', JWT_SECRET: '' };

      const first = await startServer(environment);
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(true);
      expect(statSync(path.join(dataDir, 'pglite')).mode & 0o077).toBe(0); // other users kept out
      const registration = buildTeacherRegistration();
      expect((await postJson(`${first.baseUrl}/api/teacher/register`, registration)).status).toBe(201);
      const login = await postJson(`${first.baseUrl}/api/teacher/login`, {
        email: registration.email,
        password: registration.password,
      });
      const token = ((await login.json()) as { data: string }).data;

      const exited = exitOf(first.child);
      first.child.kill('SIGTERM');
      expect(await exited).toBe(0);

      const second = await startServer(environment);
      const profile = await postJson(
        `${second.baseUrl}/api/teacher/get-teacher-by-id`,
        {},
        { authorization: `Bearer ${token}` },
      );
      expect(profile.status).toBe(200);
      expect(((await profile.json()) as { data: { email: string } }).data.email).toBe(registration.email);
      const exitedAgain = exitOf(second.child);
      second.child.kill('SIGINT');
      expect(await exitedAgain).toBe(0);
    },
  );

  it('refuses to start with a clear list of configuration problems', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        PORT: 'abc',
        LOG_LEVEL: 'loud',
        DATA_DIR: temporaryRoot(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toMatch(/Invalid configuration/);
    expect(stderr).toMatch(/PORT must be a number/);
    expect(stderr).toMatch(/LOG_LEVEL must be one of/);
  });
});
