import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { CLOSE_CODES, PROTOCOL_VERSION } from '#shared/meetings';
import { students, teachers } from '../db/schema.ts';
import { declaredRoutes, isApiPath, type DeclaredRoute } from '../plugins/route-policy.ts';
import { foreignAnswerKeys } from '../testing/answer-keys.ts';
import { startChangeJournal, type ChangeJournal } from '../testing/change-journal.ts';
import { listStoredFiles } from '../testing/database-snapshot.ts';
import {
  encodeText,
  fuzzRequest,
  mutatedJsonText,
  pathOf,
  payloadOf,
  singlePointRequests,
  weirdString,
  type FuzzRequest,
  type SeedRequest,
} from '../testing/fuzz-requests.ts';
import { expectedStatus, routeExamples, routeKey, type RouteExample } from '../testing/route-examples.ts';
import { authOf, buildSchool, type Caller, type School } from '../testing/school.ts';
import { signSessionToken } from '../testing/session-tokens.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';

/**
 * The fuzz suite (issue 9; decision 020): every /api route gets malformed bodies, params,
 * query strings and headers, with and without valid tokens. For every request: no 5xx and
 * no error logged; no password hash and no answer key the caller may not see in the
 * answer; a refused (4xx) request leaves every table and the uploads folder as they were;
 * Object.prototype untouched. After each route the server still answers.
 *
 * FUZZ_RUNS requests per route (12 by default: the suite stays well under a minute in
 * CI); `npm run fuzz` runs many more. Every run prints its seed; a failure prints its
 * seed and path: FUZZ_SEED=<seed> FUZZ_PATH=<path> npm run fuzz -- -t '<route>' replays it.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const PATH = process.env.FUZZ_PATH;
/** A safety net for CI: a route stops (passing) after this long even if runs remain. */
const ROUTE_TIME_LIMIT_MS = Number(process.env.FUZZ_ROUTE_MS ?? (RUNS <= 50 ? 15_000 : 0)) || undefined;
console.info(`fuzz: ${RUNS} runs per route, seed ${SEED} (replay: FUZZ_SEED=${SEED})`);

const logs: Record<string, unknown>[] = [];
const t: TestApp = await createTestApp({ logs });
await t.app.ready();
const apiRoutes = declaredRoutes(t.app).filter((route) => isApiPath(route.url));

type TokenChoice = { authorization?: string; caller: Pick<Caller, 'id' | 'role'> };
const ANONYMOUS = { id: null, role: null };
let school: School;
let tokenChoices: Record<string, TokenChoice>;
let seeds: Map<string, SeedRequest>;
let examplesByKey: Map<string, RouteExample>;
let journal: ChangeJournal;
let fixtureIds: string[];
/** The school accounts' password hashes as built (a password change is undone with them). */
let passwordHashes: Map<string, string>;

