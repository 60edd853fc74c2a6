import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardServerMessage, BoardStroke, BoardTicket } from '#shared/class-boards';
import { toBuffer } from '../../realtime/room-socket.ts';
import { buildSchoolSetup, buildStudentRegistration } from '../../testing/factories.ts';
import { patience } from '../../testing/patience.ts';
import { createScratchDatabase } from '../../testing/postgres-databases.ts';
import { callJson, startServerProcess, type ServerProcess } from '../../testing/server-process.ts';
import { BoardTestPage, strokeBy } from './board-test-client.ts';

/**
 * Issue 35 point 5: "an instance dying loses no acknowledged stroke". The real server process is
 * killed with SIGKILL in the middle of a page's burst of strokes, as soon as KILL_AFTER_SAVED of
 * them were acknowledged (`saved`, sent after the commit). On PGlite the server is started again
 * on the same data; on PostgreSQL with Redis (TEST_DATABASE_URL and TEST_REDIS_URL), a second
 * instance goes on: a person on it keeps every acknowledged stroke, and so does a late joiner
 * there (the stored board). Every stroke found is whole; the unacknowledged may be there or not.
 */
const STROKES = 40;
const KILL_AFTER_SAVED = 10;

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const temporaryDataDir = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-board-durability-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return path.join(root, 'data');
};

async function startInstance(environment: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(environment);
  cleanups.push(() => server.kill());
  return server;
}

/** The school's first teacher, a class, and the teacher's page on its board with page p1 saved. */
async function teacherOnBoard(server: ServerProcess) {
  const teacher = buildSchoolSetup();
  expect((await callJson(server.baseUrl, 'POST', '/api/school/setup', { body: teacher })).status).toBe(201);
  const token = (await callJson(server.baseUrl, 'POST', '/api/teacher/login', { body: teacher })).body.data as string;
  const made = await callJson(server.baseUrl, 'POST', '/api/classes', { token, body: { name: 'Durable board' } });
  expect(made.status).toBe(201);
  const classId = made.body.data._id as string;
  const authorId = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sub as string;
  const page = await openPage(server, token, classId);
  page.addPage('p1');
  await page.saved();
  return { token, classId, classCode: made.body.data.joinCode as string, authorId, page };
}

/** A student of the class (the watcher: the teacher opening the board elsewhere would replace their page). */
async function studentOf(server: ServerProcess, classCode: string): Promise<string> {
  const student = buildStudentRegistration({ classCode });
  expect((await callJson(server.baseUrl, 'POST', '/api/student/register', { body: student })).status).toBe(201);
  const login = await callJson(server.baseUrl, 'POST', '/api/student/login', { body: student });
  expect(login.status).toBe(200);
  return login.body.data as string;
}

async function openPage(server: ServerProcess, token: string, classId: string): Promise<BoardTestPage> {
  const ticket = await callJson(server.baseUrl, 'POST', `/api/class-boards/${classId}/token`, { token, body: {} });
  expect(ticket.status).toBe(200);
  const page = await BoardTestPage.open(server.baseUrl, (ticket.body.data as BoardTicket).token);
  cleanups.push(() => page.close());
  return page;
}

/**
 * Draws STROKES strokes at once, each its own update (its own `ref`), and kills `server` as soon
 * as KILL_AFTER_SAVED were acknowledged. Returns the strokes drawn and the ids acknowledged.
 */
async function burstThenKill(server: ServerProcess, page: BoardTestPage, authorId: string) {
  const strokeOfRef = new Map<number, BoardStroke>();
  const acknowledged = new Set<string>();
  page.client.socket.on('message', (raw) => {
    const message = JSON.parse(toBuffer(raw).toString('utf8')) as BoardServerMessage;
    if (message.type !== 'saved') return;
    const stroke = strokeOfRef.get(message.ref);
    if (!stroke) return;
    acknowledged.add(stroke.id);
    if (acknowledged.size === KILL_AFTER_SAVED) server.kill();
  });
  const drawn: BoardStroke[] = [];
  for (let index = 0; index < STROKES; index += 1) {
    const stroke = strokeBy(authorId, 50, `k${index}-${randomBytes(3).toString('hex')}`);
    page.draw('p1', stroke);
    strokeOfRef.set(page.lastRef, stroke);
    drawn.push(stroke);
  }
  await server.exited;
  expect(server.child.signalCode).toBe('SIGKILL');
  // What arrived before the kill is all this page was told: acknowledgements read from here on are none.
  return { drawn, acknowledged: new Set(acknowledged) };
}

/** Every acknowledged stroke is on `page`'s p1, and each stroke there is one drawn, whole. */
function expectKept(page: BoardTestPage, drawn: readonly BoardStroke[], acknowledged: ReadonlySet<string>) {
  const byId = new Map(drawn.map((stroke) => [stroke.id, stroke]));
  const found = page.strokes('p1').toArray();
  for (const stroke of found) expect(stroke).toEqual(byId.get(stroke.id));
  const foundIds = new Set(found.map((stroke) => stroke.id));
  for (const id of acknowledged) expect(foundIds.has(id), `acknowledged stroke ${id} is kept`).toBe(true);
  console.info(
    `board durability: ${acknowledged.size} of ${drawn.length} strokes acknowledged before the kill, ${found.length} kept`,
  );
}

describe('an instance killed in the middle of a burst of strokes', () => {
  it(
    'PGlite: started again on its data, the board has every acknowledged stroke, each whole',
    { timeout: patience(120_000) },
    async () => {
      const environment = { DATA_DIR: temporaryDataDir() };
      const first = await startInstance(environment);
      const { token, classId, authorId, page } = await teacherOnBoard(first);
      const { drawn, acknowledged } = await burstThenKill(first, page, authorId);
      expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_SAVED);

      const again = await startInstance(environment);
      const late = await openPage(again, token, classId);
      await late.until((board) => board.strokeIds('p1').length >= acknowledged.size, 'the acknowledged strokes');
      expectKept(late, drawn, acknowledged);
    },
  );

  const isScaledOut = !!process.env.TEST_DATABASE_URL && !!process.env.TEST_REDIS_URL;
  it.skipIf(!isScaledOut)(
    'PostgreSQL and Redis: a person on the other instance, and a late joiner there, have every acknowledged stroke',
    { timeout: patience(120_000) },
    async () => {
      const database = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'studyhall_board_durability');
      cleanups.push(() => database.drop());
      // Two instances as `npm run cluster` runs them: one database, one Redis, one secret.
      const environment = {
        DATA_DIR: temporaryDataDir(),
        DATABASE_URL: database.url,
        REDIS_URL: process.env.TEST_REDIS_URL!,
        JWT_SECRET: randomBytes(32).toString('hex'),
      };
      const first = await startInstance(environment);
      const second = await startInstance({ ...environment, DATA_DIR: temporaryDataDir() });
      const { token, classId, classCode, authorId, page } = await teacherOnBoard(first);
      const watcher = await openPage(second, await studentOf(second, classCode), classId);
      await watcher.until((board) => board.pages.has('p1'), 'page p1 on the second instance');

      const { drawn, acknowledged } = await burstThenKill(first, page, authorId);
      expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_SAVED);
      await watcher.until(
        (board) => [...acknowledged].every((id) => board.strokeIds('p1').includes(id)),
        'the acknowledged strokes on the second instance',
        10_000,
      );
      expectKept(watcher, drawn, acknowledged);

      const late = await openPage(second, token, classId);
      await late.until((board) => board.strokeIds('p1').length >= acknowledged.size, 'the stored strokes');
      expectKept(late, drawn, acknowledged);
    },
  );
});
