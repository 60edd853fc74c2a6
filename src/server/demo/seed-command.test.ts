import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_SCHOOL_NAME, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { callJson, runNpmScript, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { patience } from '../testing/patience.ts';
import { TEST_SETUP_CODE } from '../testing/factories.ts';

/**
 * The README's path in either order (decision 041): `npm run seed` while a server holds the
 * embedded database says what to do instead, and the server's first run fills the demo itself.
 */
describe('the demo with a server running (decision 041)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-seed-'));
  const dataDir = path.join(root, 'data');
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ DATA_DIR: dataDir });
  }, patience(120_000));
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    'npm run seed tells the person to use the set-up screen or stop the server; the set-up screen fills the demo once',
    { timeout: patience(180_000) },
    async () => {
      const seed = await runNpmScript('seed', [], { DATA_DIR: dataDir });
      expect(seed.code).toBe(1);
      expect(seed.stderr).toContain(`a StudyHall server is using it (pid ${server.child.pid})`);
      expect(seed.stderr).toContain('choose "Fill with a demo school"');
      expect(seed.stderr).toContain('or stop the server (Ctrl+C), run npm run seed, and start it again');

      const filled = await callJson(server.baseUrl, 'POST', '/api/school/demo', {
        body: { setupCode: TEST_SETUP_CODE },
      });
      expect(filled.status, JSON.stringify(filled.body)).toBe(201);
      expect(filled.body.data).toEqual({ isSetUp: true, name: DEMO_SCHOOL_NAME, hasDemo: true });
      const login = await callJson(server.baseUrl, 'POST', '/api/teacher/login', {
        body: { email: DEMO_TEACHER_EMAIL, password: DEMO_PASSWORD },
      });
      expect(login.status).toBe(200);
      const again = await callJson(server.baseUrl, 'POST', '/api/school/demo', {
        body: { setupCode: TEST_SETUP_CODE },
      });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('SCHOOL_ALREADY_SET_UP');
    },
  );
});
