import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpTeacher } from './testing/actors.ts';
import { multipartBody, SAMPLE_FILES, uploadHalfThenHangUp } from './testing/multipart.ts';
import { createTestApp, type TestApp } from './testing/test-app.ts';

describe('clients that hang up', () => {
  const logs: Record<string, unknown>[] = [];
  let logged: TestApp;
  beforeAll(async () => {
    logged = await createTestApp({ logs });
  });
  afterAll(() => logged.close());

  it('logs a cut-off upload once, at info, and never as an unhandled error', async () => {
    const teacher = await signUpTeacher(logged);
    await logged.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = logged.app.server.address() as AddressInfo;
    const body = multipartBody({ class: 'Hang-up' }, [
      { name: 'lecture.mp4', content: SAMPLE_FILES.mp4(2 * 1024 * 1024) },
    ]);
    logs.length = 0;
    await uploadHalfThenHangUp({ port, token: teacher.token, body, holdMs: 200 });
    await expect.poll(() => logs.some((line) => line.msg === 'request abandoned by the client')).toBe(true);
    expect(logs.filter((line) => line.msg === 'request abandoned by the client')).toHaveLength(1);
    expect(logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });
});

describe('shutting down', () => {
  it('closes the database only after the handlers of abandoned requests have finished', async () => {
    const app = await createTestApp();
    let handlerOutcome: string | undefined;
    // A handler still working after its client hung up (a page closed mid-request).
    app.app.get('/test/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      try {
        await app.database.ping();
        handlerOutcome = 'database answered';
      } catch (error) {
        handlerOutcome = `database closed: ${(error as Error).message}`;
      }
      return { done: true };
    });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.app.server.address() as AddressInfo;
    const request = httpRequest({ host: '127.0.0.1', port, path: '/test/slow' });
    request.on('error', () => {});
    request.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.close();
    expect(handlerOutcome).toBe('database answered');
  });
});
