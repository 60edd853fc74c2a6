import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '#shared/contract/endpoint';
import { routeEndpoint } from '../endpoint-route.ts';
import { conflict } from '../errors.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const profile = defineEndpoint({
  method: 'GET',
  path: '/api/testing/profile',
  summary: 'A profile, for this test',
  response: z.strictObject({ name: z.string() }),
});
const list = defineEndpoint({
  method: 'GET',
  path: '/api/testing/list',
  summary: 'A paged list, for this test',
  response: z.array(z.string()),
  paged: true,
});

let t: TestApp;
let presented: unknown;
let refusal: Error | undefined;

beforeAll(async () => {
  t = await createTestApp();
  const anyone = { config: { policy: { caller: 'anyone', touches: ['nothing'] } } } as const;
  routeEndpoint(t.app, profile, anyone, async () => {
    if (refusal) throw refusal;
    return { message: 'Found', data: presented as { name: string } };
  });
  routeEndpoint(t.app, list, anyone, async () => ({
    message: 'Found',
    listed: { items: presented as string[], hasMore: false },
    page: { offset: 0, limit: 10 },
  }));
});
afterAll(async () => {
  await t.close();
});

describe('the test app holds every /api answer to its contract (decision 026)', () => {
  const quietly = async (url: string) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      return await t.call({ method: 'GET', url });
    } finally {
      errors.mockRestore();
    }
  };

  it('lets an answer that keeps it through', async () => {
    presented = { name: 'Ada' };
    refusal = undefined;
    expect((await quietly('/api/testing/profile')).body).toEqual({
      success: true,
      message: 'Found',
      data: { name: 'Ada' },
    });
    presented = ['a', 'b'];
    expect((await quietly('/api/testing/list')).status).toBe(200);
  });

  it('fails a presenter that lets a field out the contract does not name', async () => {
    presented = { name: 'Ada', passwordHash: '$argon2id$…' };
    refusal = undefined;
    const answer = await quietly('/api/testing/profile');
    expect(answer.status).toBe(500);
    expect(answer.body.message).toMatch(
      /GET \/api\/testing\/profile does not keep its contract \(the success envelope/,
    );
  });

  it('fails a wrong type inside a page of a list', async () => {
    presented = ['a', 2];
    expect((await quietly('/api/testing/list')).status).toBe(500);
  });

  it('fails a code the endpoint does not declare, and lets its generic ones through', async () => {
    refusal = conflict('TASK_LIST_CHANGED', 'Your task list changed elsewhere');
    const answer = await quietly('/api/testing/profile');
    expect(answer.status).toBe(500);
    expect(answer.body.message).toContain('the failure envelope');
    refusal = new Error('a bug');
    expect((await quietly('/api/testing/profile')).body).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect((await quietly('/api/testing/nothing-here')).body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});
