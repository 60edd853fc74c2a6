import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teacherIdentityColumns } from '../db/identity-keys.ts';
import { teachers } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { loggableError, redactUrl, REQUEST_ID_HEADER, requestIdOf } from './request-logging.ts';

const UUID = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/;
const withHeader = (value: string | string[] | undefined) =>
  ({ headers: value === undefined ? {} : { [REQUEST_ID_HEADER]: value } }) as unknown as IncomingMessage;

describe('redactUrl', () => {
  it.each([
    ['/api/meetings/ws?token=eyJhbGciOi.abc.def', '/api/meetings/ws?token=[redacted]'],
    ['/api/resources/9b1d/file?access=u1.1700000000.c2lnbmF0dXJl', '/api/resources/9b1d/file?access=[redacted]'],
    ['/api/x?search=fractions&access=secret&limit=5', '/api/x?search=fractions&access=[redacted]&limit=5'],
    [
      '/api/x?Access_Token=abc&apiKey=k&password=p',
      '/api/x?Access_Token=[redacted]&apiKey=[redacted]&password=[redacted]',
    ],
    ['/api/x?%74oken=abc', '/api/x?%74oken=[redacted]'], // an escaped name is still the name
    ['/api/x?token', '/api/x?token=[redacted]'],
    ['/api/x?%E0%A4%A=1&token=a', '/api/x?%E0%A4%A=1&token=[redacted]'],
    ['/api/get-resources?subject=Math&sort=newest', '/api/get-resources?subject=Math&sort=newest'],
    ['/dashboard/teacher', '/dashboard/teacher'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('requestIdOf', () => {
  it('keeps a plain incoming id (UUID, nginx hex, trace ids)', () => {
    for (const id of [
      '6f1c1a8e-2b7e-4a51-9a55-0c3f8d0f6b11',
      '5d4c7e9f0a1b2c3d4e5f60718293a4b5',
      'edge:1.abc_9',
      'x'.repeat(128),
    ]) {
      expect(requestIdOf(withHeader(id))).toBe(id);
    }
  });

  it('replaces a missing, long, repeated or unsafe id with a new UUID', () => {
    for (const value of [
      undefined,
      '',
      'x'.repeat(129),
      ['a', 'b'],
      'evil\nline',
      '<script>',
      'a b',
      'ünïcode',
      'id"}',
    ]) {
      expect(requestIdOf(withHeader(value))).toMatch(UUID);
    }
    expect(requestIdOf(withHeader(undefined))).not.toBe(requestIdOf(withHeader(undefined)));
  });
});

describe('request ids and unexpected errors over the API', () => {
  const logs: Record<string, unknown>[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ logs });
    t.app.get(
      '/api/test/explode',
      { config: { policy: { caller: 'anyone', touches: ['nothing'] } } },
      async function explodeForTheTest() {
        throw new Error('kaboom');
      },
    );
  });
  afterAll(() => t.close());

  it('answers with the incoming id when it is safe, and logs every line of the request under it', async () => {
    logs.length = 0;
    const response = await t.call({ method: 'GET', url: '/api/health', headers: { [REQUEST_ID_HEADER]: 'edge-42.a' } });
    expect(response.headers[REQUEST_ID_HEADER]).toBe('edge-42.a');
    const lines = logs.filter((line) => line.reqId === 'edge-42.a');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines[0]).toMatchObject({ req: { method: 'GET', url: '/api/health' } });
  });

  it('makes up its own id for an unsafe or missing one', async () => {
    const unsafe = await t.call({ method: 'GET', url: '/api/health', headers: { [REQUEST_ID_HEADER]: 'x\r\ny' } });
    expect(unsafe.headers[REQUEST_ID_HEADER]).toMatch(UUID);
    const missing = await t.call({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.status).toBe(404);
    expect(missing.headers[REQUEST_ID_HEADER]).toMatch(UUID);
    const malformed = await t.call({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(malformed.status).toBe(400);
    expect(malformed.headers[REQUEST_ID_HEADER]).toMatch(UUID);
  });

  it('logs an unexpected error once, with its stack, and answers 500 with a generic message', async () => {
    logs.length = 0;
    const response = await t.call({ method: 'GET', url: '/api/test/explode' });
    expect(response.status).toBe(500);
    const requestId = response.headers[REQUEST_ID_HEADER] as string;
    expect(requestId).toMatch(UUID);
    // Generic, with the id a person can quote (it is also in the header).
    expect(response.body).toEqual({
      success: false,
      code: 'INTERNAL_ERROR',
      message: `Something went wrong on our side. Please try again. (Reference: ${requestId})`,
      data: null,
    });
    expect(response.raw).not.toContain('kaboom');
    const mentions = logs.filter((line) => JSON.stringify(line).includes('kaboom'));
    expect(mentions).toHaveLength(1);
    expect(mentions[0]).toMatchObject({ level: 50, msg: 'unhandled error', reqId: requestId });
    const err = mentions[0]!.err as { message: string; stack: string };
    expect(err.message).toBe('kaboom');
    expect(err.stack).toContain('explodeForTheTest');
    // The other lines of the request: the usual two, at info.
    const others = logs.filter((line) => line.reqId === requestId && line !== mentions[0]);
    expect(others.map((line) => [line.level, line.msg])).toEqual([
      [30, 'incoming request'],
      [30, 'request completed'],
    ]);
  });
});

describe('loggableError', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function failingInsert(values: Partial<typeof teachers.$inferInsert>): Promise<Error> {
    try {
      await t.database.db
        .insert(teachers)
        .values({ name: 'Ada', ...teacherIdentityColumns('a@b.test'), subject: 'Math', passwordHash: 'x', ...values });
    } catch (error) {
      return error as Error;
    }
    throw new Error('the insert was expected to fail');
  }

  it('keeps the statement and the reason of a failed query but never its parameters', async () => {
    const secretHash = '$argon2id$v=19$m=19456,t=2,p=1$not-a-real-hash';
    // Too long for varchar(100): a real driver error with a hash among the parameters.
    const failure = await failingInsert({ name: 'x'.repeat(500), passwordHash: secretHash });
    expect(failure.message).toContain(secretHash); // what would have leaked
    const logged = loggableError(failure) as Error & { query?: string; code?: string };
    expect(JSON.stringify({ ...logged, message: logged.message, stack: logged.stack })).not.toContain(secretHash);
    expect(logged.query).toContain('insert into "teachers"');
    expect(logged.code).toBe('22001'); // string_data_right_truncation
    expect(logged.message).toBe('value too long for type character varying(100)');
    // Where we sent it from (this test), not the driver's insides.
    expect(logged.stack).toMatch(/^FailedQuery: value too long[^\n]*\n\s+at /);
    expect(logged.stack).toContain('request-logging.test.ts');
  });

  it('hides a parameter that the database quotes in its own message', async () => {
    const secretHash = '$argon2id$v=19$m=19456,t=2,p=1$quoted-by-the-database';
    // An id that is not a UUID: PostgreSQL repeats the value it could not read.
    const failure = await failingInsert({ id: secretHash, passwordHash: 'short' });
    const cause = failure.cause as { message: string };
    expect(cause.message).toContain(secretHash); // the driver's own message carries it
    const logged = loggableError(failure) as Error & { code?: string };
    expect(JSON.stringify({ ...logged, message: logged.message, stack: logged.stack })).not.toContain(secretHash);
    expect(logged.code).toBe('22P02'); // invalid_text_representation
    expect(logged.message).toMatch(/invalid input syntax for type uuid: "\$1"/);
  });

  it('leaves other errors whole, stack included', () => {
    const error = new Error('plain failure');
    expect(loggableError(error)).toBe(error);
  });
});