/** Ways to (not) prove who you are: real sessions, and everything a token can be wrong with. */
async function buildTokenChoices(): Promise<Record<string, TokenChoice>> {
  const { teacher1, teacher2, studentA, studentB, administrator } = school.callers;
  const session = (caller: Caller): TokenChoice => ({ authorization: `Bearer ${caller.token}`, caller });
  const ghost = { teacher: randomUUID(), student: randomUUID() };
  const expired = await signSessionToken(
    { id: teacher1.id!, role: 'teacher' },
    { expiresAt: Math.floor(Date.now() / 1000) - 3600 },
  );
  const unsigned = [
    { alg: 'none', typ: 'JWT' },
    { sub: teacher1.id, role: 'teacher', iss: 'studyhall' },
  ]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .join('.');
  const ticket = await t.call({
    method: 'POST',
    url: `/api/meetings/${school.meetingRoom}/token`,
    headers: authOf(studentA),
  });
  return {
    anonymous: { caller: ANONYMOUS },
    teacher1: session(teacher1),
    teacher2: session(teacher2),
    studentA: session(studentA),
    studentB: session(studentB),
    administrator: session(administrator),
    'lowercase bearer': { authorization: `bearer ${teacher1.token}`, caller: teacher1 },
    // Signed by us, for accounts that do not exist (deleted since): "log in again", never a 500.
    'ghost teacher': {
      authorization: `Bearer ${await signSessionToken({ id: ghost.teacher, role: 'teacher' })}`,
      caller: { id: ghost.teacher, role: 'teacher' },
    },
    'ghost student': {
      authorization: `Bearer ${await signSessionToken({ id: ghost.student, role: 'student' })}`,
      caller: { id: ghost.student, role: 'student' },
    },
    expired: { authorization: `Bearer ${expired}`, caller: ANONYMOUS },
    'another secret': {
      authorization: `Bearer ${await signSessionToken({ id: teacher1.id!, role: 'teacher' }, { secret: 'another-secret-0123456789-0123456789-0123' })}`,
      caller: ANONYMOUS,
    },
    'alg none': { authorization: `Bearer ${unsigned}.`, caller: ANONYMOUS },
    'meeting token': { authorization: `Bearer ${ticket.body.data.token}`, caller: ANONYMOUS },
    'with junk': { authorization: `Bearer ${teacher1.token}x`, caller: ANONYMOUS },
    'two tokens': { authorization: `Bearer ${teacher1.token} ${studentA.token}`, caller: ANONYMOUS },
    'bearer only': { authorization: 'Bearer ', caller: ANONYMOUS },
    basic: { authorization: 'Basic dXNlcjpwYXNzd29yZA==', caller: ANONYMOUS },
    huge: { authorization: `Bearer ${'a'.repeat(8_000)}`, caller: ANONYMOUS },
  };
}

/** Each route's valid request (as its first allowed caller sends it), split into what the fuzzer varies. */
async function buildSeeds(): Promise<Map<string, SeedRequest>> {
  const examples = routeExamples(t, school);
  examplesByKey = new Map(Object.entries(examples));
  const built = new Map<string, SeedRequest>();
  for (const route of apiRoutes) {
    const key = routeKey(route);
    const example = examples[key];
    if (built.has(key) || !example || !route.policy) continue;
    const allowed = (['teacher1', 'studentA', 'teacher2', 'studentB', 'anonymous', 'administrator'] as const)
      .map((name) => school.callers[name])
      .filter((candidate) => expectedStatus(route.policy!, candidate, example) === (example.status ?? 200));
    const caller = allowed[0]!;
    const request = await example.request(caller, await example.prepare?.());
    const url = new URL(request.url, 'http://fuzz');
    const patternSegments = route.url.split('/');
    const params = Object.fromEntries(
      url.pathname
        .split('/')
        .flatMap((segment, index) =>
          patternSegments[index]?.startsWith(':')
            ? [[patternSegments[index].slice(1), decodeURIComponent(segment)]]
            : [],
        ),
    );
    const payload = request.payload;
    built.set(key, {
      params,
      query: [...url.searchParams.entries()],
      body: Buffer.isBuffer(payload)
        ? { kind: 'multipart' }
        : payload === undefined
          ? { kind: 'none' }
          : { kind: 'json', value: payload },
      caller: caller.name,
      allowedCallers: allowed.map((other) => other.name),
    });
  }
  return built;
}

/** The school and everything made from it. */
async function setUpSchool() {
  school = await buildSchool(t);
  // An attempt in progress: the student's view of quiz 1 then holds questions, whose answer keys must stay out.
  await school.startQuiz('studentA', school.quiz1.id);
  tokenChoices = await buildTokenChoices();
  seeds = await buildSeeds();
  fixtureIds = [
    school.quiz1.id,
    school.quiz2.id,
    school.resource1.id,
    school.resource2.id,
    school.callers.teacher1.id!,
  ];
  passwordHashes = new Map(
    [
      ...(await t.database.db.select({ id: teachers.id, hash: teachers.passwordHash }).from(teachers)),
      ...(await t.database.db.select({ id: students.id, hash: students.passwordHash }).from(students)),
    ].map(({ id, hash }) => [id, hash]),
  );
}

