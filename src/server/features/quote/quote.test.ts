import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { BUNDLED_QUOTES } from '#shared/bundled-quotes';
import { QUOTE_TIMEOUT_MS } from './service.ts';

/** A local stand-in for the quotes service, switched between behaviours by the test. */
type Mode = 'success' | 'slow' | 'error' | 'garbage';
let mode: Mode = 'success';
let requests: IncomingMessage[] = [];
let standIn: Server;
let standInUrl: string;

const isBundled = (quote: { quote: string }) => BUNDLED_QUOTES.some((bundled) => bundled.quote === quote.quote);

beforeAll(async () => {
  standIn = createServer((request, response) => {
    requests.push(request);
    if (mode === 'slow') {
      // Answers a second after the app has given up on it (its own timer, in this process).
      setTimeout(() => response.end('[{"quote":"Too late","author":"Slow"}]'), QUOTE_TIMEOUT_MS + 1000);
      return;
    }
    if (mode === 'error') {
      response.statusCode = 500;
      response.end('{"error":"down"}');
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(
      mode === 'garbage' ? '<html>not json' : '[{"quote":"Stand-in wisdom.","author":"Local","category":"success"}]',
    );
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1/quotes`;
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});

async function quoteFrom(app: TestApp) {
  const response = await app.call({ method: 'GET', url: '/api/quote' });
  expect(response.status).toBe(200);
  return response.body.data as { quote: string; author: string; source: string };
}

async function withApp(quotes: { url?: string; key?: string }, work: (app: TestApp) => Promise<void>) {
  const app = await createTestApp({ quotes });
  try {
    await work(app);
  } finally {
    await app.close();
  }
}

describe('quote of the day', () => {
  it('comes from the service, with the key sent by the server, and is cached', async () => {
    mode = 'success';
    requests = [];
    await withApp({ url: standInUrl, key: 'secret-key' }, async (app) => {
      const [first, second] = await Promise.all([quoteFrom(app), quoteFrom(app)]);
      expect(first).toEqual({ quote: 'Stand-in wisdom.', author: 'Local', source: 'service' });
      expect(second).toEqual(first);
      await quoteFrom(app);
      expect(requests).toHaveLength(1);
      expect(requests[0]!.url).toBe('/v1/quotes?category=success');
      expect(requests[0]!.headers['x-api-key']).toBe('secret-key');
    });
  });

  it('needs no token and never sends the key to the browser', async () => {
    mode = 'success';
    await withApp({ url: standInUrl, key: 'secret-key' }, async (app) => {
      const response = await app.call({ method: 'GET', url: '/api/quote' });
      expect(response.raw).not.toContain('secret-key');
    });
  });

  // Measured by events, not the wall clock (decision 042): the slow service's answer comes after
  // the app's timeout, so a bundled quote proves the app gave up on time; one request, no retry.
  it.each<Mode>(['slow', 'error', 'garbage'])(
    'falls back to a bundled quote when the service is %s',
    async (behaviour) => {
      mode = behaviour;
      requests = [];
      await withApp({ url: standInUrl }, async (app) => {
        const quote = await quoteFrom(app);
        expect(quote.source).toBe('bundled');
        expect(isBundled(quote)).toBe(true);
        expect(requests).toHaveLength(1);
      });
    },
  );

  it('falls back when the service is unreachable or not configured', async () => {
    await withApp({ url: 'http://127.0.0.1:9/v1/quotes' }, async (app) => {
      expect((await quoteFrom(app)).source).toBe('bundled');
    });
    await withApp({}, async (app) => {
      expect(isBundled(await quoteFrom(app))).toBe(true);
    });
  });
});
