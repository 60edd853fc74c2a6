import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  it('answers 200 {"status":"ok"} while the database answers', async () => {
    const response = await t.call({ method: 'GET', url: '/api/health' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
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