const SCHOOL_ACCOUNTS = ['teacher1', 'teacher2', 'studentA', 'studentB', 'administrator'] as const;

/**
 * After an accepted password change or "sign out of all devices" (`endsSessions`): the
 * account's tokens are dead, so the next requests would stop at sign-in. The account gets
 * its school password back (the example's `currentPassword` stays right) and a token under
 * its new session version, signed here: no argon2, no sign-in throttling. Every token
 * choice made from the old token is made again.
 */
async function restoreSession(account: TokenChoice['caller']) {
  const name = SCHOOL_ACCOUNTS.find((candidate) => school.callers[candidate].id === account.id);
  if (!name || !account.id || !account.role) return;
  const table = account.role === 'teacher' ? teachers : students;
  const [restored] = await t.database.db
    .update(table)
    .set({ passwordHash: passwordHashes.get(account.id)! })
    .where(eq(table.id, account.id))
    .returning({ sessionVersion: table.sessionVersion });
  const token = await signSessionToken(
    { id: account.id, role: account.role },
    { sessionVersion: restored!.sessionVersion },
  );
  const caller = school.callers[name];
  if (caller.role) school.callers[name] = { ...caller, token };
  tokenChoices = await buildTokenChoices();
}

/**
 * After an accepted staff change (decision 030): the administrator's token may have
 * deactivated a school account, or moved who administers. The account named in the address
 * gets its state back and, if its sessions ended, a token under its new version.
 */
async function restoreStaff(url: string) {
  const name = SCHOOL_ACCOUNTS.find((candidate) => url.includes(`/${school.callers[candidate].id}/`));
  const account = name && school.callers[name];
  if (!name || !account?.id || account.role !== 'teacher') return;
  await t.database.db
    .update(teachers)
    .set({ deactivatedAt: null, isAdministrator: name === 'administrator' })
    .where(eq(teachers.id, account.id));
  await restoreSession(account);
}

/**
 * After an accepted class-list import (decision 034): its job writes after the answer, so the
 * next request's "refused, nothing changed" would see its rows land. Wait until it has ended.
 */
async function awaitImportJob(responseBody: string, authorization: string | undefined) {
  const importId = (JSON.parse(responseBody) as { data?: { importId?: string } }).data?.importId;
  if (!importId || !authorization) return;
  for (;;) {
    const status = await t.app.inject({ method: 'GET', url: `/api/imports/${importId}`, headers: { authorization } });
    const state = (JSON.parse(status.body) as { data?: { state?: string } }).data?.state;
    if (status.statusCode !== 200 || state === 'done' || state === 'failed') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  await setUpSchool();
  journal = await startChangeJournal(t.database);
}, patience(120_000));
/** Statuses seen per route, printed with FUZZ_STATS=1: how deep the requests got. */
const statusesSeen = new Map<string, Map<number, number>>();
afterAll(async () => {
  if (process.env.FUZZ_STATS) {
    const lines = [...statusesSeen].map(
      ([route, counts]) =>
        `${route.padEnd(40)} ${[...counts]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}`,
    );
    console.info(`statuses per route:\n${lines.join('\n')}`);
  }
  await t.close();
});

const PROTOTYPE_BASELINE = new Map(
  Object.getOwnPropertyNames(Object.prototype).map((name) => [
    name,
    Object.getOwnPropertyDescriptor(Object.prototype, name),
  ]),
);

