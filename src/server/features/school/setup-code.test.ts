import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { teachers } from '../../db/schema.ts';
import { buildSchoolSetup, TEST_SETUP_CODE } from '../../testing/factories.ts';
import { patience } from '../../testing/patience.ts';
import { callJson, startServerProcess } from '../../testing/server-process.ts';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { setupCodeFromSecret } from './setup-code.ts';

/**
 * Issue 31 point 4 (decision 050): reaching a fresh server first is not enough to become its
 * administrator. The set-up, the demo's fill and the code's check need the one-time code the
 * server prints in its log; wrong codes are refused (403) and throttled per network.
 */

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));
const freshApp = async (options: Parameters<typeof createTestApp>[0] = {}) => {
  const app = await createTestApp(options);
  apps.push(app);
  return app;
};
const countTeachers = async (t: TestApp) => (await t.database.db.select({ id: teachers.id }).from(teachers)).length;

describe('the set-up code', () => {
  it('refuses a set-up without the code or with a wrong one, creating nothing, and accepts the right one', async () => {
    const t = await freshApp();
    const { setupCode: _right, ...withoutCode } = buildSchoolSetup();
    const missing = await t.call({ method: 'POST', url: '/api/school/setup', payload: withoutCode });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toContainEqual({
      field: 'setupCode',
      code: 'WRONG_TYPE',
      params: { expected: 'string' },
      message: 'Missing, or not a string',
    });

    const wrong = await t.call({
      method: 'POST',
      url: '/api/school/setup',
      payload: buildSchoolSetup({ setupCode: 'AAAA-BBBB-CCCC' }),
    });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'SETUP_CODE_WRONG']);
    expect(await countTeachers(t)).toBe(0);
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data.isSetUp).toBe(false);

    // Typed as a person would: lower case, spaces for the dashes.
    const typed = TEST_SETUP_CODE.toLowerCase().replaceAll('-', ' ');
    const accepted = await t.call({
      method: 'POST',
      url: '/api/school/setup',
      payload: buildSchoolSetup({ setupCode: typed }),
    });
    expect(accepted.status, accepted.raw).toBe(201);
    expect(await countTeachers(t)).toBe(1);
  });

  it('is checked on its own by the set-up screen, and the demo needs it too', async () => {
    const t = await freshApp();
    const check = (setupCode: string) =>
      t.call({ method: 'POST', url: '/api/school/setup-code', payload: { setupCode } });
    expect([(await check('nope-nope')).status, (await check('nope-nope')).body.code]).toEqual([
      403,
      'SETUP_CODE_WRONG',
    ]);
    const right = await check(TEST_SETUP_CODE);
    expect([right.status, right.body.data]).toEqual([
      200,
      { isSetUp: false, name: null, hasDemo: false, defaultLocale: 'en', timeZone: 'UTC' },
    ]);

    const demoWithoutCode = await t.call({ method: 'POST', url: '/api/school/demo', payload: {} });
    expect(demoWithoutCode.status).toBe(400);
    const demoWrongCode = await t.call({
      method: 'POST',
      url: '/api/school/demo',
      payload: { setupCode: 'WRONG-CODE' },
    });
    expect([demoWrongCode.status, demoWrongCode.body.code]).toEqual([403, 'SETUP_CODE_WRONG']);
    expect(await countTeachers(t)).toBe(0);
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data.isSetUp).toBe(false);
  });

  it('throttles guessing per network: after a few wrong codes even the right one waits', async () => {
    const t = await freshApp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const answer = await t.call({
        method: 'POST',
        url: '/api/school/setup-code',
        payload: { setupCode: `GUESS-${attempt}-XXXX` },
      });
      statuses.push(answer.status);
    }
    // The lock-out's free failures (decision 016), then 429.
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.at(-1)).toBe(429);
    const locked = await t.call({ method: 'POST', url: '/api/school/setup', payload: buildSchoolSetup() });
    expect([locked.status, locked.body.code, locked.body.limit]).toEqual([429, 'THROTTLED', 'setup-code']);
    expect(await countTeachers(t)).toBe(0);
  });

  it('is derived from the JWT secret without SETUP_CODE: the same for every instance, never the secret', () => {
    const code = setupCodeFromSecret(TEST_JWT_SECRET);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(setupCodeFromSecret(TEST_JWT_SECRET)).toBe(code);
    expect(setupCodeFromSecret(`${TEST_JWT_SECRET}x`)).not.toBe(code);
  });

  it('accepts the derived code when SETUP_CODE is not set', async () => {
    const t = await freshApp({ setupCode: null });
    const given = await t.call({
      method: 'POST',
      url: '/api/school/setup-code',
      payload: { setupCode: TEST_SETUP_CODE },
    });
    expect(given.status).toBe(403);
    const derived = await t.call({
      method: 'POST',
      url: '/api/school/setup-code',
      payload: { setupCode: setupCodeFromSecret(TEST_JWT_SECRET) },
    });
    expect(derived.status).toBe(200);
  });
});

describe("the server's log", () => {
  it(
    'prints the code at start while the school is not set up, and no more once it is',
    { timeout: patience(180_000) },
    async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'studyhall-setup-code-'));
      const environment = { DATA_DIR: path.join(root, 'data'), SETUP_CODE: '' };
      try {
        const first = await startServerProcess(environment);
        let code: string;
        try {
          const announced = /one-time set-up code: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(first.output());
          expect(announced, first.output()).not.toBeNull();
          code = announced![1]!;
          const line = first
            .output()
            .split('\n')
            .find((text) => text.includes(code))!;
          expect(JSON.parse(line)).toMatchObject({ level: 40 }); // warn: seen at the default LOG_LEVEL
          const setUp = await callJson(first.baseUrl, 'POST', '/api/school/setup', {
            body: buildSchoolSetup({ setupCode: code }),
          });
          expect(setUp.status, JSON.stringify(setUp.body)).toBe(201);
        } finally {
          await first.stop();
        }
        const second = await startServerProcess(environment);
        try {
          expect(second.output()).not.toContain(code);
          expect(second.output()).not.toContain('set-up code');
        } finally {
          await second.stop();
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
