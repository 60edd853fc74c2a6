import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSchoolSetup } from './testing/factories.ts';
import { callJson, startServerProcess, type ServerProcess } from './testing/server-process.ts';
import { patience } from './testing/patience.ts';

/**
 * The real process, as `npm start` runs it: first start creates DATA_DIR,
 * SIGTERM and SIGINT shut down cleanly, and a restart keeps accounts and tokens.
 */
const running: ServerProcess[] = [];
const temporaryRoots: string[] = [];
const temporaryRoot = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-main-'));
  temporaryRoots.push(root);
  return root;
};
afterEach(() => {
  for (const server of running) server.kill();
  running.length = 0;
  for (const root of temporaryRoots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('server process', () => {
  it(
    'creates DATA_DIR, shuts down on SIGTERM and keeps data and sessions across restarts',
    { timeout: patience(120_000) },
    async () => {
      const dataDir = path.join(temporaryRoot(), 'data');
      const start = async () => {
        const server = await startServerProcess({ DATA_DIR: dataDir });
        running.push(server);
        return server;
      };

      const first = await start();
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(true);
      expect(statSync(path.join(dataDir, 'pglite')).mode & 0o077).toBe(0); // other users kept out
      const registration = buildSchoolSetup(); // the school's first teacher (decision 030)
      expect((await callJson(first.baseUrl, 'POST', '/api/school/setup', { body: registration })).status).toBe(201);
      const login = await callJson(first.baseUrl, 'POST', '/api/teacher/login', {
        body: { email: registration.email, password: registration.password },
      });
      const token = login.body.data as string;

      expect(await first.stop()).toBe(0); // SIGTERM

      const second = await start();
      const profile = await callJson(second.baseUrl, 'POST', '/api/teacher/get-teacher-by-id', { token, body: {} });
      expect(profile.status).toBe(200);
      expect(profile.body.data.email).toBe(registration.email);
      second.child.kill('SIGINT');
      await second.exited;
      expect(second.child.exitCode).toBe(0);
    },
  );

  it('refuses to start with a clear list of configuration problems', { timeout: patience(30_000) }, async () => {
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
    child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toMatch(/Invalid configuration/);
    expect(stderr).toMatch(/PORT must be a number/);
    expect(stderr).toMatch(/LOG_LEVEL must be one of/);
  });
});