function expectUnpollutedPrototype() {
  const names = Object.getOwnPropertyNames(Object.prototype);
  expect(
    names.filter((name) => !PROTOTYPE_BASELINE.has(name)),
    'Object.prototype gained',
  ).toEqual([]);
  for (const name of names) {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, name)!;
    const before = PROTOTYPE_BASELINE.get(name)!;
    expect(Object.is(now.value, before.value) && now.get === before.get, `Object.prototype.${name} replaced`).toBe(
      true,
    );
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

const errorLinesSince = (count: number) =>
  logs.slice(count).filter((line) => typeof line.level === 'number' && line.level >= 50);

/** Sends one fuzzed request and checks every property. */
async function sendAndCheck(route: DeclaredRoute, request: FuzzRequest) {
  const choice = tokenChoices[request.token]!;
  const { payload, contentType } = payloadOf(request.body);
  const url = pathOf(route.url, request);
  const headers: Record<string, string> = { ...request.headers };
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (choice.authorization) headers.authorization = choice.authorization;
  await journal.mark();
  const filesBefore = await listStoredFiles(t.uploadsFolder);
  const logCount = logs.length;

  const response = await t.app.inject({ method: route.method, url, headers, payload } as InjectOptions);
  // First, so that a failing check's shrinking starts from live sessions too.
  if (response.statusCode < 300 && examplesByKey.get(routeKey(route))?.endsSessions) {
    await restoreSession(choice.caller);
  }
  if (response.statusCode < 300 && route.url.startsWith('/api/school/teachers/:id/')) await restoreStaff(url);
  if (response.statusCode === 202 && route.url === '/api/classes/:id/import') {
    await awaitImportJob(response.body, choice.authorization);
  }
  const seen = statusesSeen.get(`${route.method} ${route.url}`) ?? new Map<number, number>();
  seen.set(response.statusCode, (seen.get(response.statusCode) ?? 0) + 1);
  statusesSeen.set(`${route.method} ${route.url}`, seen);
  const label = `${route.method} ${url.slice(0, 200)} as ${request.token} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = undefined;
  }

  expect(response.statusCode, label).toBeLessThan(500);
  expect(errorLinesSince(logCount), `${label}: logged as an error`).toEqual([]);
  expect(response.body, `${label}: a password hash`).not.toContain('$argon2');
  expect(await foreignAnswerKeys(t.database, choice.caller, body), `${label}: answer keys`).toEqual([]);
  if (response.statusCode >= 400) {
    const changes = (await journal.changesSinceMark()).map((change) => `${change.kind} ${change.table} ${change.key}`);
    expect(changes, `${label}: refused, but the database changed`).toEqual([]);
    expect(await listStoredFiles(t.uploadsFolder), `${label}: refused, but a file was stored`).toEqual(filesBefore);
    if (route.method !== 'HEAD') {
      expect(body, `${label}: not the envelope`).toMatchObject({ success: false, data: null });
      expect((body as { message?: unknown }).message, label).toEqual(expect.any(String));
    }
  }
  expectUnpollutedPrototype();
}

const assertOptions = () => ({
  numRuns: RUNS,
  seed: SEED,
  ...(PATH ? { path: PATH, endOnFailure: true } : {}),
  ...(ROUTE_TIME_LIMIT_MS ? { interruptAfterTimeLimit: ROUTE_TIME_LIMIT_MS, markInterruptAsFailure: false } : {}),
});
const TEST_TIMEOUT_MS = patience(Math.max(60_000, RUNS * 3_000));

describe('fuzzing every registered /api route', () => {
  for (const route of apiRoutes) {
    it(`${route.method} ${route.url}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const seed = seeds.get(routeKey(route));
      if (!seed) throw new Error(`${routeKey(route)}: no example in testing/route-examples.ts`);
      const arbitrary = fuzzRequest(route.url, seed, {
        ids: fixtureIds,
        tokens: Object.keys(tokenChoices),
        ghostOf: (caller) =>
          caller.startsWith('teacher') ? 'ghost teacher' : caller.startsWith('student') ? 'ghost student' : undefined,
      });
      // One hostile change at each place a value goes first, then random requests.
      const credentials = ['ghost teacher', 'ghost student', 'anonymous', 'expired'];
      const examples = singlePointRequests(route.url, seed, credentials).map((request): [FuzzRequest] => [request]);
      await fc.assert(
        fc.asyncProperty(arbitrary, (request) => sendAndCheck(route, request)),
        // fast-check counts examples among the runs: the random ones come on top.
        { ...assertOptions(), examples, numRuns: RUNS + examples.length },
      );
      // The server keeps answering, and a valid call still works.
      expect((await t.call({ method: 'GET', url: '/api/health' })).status).toBe(200);
      const profile = await t.call({
        method: 'POST',
        url: '/api/teacher/get-teacher-by-id',
        headers: authOf(school.callers.teacher1),
      });
      expect(profile.status).toBe(200);
    });
  }
});

