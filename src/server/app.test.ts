import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LIMITS, JSON_BODY_LIMIT_BYTES, JSON_MAX_DEPTH, JSON_MAX_VALUES } from '#shared/limits';
import { IGNORED_FIELD_MAX_BYTES } from '#shared/fields';
import { RESOURCE_LIMITS } from '#shared/resources';
import { classIdTaughtBy, signUpTeacher } from './testing/actors.ts';
import { jsonOfExactly, nestedJson } from './testing/json-bodies.ts';
import { multipartBody, SAMPLE_FILES, uploadHalfThenHangUp } from './testing/multipart.ts';
import { bearer, createTestApp, type TestApp } from './testing/test-app.ts';
import { patience } from './testing/patience.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('JSON bodies (decision 023)', () => {
  /** A video link into a class the teacher teaches (decision 031). */
  const linkFor = async (teacher: Awaited<ReturnType<typeof signUpTeacher>>) => ({
    url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
    fileName: 'Fractions explained',
    classId: await classIdTaughtBy(t, teacher, '7A'),
    description: 'A video for the class',
  });
  const saveLink = (token: string, body: string) =>
    t.call({
      method: 'POST',
      url: '/api/teacher/add-resource-link',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: body,
    });
  const library = (token: string) => t.call({ method: 'GET', url: '/api/get-resources', headers: bearer(token) });

  it('answers 413 with a clear message for a JSON body over the limit on an ordinary route, and changes nothing', async () => {
    const teacher = await signUpTeacher(t);
    const link = await linkFor(teacher);
    const refused = await saveLink(teacher.token, jsonOfExactly(link, JSON_BODY_LIMIT_BYTES + 1));
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      success: false,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request is too large: at most 16 KB can be sent at once.',
      data: null,
    });
    expect((await library(teacher.token)).body.data).toEqual([]);

    expect((await saveLink(teacher.token, JSON.stringify(link))).status).toBe(201);
    expect((await library(teacher.token)).body.data).toHaveLength(1);
  });

  it('takes the largest valid form body, a video link with every field full of 3-byte characters and its uploadedBy at its most', async () => {
    const teacher = await signUpTeacher(t);
    const full = (length: number) => '€'.repeat(length);
    const largest = {
      url: `https://www.youtube.com/watch?v=aqz-KE-bpKQ&t=${full(RESOURCE_LIMITS.linkUrl - 46)}`,
      fileName: full(RESOURCE_LIMITS.fileName),
      classId: await classIdTaughtBy(t, teacher, '7A'),
      subject: full(FIELD_LIMITS.subject),
      description: full(RESOURCE_LIMITS.description),
      tags: Array.from({ length: RESOURCE_LIMITS.tagCount }, (_, index) => `${index}`.padEnd(RESOURCE_LIMITS.tag, '€')),
      // Ignored, and as large as an ignored field may be (its JSON, quotes included).
      uploadedBy: 'x'.repeat(IGNORED_FIELD_MAX_BYTES - 2),
    };
    const body = JSON.stringify(largest);
    expect(Buffer.byteLength(body)).toBeGreaterThan(14_000);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(JSON_BODY_LIMIT_BYTES);
    const saved = await saveLink(teacher.token, body);
    expect(saved.status, saved.raw.slice(0, 300)).toBe(201);
    expect(saved.body.data.description).toBe(largest.description);
  });

  it('refuses a deeply nested body with 400 naming the limit, signed in or not, and changes nothing', async () => {
    const teacher = await signUpTeacher(t);
    const send = (url: string, payload: string, token?: string) =>
      t.call({
        method: 'POST',
        url,
        headers: { ...(token ? bearer(token) : {}), 'content-type': 'application/json' },
        payload,
      });
    const tooDeep = {
      success: false,
      code: 'MALFORMED_REQUEST',
      message: `The request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of objects and arrays are accepted.`,
      data: null,
    };
    for (const kind of ['arrays', 'objects'] as const) {
      // Within each route's byte limit, so that the nesting is what is refused.
      expect((await send('/api/teacher/login', nestedJson(2_000, kind))).body).toEqual(tooDeep);
      expect((await send('/api/teacher/add-resource-link', nestedJson(2_000, kind), teacher.token)).body).toEqual(
        tooDeep,
      );
      const list = await send('/api/teacher/update-task', nestedJson(50_000, kind), teacher.token);
      expect(list.status).toBe(400);
      expect(list.body).toEqual(tooDeep);
    }
    // One level under the limit is only a body of the wrong shape.
    const deepest = `{"tasks":${nestedJson(JSON_MAX_DEPTH - 1, 'arrays')},"version":0}`;
    expect((await send('/api/teacher/update-task', deepest, teacher.token)).body.message).toMatch(/^tasks\.0:/);
    expect((await library(teacher.token)).body.data).toEqual([]);
    const tasks = await t.call({ method: 'GET', url: '/api/tasks', headers: bearer(teacher.token) });
    expect(tasks.body.data).toEqual({ tasks: [], version: 0 });
  });

  it('refuses a body holding too many values with 400 naming the limit', async () => {
    const teacher = await signUpTeacher(t);
    const tasks = Array.from({ length: JSON_MAX_VALUES + 1 }, () => 0);
    const refused = await t.call({
      method: 'POST',
      url: '/api/teacher/update-task',
      headers: bearer(teacher.token),
      payload: { tasks, version: 0 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'The request body holds too many values: at most 17,000 list items and object members are accepted.',
    );
  });

  it('still refuses __proto__ and constructor.prototype keys at any depth, and broken JSON', async () => {
    const teacher = await signUpTeacher(t);
    for (const payload of [
      '{"tasks":[],"version":0,"x":[{"__proto__":{"isAdmin":true}}]}',
      '{"tasks":[],"version":0,"x":{"constructor":{"prototype":{"isAdmin":true}}}}',
      '{"tasks":[],"version":0',
    ]) {
      const refused = await t.call({
        method: 'POST',
        url: '/api/teacher/update-task',
        headers: { ...bearer(teacher.token), 'content-type': 'application/json' },
        payload,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('The request body is not valid JSON');
    }
  });

  it('refuses a body that is not JSON by its content type (415), even when the text would parse', async () => {
    const teacher = await signUpTeacher(t);
    for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'application/octet-stream']) {
      const refused = await t.call({
        method: 'POST',
        url: '/api/teacher/update-task',
        headers: { ...bearer(teacher.token), 'content-type': contentType },
        payload: '{"tasks":[],"version":0}',
      });
      expect(refused.status, contentType).toBe(415);
      expect(refused.body.code, contentType).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });
});

describe('JSON bodies over a real connection (decision 023)', () => {
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /**
   * Sends `chunks` as a POST body (chunked when no content-length is given), ending the body
   * only when `isComplete`; resolves with the answer, or 'no answer' once waiting for it has
   * become a hang (a server that waits for the rest of a body never answers): `quietWaitMs`
   * through patience (decision 042).
   */
  function post(
    path: string,
    headers: Record<string, string>,
    chunks: (string | Uint8Array)[],
    isComplete: boolean,
    quietWaitMs = 3000,
  ) {
    return new Promise<{ status: number; body: any } | 'no answer'>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers });
      const timer = setTimeout(() => {
        request.destroy();
        resolve('no answer');
      }, patience(quietWaitMs));
      request.on('error', reject);
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (part: string) => (text += part));
        response.on('end', () => {
          clearTimeout(timer);
          request.destroy();
          resolve({ status: response.statusCode!, body: JSON.parse(text) });
        });
      });
      for (const chunk of chunks) request.write(chunk);
      if (isComplete) request.end();
    });
  }

  it('refuses a nested body while it is still arriving, without waiting for the rest', async () => {
    const teacher = await signUpTeacher(t);
    // The first 64 kB of a 1.3 MB body whose rest never comes.
    const answer = await post(
      '/api/teacher/add-quiz',
      { ...bearer(teacher.token), 'content-type': 'application/json', 'content-length': '1300000' },
      ['['.repeat(64 * 1024)],
      false,
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        success: false,
        code: 'MALFORMED_REQUEST',
        message: `The request body is nested too deeply: at most ${JSON_MAX_DEPTH} levels of objects and arrays are accepted.`,
        data: null,
      },
    });
    expect((await t.call({ method: 'GET', url: '/api/health' })).status).toBe(200);
  });

  it('counts a body sent without a length (chunked) against the limit, and reads a valid one in awkward pieces', async () => {
    const teacher = await signUpTeacher(t);
    const headers = { ...bearer(teacher.token), 'content-type': 'application/json' };
    const tooLarge = await post(
      '/api/teacher/add-resource-link',
      headers,
      Array.from({ length: 17 }, (_, index) => (index === 0 ? '{"padding":"' : 'x'.repeat(1024))),
      false,
    );
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { message: 'The request is too large: at most 16 KB can be sent at once.' },
    });

    // A valid body in awkward pieces.
    const link = {
      url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
      fileName: 'Pieces',
      classId: await classIdTaughtBy(t, teacher, '7A'),
      description: 'A \\"quoted\\" [description] with € {and} braces',
    };
    const text = JSON.stringify(link);
    // After `"classId":`, between the two characters of an escape, one byte into the three of €.
    const cuts = [
      Buffer.byteLength(text.slice(0, text.indexOf('"classId"') + 10)),
      Buffer.byteLength(text.slice(0, text.indexOf('\\') + 1)),
      Buffer.byteLength(text.slice(0, text.indexOf('€'))) + 1,
    ];
    const bytes = Buffer.from(text);
    const pieces = [0, ...cuts].map((start, index) => bytes.subarray(start, [...cuts, bytes.length][index]));
    const saved = await post('/api/teacher/add-resource-link', headers, pieces, true);
    expect(saved).toMatchObject({ status: 201, body: { data: { description: link.description } } });
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
    let handlerStarted!: () => void;
    const isHandlerStarted = new Promise<void>((resolve) => (handlerStarted = resolve));
    let clientGone!: () => void;
    const isClientGone = new Promise<void>((resolve) => (clientGone = resolve));
    // A handler still working after its client hung up (a page closed mid-request). Its work
    // is a pause that must outlast the hang-up and the start of the close, so it grows with the
    // load (decision 042), up to 4 times: the app waits at most 10 s for running handlers.
    const workMs = Math.min(patience(400), 4 * 400);
    app.app.get('/test/slow', async (request) => {
      request.raw.socket.once('close', () => clientGone());
      handlerStarted();
      await new Promise((resolve) => setTimeout(resolve, workMs));
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
    await isHandlerStarted;
    request.destroy();
    await isClientGone; // the server has seen the hang-up: the request is abandoned
    await app.close();
    expect(handlerOutcome).toBe('database answered');
  });
});
