import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT_BYTES } from '#shared/limits';
import { signUpTeacher } from './testing/actors.ts';
import { multipartBody, SAMPLE_FILES, uploadHalfThenHangUp } from './testing/multipart.ts';
import { bearer, createTestApp, type TestApp } from './testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('JSON body limit', () => {
  it('answers 413 with a clear message for a JSON body over the limit on an ordinary route, and changes nothing', async () => {
    const teacher = await signUpTeacher(t);
    const link = {
      url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
      fileName: 'Fractions explained',
      class: '7A',
      description: 'A video for the class',
    };
    const save = (body: string) =>
      t.call({
        method: 'POST',
        url: '/api/teacher/add-resource-link',
        headers: { ...bearer(teacher.token), 'content-type': 'application/json' },
        payload: body,
      });
    const tooLarge = JSON.stringify({ ...link, padding: 'x'.repeat(JSON_BODY_LIMIT_BYTES) });
    const refused = await save(tooLarge);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      success: false,
      message: 'The request is too large: at most 64 KB can be sent at once.',
      data: null,
    });
    const library = () => t.call({ method: 'GET', url: '/api/get-resources', headers: bearer(teacher.token) });
    expect((await library()).body.data).toEqual([]);

    expect((await save(JSON.stringify(link))).status).toBe(201);
    expect((await library()).body.data).toHaveLength(1);
  });
});

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