describe('fuzzing the meeting socket', () => {
  const REFUSALS = new Set<number>(
    Object.entries(CLOSE_CODES)
      .filter(([reason]) => reason !== 'SERVER_ERROR' && reason !== 'GOING_AWAY')
      .map(([, code]) => code),
  );
  /** Joins class A's room (the school's, decision 035); the room is known once the school is built. */
  const joinOf = (roomId: string) => ({
    type: 'join',
    protocolVersion: PROTOCOL_VERSION,
    roomId,
    media: { mic: true, camera: false, screen: false },
  });

  /** Connects, sends the messages, and resolves with the close code (or 'open' if still open after a moment). */
  async function socketOutcome(token: string, messages: (string | Buffer)[]): Promise<number | 'open'> {
    let closedWith: number | undefined;
    let onClose: () => void = () => {};
    const socket: WebSocket = await t.app.injectWS(
      `/api/meetings/ws?token=${encodeText(token)}`,
      {},
      {
        onInit: (client) =>
          client.on('close', (code) => {
            closedWith = code;
            onClose();
          }),
      },
    );
    for (const message of messages) if (closedWith === undefined) socket.send(message);
    await new Promise<void>((resolve) => {
      onClose = resolve;
      if (closedWith !== undefined) resolve();
      setTimeout(resolve, 80);
    });
    socket.terminate();
    return closedWith ?? 'open';
  }

  it(
    'malformed tokens and messages end in a protocol close code, never a server error',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const ticket = await t.call({
        method: 'POST',
        url: `/api/meetings/${school.meetingRoom}/token`,
        headers: authOf(school.callers.teacher1),
      });
      const meetingToken = ticket.body.data.token as string;
      const validJoin = joinOf(school.meetingRoom);
      // What a joined participant sends (valid), each as a starting point for mutations.
      const followUps = [
        { type: 'chat', text: 'hello' },
        { type: 'offer', to: 'nobody-here', sdp: 'v=0' },
        { type: 'answer', to: 'nobody-here', sdp: 'v=0' },
        { type: 'candidate', to: 'nobody-here', candidate: { candidate: '', sdpMid: '0', sdpMLineIndex: 0 } },
        { type: 'media-state', state: { mic: true, camera: true, screen: false } },
        { type: 'leave' },
      ];
      const first = fc.oneof(
        { weight: 4, arbitrary: fc.constant(JSON.stringify(validJoin)) },
        { weight: 3, arbitrary: mutatedJsonText(validJoin) },
        { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
        { weight: 1, arbitrary: weirdString },
      );
      const next = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...followUps.map((message) => JSON.stringify(message))) },
        { weight: 3, arbitrary: fc.constantFrom(...followUps).chain((message) => mutatedJsonText(message)) },
        { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
        { weight: 1, arbitrary: weirdString },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
        { weight: 1, arbitrary: fc.constant('x'.repeat(140_000)) },
        { weight: 1, arbitrary: fc.constant('{"__proto__":{"polluted":"yes"},"type":"chat","text":"x"}') },
      );
      const session = school.callers.studentB.token!;
      const token = fc.oneof(
        { weight: 4, arbitrary: fc.constant(meetingToken) },
        fc.constantFrom(session, `${meetingToken}x`, ''),
        weirdString,
      );
      const property = fc.asyncProperty(
        token,
        fc.tuple(first, fc.array(next, { maxLength: 4 })).map(([opening, rest]) => [opening, ...rest]),
        async (tokenValue, messages) => {
          const logCount = logs.length;
          const outcome = await socketOutcome(tokenValue, messages);
          if (outcome !== 'open') expect(REFUSALS.has(outcome), `closed with ${outcome}`).toBe(true);
          expect(errorLinesSince(logCount)).toEqual([]);
          expectUnpollutedPrototype();
        },
      );
      // Every follow-up after a valid join, as is and with a NUL in each of its texts.
      const join = JSON.stringify(validJoin);
      const examples: [string, (string | Buffer)[]][] = followUps.flatMap((message) => [
        [meetingToken, [join, JSON.stringify(message)]],
        [meetingToken, [join, JSON.stringify(message).replaceAll('":"', '":"\u0000')]],
      ]);
      await fc.assert(property, { ...assertOptions(), examples, numRuns: RUNS + examples.length });
      expect((await t.call({ method: 'GET', url: '/api/health' })).status).toBe(200);
    },
  );
});

