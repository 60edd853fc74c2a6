import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHealth } from '#shared/contract/health';
import packageJson from '../../../../package.json' with { type: 'json' };
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const pings: string[] = [];
beforeAll(async () => {
  t = await createTestApp({
    onQuery: (query) => {
      if (/^select 1$/i.test(query.trim())) pings.push(query);
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers 200 {"status":"ok","version":…} with package.json\'s version while the database answers', async () => {
    const response = await t.call({ method: 'GET', url: '/api/health' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', version: packageJson.version });
    // The shared contract holds the answer, version included (decision 052).
    expect(getHealth.response.statuses[200].parse(response.body)).toEqual(response.body);
  });

  it('states a semver version in its contract: the 200 answer without one is refused', () => {
    expect(getHealth.response.statuses[200].safeParse({ status: 'ok' }).success).toBe(false);
    expect(getHealth.response.statuses[200].safeParse({ status: 'ok', version: 'latest' }).success).toBe(false);
    expect(getHealth.response.statuses[200].safeParse({ status: 'ok', version: '0.2.0' }).success).toBe(true);
  });

  it('answers the checks that arrive together with one database ping (decision 048)', async () => {
    pings.length = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.call({ method: 'GET', url: '/api/health' })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    // Each check arrived while the first one's ping ran: one round trip answered them all.
    expect(pings.length).toBeLessThan(5);
    // A check after they were answered pings again: the answer is never older than the check.
    await t.call({ method: 'GET', url: '/api/health' });
    expect(pings.length).toBeGreaterThanOrEqual(2);
  });

  it('answers JSON 404 for an unknown API path', async () => {
    const response = await t.call({ method: 'GET', url: '/api/does-not-exist' });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
  });

  it('answers a malformed URL with the JSON envelope', async () => {
    const response = await t.call({ method: 'GET', url: '/%E0%A4%A' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'MALFORMED_REQUEST', data: null });
  });

  it('answers 503 once the database is gone', async () => {
    await t.database.close();
    const response = await t.call({ method: 'GET', url: '/api/health' });
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'unavailable', code: 'UNAVAILABLE' });
  });
});
