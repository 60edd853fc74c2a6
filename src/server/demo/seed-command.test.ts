import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_SCHOOL_NAME, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { callJson, runNpmScript, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { patience } from '../testing/patience.ts';
import { buildSchoolSetup, TEST_SETUP_CODE } from '../testing/factories.ts';

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
      expect(filled.body.data).toEqual({
        isSetUp: true,
        name: DEMO_SCHOOL_NAME,
        hasDemo: true,
        defaultLocale: 'en',
        timeZone: 'UTC',
      });
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

/**
 * Issue 31 point 4 (decision 050): `npm run seed` refuses a database holding a real school
 * unless --force, and `npm run demo:remove` takes the demo out again.
 */
describe('npm run seed on a real school, and npm run demo:remove', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-seed-real-'));
  const dataDir = path.join(root, 'data');
  const realSchool = buildSchoolSetup();
  beforeAll(async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const setUp = await callJson(server.baseUrl, 'POST', '/api/school/setup', { body: realSchool });
      expect(setUp.status).toBe(201);
    } finally {
      await server.stop();
    }
  }, patience(120_000));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    'refuses without --force and changes nothing; with --force adds the demo, which demo:remove removes',
    { timeout: patience(300_000) },
    async () => {
      const refused = await runNpmScript('seed', [], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`this database holds a real school ("${realSchool.schoolName}"`);
      expect(refused.stderr).toContain('npm run seed -- --force');

      const forced = await runNpmScript('seed', ['--force'], { DATA_DIR: dataDir });
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toContain('Demo school ready');

      const removed = await runNpmScript('demo:remove', [], { DATA_DIR: dataDir });
      expect(removed.code, removed.stderr).toBe(0);
      expect(removed.stdout).toMatch(/Demo removed: 2 teachers, 16 students, 2 classes, \d+ quizzes/);

      const server = await startServerProcess({ DATA_DIR: dataDir });
      try {
        const status = await callJson(server.baseUrl, 'GET', '/api/school');
        expect(status.body.data).toEqual({
          isSetUp: true,
          name: realSchool.schoolName,
          hasDemo: false,
          defaultLocale: 'en',
          timeZone: 'UTC',
        });
        const demoLogin = await callJson(server.baseUrl, 'POST', '/api/teacher/login', {
          body: { email: DEMO_TEACHER_EMAIL, password: DEMO_PASSWORD },
        });
        expect(demoLogin.status).toBe(401);
        const realLogin = await callJson(server.baseUrl, 'POST', '/api/teacher/login', {
          body: { email: realSchool.email, password: realSchool.password },
        });
        expect(realLogin.status).toBe(200);
      } finally {
        await server.stop();
      }
    },
  );
});