describe('fuzzing raw HTTP', () => {
  /** Sends bytes over a real socket; resolves with the status line's code, or null if the server just hung up. */
  function sendRaw(port: number, bytes: string): Promise<number | null> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      const timer = setTimeout(() => socket.destroy(), patience(2_000));
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('close', () => {
        clearTimeout(timer);
        const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
        resolve(match ? Number(match[1]) : null);
      });
      socket.on('error', () => undefined);
      socket.end(bytes, 'latin1');
    });
  }

  it(
    'malformed request lines, headers and framing get a 4xx or a closed connection, never a 5xx',
    { timeout: TEST_TIMEOUT_MS },
    async () => {
      const port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
      const paths = apiRoutes.map((route) => route.url.replace(/:[a-zA-Z]+/g, school.quiz1.id));
      const requestLine = fc.tuple(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'FOO', 'G T'),
        fc.oneof(
          fc.constantFrom(...paths),
          fc.constantFrom(
            '*',
            '/api/quiz/%',
            '/api/../api/health',
            'http://evil.test/api/health',
            '//api/health',
            '/api/health?%',
            '/api/%00',
          ),
          weirdString.map((text) => `/api/${text}`),
        ),
        fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', ''),
      );
      const header = fc.oneof(
        fc.constantFrom(
          'Content-Length: -1',
          'Content-Length: 5\r\nContent-Length: 6',
          'Content-Length: 99999999999999999999',
          'Transfer-Encoding: chunked',
          'Transfer-Encoding: chunked\r\nContent-Length: 3',
          'Transfer-Encoding: gzip, chunked',
          'Content-Type: application/json',
          'Content-Type: multipart/form-data; boundary=x',
          'Expect: 100-continue',
          'X Bad Name: 1',
          `X-Long: ${'a'.repeat(20_000)}`,
          `Authorization: Bearer ${school.callers.teacher1.token}`,
        ),
        weirdString.map((text) => `X-Fuzz: ${text}`),
      );
      const body = fc.oneof(
        fc.constant(''),
        fc.constantFrom('{"a":1}', 'zz\r\nnot chunked\r\n', '0\r\n\r\n', '{'),
        weirdString,
      );
      const property = fc.asyncProperty(
        requestLine,
        fc.array(header, { maxLength: 3 }),
        body,
        async ([method, target, version], headers, content) => {
          const raw = `${method} ${target} ${version}\r\nHost: 127.0.0.1\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n${content}`;
          const logCount = logs.length;
          const status = await sendRaw(port, raw);
          if (status !== null) expect(status, raw.slice(0, 200)).toBeLessThan(500);
          expect(errorLinesSince(logCount)).toEqual([]);
        },
      );
      await fc.assert(property, assertOptions());
      expect((await t.call({ method: 'GET', url: '/api/health' })).status).toBe(200);
    },
  );
});
