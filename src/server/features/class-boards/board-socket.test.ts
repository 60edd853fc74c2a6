import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import {
  CLASS_BOARD_CLOSE_CODES,
  CLASS_BOARD_LIMITS,
  CLASS_BOARD_PROTOCOL_VERSION,
  CLASS_BOARD_SOCKET_PATH,
  type BoardServerMessage,
  type BoardStroke,
  type BoardTicket,
} from '#shared/class-boards';
import { classBoards, classBoardUpdates } from '../../db/schema.ts';
import { openRoomSocket, RoomTestClient } from '../../realtime/room-test-client.ts';
import { TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { twoInstancesOnRedis } from '../../realtime/test-instances.ts';
import { classTaughtBy, signUpTeacher } from '../../testing/actors.ts';
import { patience } from '../../testing/patience.ts';
import { bearer, createTestApp, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { addStudents, type Player } from '../live-games/live-game-testing.ts';
import { boardDocFrom, boardJson } from './board-document.ts';
import { BoardTestPage, strokeBy } from './board-test-client.ts';
import { createBoardTokens } from './board-tokens.ts';
import { createClassBoards } from './service.ts';

/**
 * The class board over real sockets on the room transport (issue 35, decision 069): people
 * syncing strokes, a late joiner, the pen (a forged update refused and nothing stored), bad
 * updates (random bytes, a valid Yjs update off the schema) refused with the stored document
 * intact, the size limits, compaction, the token's 404, and two instances on one Redis.
 */

const COMPACT_AFTER = 8;
const MEMBERSHIP_CHECK_MS = 200;
let t: TestApp;
let baseUrl: string;
const pages: BoardTestPage[] = [];
const boardTokens = createBoardTokens(TEST_JWT_SECRET);

beforeAll(async () => {
  t = await createTestApp({
    classBoards: { limits: { compactAfterUpdates: COMPACT_AFTER, membershipCheckMs: MEMBERSHIP_CHECK_MS } },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  for (const page of pages.splice(0)) page.close();
});

type Teacher = Awaited<ReturnType<typeof signUpTeacher>>;

/** A class with a teacher and a co-teacher (signed up) and students (made in the database). */
async function boardClass(app: TestApp = t, students = 2) {
  const teacher = await signUpTeacher(app);
  const coTeacher = await signUpTeacher(app);
  const klass = await classTaughtBy(app, teacher, [coTeacher]);
  const players = await addStudents(app, klass.id, students, 'Pupil');
  return { teacher, coTeacher, classId: klass.id, students: players };
}

async function teacherTicket(app: TestApp, teacher: Teacher, classId: string): Promise<BoardTicket> {
  const issued = await app.call({
    method: 'POST',
    url: `/api/class-boards/${classId}/token`,
    headers: bearer(teacher.token),
  });
  expect(issued.status, issued.raw).toBe(200);
  return (issued.body as { data: BoardTicket }).data;
}

/** A student's room token, as POST …/token mints it (these students never sign in). */
async function studentToken(classId: string, student: Player) {
  const { token } = await boardTokens.issue({
    sub: student.id,
    role: 'student',
    name: student.name,
    room: classId,
    sv: 0,
    teacher: false,
  });
  return token;
}

async function open(url: string, token: string) {
  const page = await BoardTestPage.open(url, token);
  pages.push(page);
  return page;
}

async function openAsTeacher(teacher: Teacher, classId: string, url = baseUrl, app = t) {
  return open(url, (await teacherTicket(app, teacher, classId)).token);
}

/** The board as the database has it (snapshot and updates), as plain data. */
async function storedBoard(classId: string, app: TestApp = t) {
  const stored = await createClassBoards(app.database.db).load(classId);
  return boardJson(boardDocFrom(stored.updates));
}

async function setPen(teacher: Teacher, classId: string, mode: string, studentIds: string[] = []) {
  const set = await t.call({
    method: 'PUT',
    url: `/api/class-boards/${classId}/pen`,
    headers: bearer(teacher.token),
    payload: { mode, studentIds },
  });
  expect(set.status, set.raw).toBe(200);
  return set.body.data as { mode: string; studentIds: string[] };
}

/** A teacher's page with one page of the board, stored. */
async function teacherWithPage(teacher: Teacher, classId: string, url = baseUrl, app = t) {
  const page = await openAsTeacher(teacher, classId, url, app);
  await page.client.waitFor('sync');
  page.addPage('p1', 'Fractions');
  await page.saved();
  return page;
}

const strokeIds = (page: BoardTestPage, pageId = 'p1') => page.strokeIds(pageId);

describe('the class board socket', () => {
  it('syncs a stroke between two people, both ways once the pen is everyone’s, and stores it', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    expect(board.welcome).toMatchObject({ you: { teacher: true, canDraw: true }, pen: { mode: 'teachers' } });
    const pupil = await open(baseUrl, await studentToken(classId, students[0]!));
    expect(pupil.welcome.you).toMatchObject({ teacher: false, canDraw: false });
    await pupil.until((page) => page.pages.has('p1'), 'the page');

    // An update with nothing new: saved, nothing stored.
    const ref = board.sendSync(syncProtocol.messageYjsUpdate, Y.encodeStateAsUpdate(new Y.Doc()));
    await board.saved(ref);
    board.draw('p1', strokeBy(teacher.profile._id, 50, 'teacher-1'));
    await pupil.until((page) => strokeIds(page).includes('teacher-1'), 'the teacher’s stroke');

    await setPen(teacher, classId, 'everyone');
    expect(await pupil.client.waitFor('pen')).toMatchObject({ pen: { mode: 'everyone' }, canDraw: true });
    pupil.draw('p1', strokeBy(students[0]!.id, 20, 'pupil-1'));
    await board.until((page) => strokeIds(page).includes('pupil-1'), 'the pupil’s stroke');
    await pupil.saved();
    expect(await storedBoard(classId)).toEqual(board.json());
  });

  it('gives a late joiner the whole board', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    board.addPage('p2', 'Decimals', 2);
    for (let index = 0; index < 5; index++) board.draw(index % 2 ? 'p1' : 'p2', strokeBy(teacher.profile._id));
    board.strokes('p2').delete(0, 1); // erased
    await board.saved();
    board.close();

    const late = await open(baseUrl, await studentToken(classId, students[1]!));
    await late.until((page) => page.pages.size === 2 && page.strokes('p2').length === 2, 'the whole board');
    expect(late.json()).toEqual(board.json());
  });

  it('refuses the forged update of a student without the pen, stores a teacher’s; awareness still goes', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    const pupil = await open(baseUrl, await studentToken(classId, students[0]!));
    await pupil.until((page) => page.pages.has('p1'));
    const before = await storedBoard(classId);

    // The page's UI would not let them: the client is forged, the server must refuse.
    pupil.draw('p1', strokeBy(students[0]!.id, 10, 'forged'));
    expect(await pupil.client.waitFor('error')).toMatchObject({ code: 'NO_PEN' });
    expect(await storedBoard(classId)).toEqual(before);

    // Their cursor still reaches the others, with the name the token gives.
    pupil.awareness.setLocalState({ cursor: { x: 10, y: 20 }, user: { name: 'Someone else' } });
    await board.until(() => [...board.awareness.getStates().values()].some((state) => state.cursor?.x === 10));
    const seen = [...board.awareness.getStates().values()].find((state) => state.cursor);
    expect(seen?.user).toEqual({ id: students[0]!.id, name: students[0]!.name, teacher: false });

    board.draw('p1', strokeBy(teacher.profile._id, 10, 'by-teacher'));
    await board.saved();
    const stored = (await storedBoard(classId)) as { p1: { strokes: { id: string }[] } };
    expect(stored.p1.strokes.map((stroke) => stroke.id)).toEqual(['by-teacher']);
    expect(pupil.client.received('error')).toEqual([]);
  });

  it('lets a student the teacher hands the pen to draw; pages stay the teachers’', async () => {
    const { teacher, classId, students } = await boardClass();
    const [ada, ben] = students as [Player, Player];
    const board = await teacherWithPage(teacher, classId);
    const onAda = await open(baseUrl, await studentToken(classId, ada));
    const onBen = await open(baseUrl, await studentToken(classId, ben));
    await onAda.until((page) => page.pages.has('p1'));

    const pen = await setPen(teacher, classId, 'named', [ada.id, randomUUIDLike()]);
    expect(pen).toEqual({ classId, mode: 'named', studentIds: [ada.id] });
    expect(await onAda.client.waitFor('pen')).toMatchObject({ canDraw: true });
    expect(await onBen.client.waitFor('pen')).toMatchObject({ canDraw: false });
    onAda.draw('p1', strokeBy(ada.id, 30, 'ada-1'));
    await onAda.saved();
    await board.until((page) => strokeIds(page).includes('ada-1'));

    // Ben was not named.
    onBen.draw('p1', strokeBy(ben.id, 5, 'ben-1'));
    expect(await onBen.client.waitFor('error')).toMatchObject({ code: 'NO_PEN' });

    // A page is the teachers' to add, even with the pen.
    onAda.addPage('p-ada', 'Mine');
    expect(await onAda.client.waitFor('error')).toMatchObject({ code: 'NOT_A_TEACHER' });
    const stored = (await storedBoard(classId)) as Record<string, { strokes: { id: string }[] }>;
    expect(Object.keys(stored)).toEqual(['p1']);
    expect(stored.p1!.strokes.map((stroke) => stroke.id)).toEqual(['ada-1']);

    const get = await t.call({
      method: 'GET',
      url: `/api/class-boards/${classId}/pen`,
      headers: bearer(teacher.token),
    });
    expect(get.body.data).toEqual({ classId, mode: 'named', studentIds: [ada.id] });
  });

  it('lets a teacher bring back a student’s cleared stroke (an undo); a student with the pen adds only theirs', async () => {
    const { teacher, classId, students } = await boardClass();
    const [ada, ben] = students as [Player, Player];
    const board = await teacherWithPage(teacher, classId);
    await setPen(teacher, classId, 'everyone');
    const onAda = await open(baseUrl, await studentToken(classId, ada));
    await onAda.until((page) => page.pages.has('p1'));
    const adas = strokeBy(ada.id, 30, 'ada-1');
    onAda.draw('p1', adas);
    await onAda.saved();
    await board.until((page) => strokeIds(page).includes('ada-1'));

    // The teacher clears the page; their undo re-inserts the stroke as is, Ada still its author.
    board.strokes('p1').delete(0, board.strokes('p1').length);
    await board.saved();
    await onAda.until((page) => strokeIds(page).length === 0, 'the cleared page');
    board.draw('p1', adas);
    await board.saved();
    await onAda.until((page) => strokeIds(page).includes('ada-1'), 'Ada’s stroke back');
    const stored = (await storedBoard(classId)) as { p1: { strokes: { id: string; author: string }[] } };
    expect(stored.p1.strokes).toEqual([expect.objectContaining({ id: 'ada-1', author: ada.id })]);

    // Ben holds the pen too, yet a stroke naming Ada from him closes his socket; nothing stored.
    const onBen = await open(baseUrl, await studentToken(classId, ben));
    await onBen.until((page) => strokeIds(page).includes('ada-1'));
    const before = await storedBoard(classId);
    onBen.draw('p1', strokeBy(ada.id, 10, 'not-bens'));
    expect((await onBen.client.closedWithin()).code).toBe(CLASS_BOARD_CLOSE_CODES.BAD_MESSAGE);
    expect(await storedBoard(classId)).toEqual(before);
    expect(onAda.strokeIds('p1')).toEqual(['ada-1']);
  });

  it('takes a teacher’s undo of a deleted page holding a student’s stroke, and stores it whole', async () => {
    const { teacher, classId, students } = await boardClass();
    const [ada] = students as [Player];
    const board = await teacherWithPage(teacher, classId);
    await setPen(teacher, classId, 'everyone');
    const onAda = await open(baseUrl, await studentToken(classId, ada));
    await onAda.until((page) => page.pages.has('p1'));
    onAda.draw('p1', strokeBy(ada.id, 30, 'ada-1'));
    await onAda.saved();
    await board.until((page) => strokeIds(page).includes('ada-1'));
    board.draw('p1', strokeBy(teacher.profile._id, 30, 'teacher-1'));
    await board.saved();

    // The teacher's own undo (Yjs's UndoManager, as the page's session keeps one per person).
    const undo = new Y.UndoManager(board.pages);
    board.pages.delete('p1');
    await board.saved();
    await onAda.until((page) => !page.pages.has('p1'), 'the deleted page');
    undo.undo();
    await board.saved();
    await onAda.until((page) => strokeIds(page).length === 2, 'the page back, both strokes on it');
    expect(onAda.json()).toEqual(board.json());
    const stored = (await storedBoard(classId)) as { p1: { strokes: { id: string; author: string }[] } };
    expect(stored.p1.strokes).toEqual([
      expect.objectContaining({ id: 'ada-1', author: ada.id }),
      expect.objectContaining({ id: 'teacher-1', author: teacher.profile._id }),
    ]);
  });

  it('closes on random bytes and on valid Yjs updates off the schema; the stored board stays intact', async () => {
    const { teacher, coTeacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    board.draw('p1', strokeBy(teacher.profile._id, 10, 'kept'));
    await board.saved();
    const forger = coTeacher.profile._id;
    const watcher = await open(baseUrl, await studentToken(classId, students[0]!));
    await watcher.until((page) => strokeIds(page).includes('kept'));
    const before = await storedBoard(classId);

    const forged: [string, (doc: Y.Doc) => void][] = [
      ['a text root', (doc) => doc.getText('notes').insert(0, 'hello')],
      ['a stroke without points', (doc) => strokes(doc).push([{ ...strokeBy(forger), points: [] }])],
      // (A stroke of someone else's is a teacher's to add: see the undo of a clear below.)
      ['a stroke off the board', (doc) => strokes(doc).push([{ ...strokeBy(forger), points: [1e9, 0] }])],
      ['a stroke with more', (doc) => strokes(doc).push([{ ...strokeBy(forger), note: 'x' }])],
      ['a page without a name', (doc) => pagesOf(doc).set('p9', withKeys({ order: 1, strokes: new Y.Array() }))],
      ['a page’s strokes replaced', (doc) => pagesOf(doc).get('p1')!.set('strokes', new Y.Array())],
      [
        'a text in a page',
        (doc) =>
          pagesOf(doc)
            .get('p1')!
            .set('name', new Y.Text('x') as never),
      ],
    ];
    // From the co-teacher's pages: the teacher's own stays open (one seat per person).
    const send = async (label: string, data: Uint8Array, wrap = true) => {
      const page = await openAsTeacher(coTeacher, classId);
      await page.client.waitFor('sync');
      page.isSending = false;
      if (wrap) page.sendSync(syncProtocol.messageYjsUpdate, data);
      else page.send(data);
      expect((await page.client.closedWithin()).code, label).toBe(CLASS_BOARD_CLOSE_CODES.BAD_MESSAGE);
    };
    // An update's type, then bytes that are no update.
    await send('random bytes', Uint8Array.from([2, ...randomBytes(200)]), false);
    await send('random bytes as an update', randomBytes(500));
    for (const [label, forge] of forged) {
      // An update made on a copy of the stored board, so that it applies.
      const copy = boardDocFrom([Y.encodeStateAsUpdate(boardDocFrom((await boardsStore().load(classId)).updates))]);
      const vector = Y.encodeStateVector(copy);
      forge(copy);
      await send(label, Y.encodeStateAsUpdate(copy, vector));
    }
    expect(await storedBoard(classId)).toEqual(before);
    // Nothing refused reached anyone; the board carries on.
    expect(watcher.json()).toEqual(before);
    board.draw('p1', strokeBy(teacher.profile._id, 10, 'after'));
    await watcher.until((page) => strokeIds(page).includes('after'));
  });

  it('binds a Yjs client id to its first user: another’s updates with it refused, nothing stored, the socket kept', async () => {
    const { teacher, coTeacher, classId } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'first'));
    await board.saved();
    const other = await openAsTeacher(coTeacher, classId);
    await other.until((page) => strokeIds(page).includes('first'));
    // The co-teacher's page takes the teacher's client id (and so its next clock): a stroke of their own with it.
    other.doc.clientID = board.doc.clientID;
    other.draw('p1', strokeBy(coTeacher.profile._id, 5, 'shadow'));
    const refused = other.lastRef;
    // Sent before the refusal came, building on the refused stroke: refused alike, the socket kept.
    other.draw('p1', strokeBy(coTeacher.profile._id, 5, 'shadow-2'));
    for (const ref of [refused, other.lastRef]) {
      const error = await other.client.waitFor('error', (message) => message.ref === ref);
      expect(error).toMatchObject({ code: 'CLIENT_TAKEN' });
    }
    expect(await storedBoard(classId)).toEqual(board.json());
    // The refused page starts again from the board (its step 1) and draws.
    await drawAfresh(other, classId, strokeBy(coTeacher.profile._id, 5, 'afresh'));
    await board.until((page) => strokeIds(page).includes('afresh'));
    // The teacher draws on with their own id; the refused stroke reaches nobody.
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'second'));
    await board.saved();
    const late = await openAsTeacher(coTeacher, classId);
    await late.until((page) => strokeIds(page).includes('second'));
    expect(strokeIds(late)).toEqual(['first', 'afresh', 'second']);
    expect(await storedBoard(classId)).toEqual(board.json());
  });

  it('closes the board of a student removed from the class with FORBIDDEN; the others stay', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    const [leaving, staying] = [students[0]!, students[1]!];
    const removed = await open(baseUrl, await studentToken(classId, leaving));
    const kept = await open(baseUrl, await studentToken(classId, staying));
    await removed.until((page) => page.pages.has('p1'));
    const removal = await t.call({
      method: 'DELETE',
      url: `/api/classes/${classId}/students/${leaving.id}`,
      headers: bearer(teacher.token),
    });
    expect(removal.status, removal.raw).toBe(200);
    expect((await removed.client.closed).code).toBe(CLASS_BOARD_CLOSE_CODES.FORBIDDEN);
    // The rest of the class reads on.
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'after-removal'));
    await kept.until((page) => strokeIds(page).includes('after-removal'));
    expect(strokeIds(removed)).not.toContain('after-removal');
  });

  it('closes a message over the limit with TOO_LARGE, over the frame with FRAME_TOO_LARGE', async () => {
    const { teacher, classId } = await boardClass();
    const large = await openAsTeacher(teacher, classId);
    large.client.send({ type: 'awareness', data: 'A'.repeat(CLASS_BOARD_LIMITS.messageMaxBytes) });
    expect((await large.client.closedWithin()).code).toBe(CLASS_BOARD_CLOSE_CODES.TOO_LARGE);
    const huge = await openAsTeacher(teacher, classId);
    huge.client.send({ type: 'awareness', data: 'A'.repeat(70 * 1024) });
    expect((await huge.client.closedWithin()).code).toBe(CLASS_BOARD_CLOSE_CODES.FRAME_TOO_LARGE);
  });

  it(
    'gives a late joiner of a board near its size limit all of it, in messages under the limit',
    async () => {
      const { teacher, classId } = await boardClass();
      const { drawer, count, writer } = await bigBoard(
        teacher,
        classId,
        CLASS_BOARD_LIMITS.boardMaxBytes - 1024 * 1024,
      );
      const [row] = await t.database.db.select().from(classBoards).where(eq(classBoards.classId, classId));
      expect(row!.snapshotBytes).toBeGreaterThan(CLASS_BOARD_LIMITS.boardMaxBytes - 1024 * 1024);

      const late = await openAsTeacher(teacher, classId);
      await late.until((page) => page.strokeIds('p1').length === count, 'the whole board', 60_000);
      expect(late.json()).toEqual(boardJson(drawer));
      const syncs = late.client.history.filter((message) => message.type === 'sync');
      expect(syncs.length).toBeGreaterThan(100);
      for (const message of syncs) {
        expect(JSON.stringify(message).length).toBeLessThanOrEqual(CLASS_BOARD_LIMITS.messageMaxBytes);
      }
      // The socket is still open and in step: the late joiner's stroke is stored.
      late.draw('p1', strokeBy(writer.id, 5, 'after-the-big-sync'));
      await late.saved();
      expect(late.client.inbox.filter((message) => message.type === 'error')).toEqual([]);
    },
    patience(60_000),
  );

  it('compacts after the threshold into one snapshot, the board the same', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    for (let index = 0; index < COMPACT_AFTER + 2; index++) board.draw('p1', strokeBy(teacher.profile._id));
    board.strokes('p1').delete(1, 3);
    await board.saved();
    const [row] = await waitForCompaction(classId);
    expect(row!.snapshotSeq).toBeGreaterThanOrEqual(COMPACT_AFTER);

    const size = await boardsStore().compact(classId);
    const [after] = await t.database.db.select().from(classBoards).where(eq(classBoards.classId, classId));
    expect(after).toMatchObject({ logCount: 0, logBytes: 0, snapshotSeq: after!.lastSeq, snapshotBytes: size });
    expect(await t.database.db.select().from(classBoardUpdates).where(eq(classBoardUpdates.classId, classId))).toEqual(
      [],
    );
    expect(await storedBoard(classId)).toEqual(board.json());
    const late = await open(baseUrl, await studentToken(classId, students[0]!));
    await late.until((page) => page.strokeIds('p1').length === COMPACT_AFTER - 1);
    expect(late.json()).toEqual(board.json());
    // The board goes on from the snapshot.
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'after-compaction'));
    await late.until((page) => strokeIds(page).includes('after-compaction'));
  });

  it('gives a room token to the class’s teachers and students only: 404 to anyone else', async () => {
    const { teacher, classId } = await boardClass();
    const other = await boardClass();
    const outsider = await signUpTeacher(t);
    const ticket = await teacherTicket(t, teacher, classId);
    expect(ticket).toMatchObject({ classId, teacher: true });
    for (const token of [outsider.token, other.teacher.token]) {
      const refused = await t.call({
        method: 'POST',
        url: `/api/class-boards/${classId}/token`,
        headers: bearer(token),
      });
      expect(refused.status).toBe(404);
    }
    const pen = await t.call({
      method: 'PUT',
      url: `/api/class-boards/${classId}/pen`,
      headers: bearer(outsider.token),
      payload: { mode: 'everyone' },
    });
    expect(pen.status).toBe(403);
  });
});

let store: ReturnType<typeof createClassBoards> | undefined;
const boardsStore = () => (store ??= createClassBoards(t.database.db));
const randomUUIDLike = () => '00000000-0000-4000-8000-000000000000';
const pagesOf = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>('pages');
const strokes = (doc: Y.Doc) => pagesOf(doc).get('p1')!.get('strokes') as Y.Array<unknown>;
const withKeys = (entries: Record<string, unknown>) => {
  const map = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(entries)) map.set(key, value);
  return map;
};

/** A board of `bytes` of strokes of 1,000 points, straight into the store (a socket would take minutes), compacted. */
async function bigBoard(teacher: Teacher, classId: string, bytes: number) {
  const board = await teacherWithPage(teacher, classId);
  board.close();
  const store = createClassBoards(t.database.db);
  const drawer = boardDocFrom((await store.load(classId)).updates);
  const strokes = (drawer.getMap('pages').get('p1') as Y.Map<unknown>).get('strokes') as Y.Array<BoardStroke>;
  const writer = { id: teacher.profile._id, teacher: true };
  let count = 0;
  for (let stored = 0; stored < bytes;) {
    const before = Y.encodeStateVector(drawer);
    drawer.transact(() => {
      for (let index = 0; index < 100; index++) {
        const stroke = strokeBy(writer.id, 1000, `big${count++}`);
        stroke.points = stroke.points.map(() => Math.floor(Math.random() * 200_000) - 100_000);
        strokes.push([stroke]);
      }
    });
    const update = Y.encodeStateAsUpdate(drawer, before);
    expect(await store.append(classId, writer, update, 'strokes')).toHaveProperty('seq');
    stored += update.byteLength;
  }
  await store.compact(classId);
  return { drawer, count, writer };
}

/** An update made on a copy of the stored board: `change` it, and the update of what it did. */
async function onStoredCopy(classId: string, change: (doc: Y.Doc) => void) {
  const copy = boardDocFrom((await boardsStore().load(classId)).updates);
  const vector = Y.encodeStateVector(copy);
  change(copy);
  return { copy, update: Y.encodeStateAsUpdate(copy, vector) };
}

/**
 * What a page does after a refusal: drops its copy, sends a step 1 from a fresh one, and draws
 * on that; resolves once the stroke is saved (the socket kept, the refusal behind it).
 */
async function drawAfresh(page: BoardTestPage, classId: string, stroke: BoardStroke) {
  page.sendSync(syncProtocol.messageYjsSyncStep1, Y.encodeStateVector(new Y.Doc()));
  const { update } = await onStoredCopy(classId, (doc) => strokes(doc).push([stroke]));
  await page.saved(page.sendSync(syncProtocol.messageYjsUpdate, update));
}

const storedStrokeIds = async (classId: string) =>
  ((await storedBoard(classId)) as { p1: { strokes: { id: string }[] } }).p1.strokes.map((stroke) => stroke.id);

async function waitForCompaction(classId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const rows = await t.database.db.select().from(classBoards).where(eq(classBoards.classId, classId));
    if (rows[0] && rows[0].snapshotSeq > 0) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no compaction');
}

describe('the class board socket’s refusals and joins', () => {
  it('refuses a student’s updates alike once the pen was taken back behind this instance’s back', async () => {
    const { teacher, classId, students } = await boardClass();
    await teacherWithPage(teacher, classId);
    await setPen(teacher, classId, 'everyone');
    const ada = students[0]!;
    const onAda = await open(baseUrl, await studentToken(classId, ada));
    await onAda.until((page) => page.pages.has('p1'));
    // The pen taken back in the database only: this instance's copy of it still says Ada draws.
    await t.database.db.update(classBoards).set({ penMode: 'teachers' }).where(eq(classBoards.classId, classId));
    onAda.draw('p1', strokeBy(ada.id, 5, 'a1'));
    const refused = onAda.lastRef;
    onAda.draw('p1', strokeBy(ada.id, 5, 'a2'));
    for (const ref of [refused, onAda.lastRef]) {
      expect(await onAda.client.waitFor('error', (message) => message.ref === ref)).toMatchObject({ code: 'NO_PEN' });
    }
    expect(await storedStrokeIds(classId)).toEqual([]);
    await setPen(teacher, classId, 'everyone');
    await drawAfresh(onAda, classId, strokeBy(ada.id, 5, 'a3'));
    expect(await storedStrokeIds(classId)).toEqual(['a3']);
  });

  it('refuses a page over the most pages with PAGES_FULL, the socket kept', async () => {
    const { teacher, classId } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    board.doc.transact(() => {
      for (let index = 2; index <= CLASS_BOARD_LIMITS.pagesMax; index++) board.addPage(`p${index}`, 'Page', index);
    });
    await board.saved();
    board.addPage('one-more', 'Page', 99);
    expect(await board.client.waitFor('error')).toMatchObject({ code: 'PAGES_FULL', ref: board.lastRef });
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'after-the-page'));
    expect(await board.client.waitFor('error')).toMatchObject({ code: 'PAGES_FULL', ref: board.lastRef });
    expect(Object.keys(await storedBoard(classId))).toHaveLength(CLASS_BOARD_LIMITS.pagesMax);
    await drawAfresh(board, classId, strokeBy(teacher.profile._id, 5, 'drawn'));
    expect(await storedStrokeIds(classId)).toEqual(['drawn']);
  });

  it('gives nothing of the board to someone removed from the class whose token is still valid: FORBIDDEN', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'secret'));
    await board.saved();
    const leaving = students[0]!;
    const token = await studentToken(classId, leaving);
    const removal = await t.call({
      method: 'DELETE',
      url: `/api/classes/${classId}/students/${leaving.id}`,
      headers: bearer(teacher.token),
    });
    expect(removal.status, removal.raw).toBe(200);
    const client = new RoomTestClient<BoardServerMessage>(
      await openRoomSocket(baseUrl, CLASS_BOARD_SOCKET_PATH, token),
    );
    client.send({ type: 'join', protocolVersion: CLASS_BOARD_PROTOCOL_VERSION });
    expect((await client.closedWithin()).code).toBe(CLASS_BOARD_CLOSE_CODES.FORBIDDEN);
    expect(client.history.map((message) => message.type)).toEqual([]);
  });

  it('passes on to its members what an instance catches up on from the database (a bus message missed)', async () => {
    const { teacher, coTeacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    const watcher = await open(baseUrl, await studentToken(classId, students[0]!));
    await watcher.until((page) => page.pages.has('p1'));
    // Stored by another instance, its message lost: this one learns of it by the next number.
    const { update } = await onStoredCopy(classId, (doc) =>
      strokes(doc).push([strokeBy(coTeacher.profile._id, 5, 'missed')]),
    );
    await boardsStore().append(classId, { id: coTeacher.profile._id, teacher: true }, update, 'strokes');
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'next'));
    for (const page of [watcher, board]) {
      await page.until((seen) => ['missed', 'next'].every((id) => strokeIds(seen).includes(id)), 'both strokes');
    }
  });

  it('stores a step 2 holding others’ strokes the instance had not heard of (a lagging instance)', async () => {
    const { teacher, coTeacher, classId } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    // The co-teacher's stroke, stored through another instance whose message has not come.
    const { copy, update } = await onStoredCopy(classId, (doc) =>
      strokes(doc).push([strokeBy(coTeacher.profile._id, 5, 'elsewhere')]),
    );
    await boardsStore().append(classId, { id: coTeacher.profile._id, teacher: true }, update, 'strokes');
    // The teacher's page has it (from that instance, before reconnecting here) and a stroke of its own.
    board.isSending = false;
    Y.applyUpdate(board.doc, Y.encodeStateAsUpdate(copy));
    board.draw('p1', strokeBy(teacher.profile._id, 5, 'mine'));
    await board.saved(board.sendSync(syncProtocol.messageYjsSyncStep2, Y.encodeStateAsUpdate(board.doc)));
    expect(await storedBoard(classId)).toEqual(board.json());
    expect(board.client.received('error')).toEqual([]);
  });

  it('closes a page sending awareness under another person’s client id; their cursor stays theirs', async () => {
    const { teacher, classId, students } = await boardClass();
    const board = await teacherWithPage(teacher, classId);
    const [ada, ben] = students as [Player, Player];
    const onAda = await open(baseUrl, await studentToken(classId, ada));
    const onBen = await open(baseUrl, await studentToken(classId, ben));
    onAda.awareness.setLocalState({ cursor: { x: 1, y: 2 } });
    const cursors = () => [...board.awareness.getStates().values()].filter((state) => state.cursor);
    await board.until(() => cursors().some((state) => state.cursor.x === 1), 'Ada’s cursor');
    // Ben's page takes Ada's client id, with a later clock.
    const doc = new Y.Doc();
    doc.clientID = onAda.awareness.clientID;
    const forged = new awarenessProtocol.Awareness(doc);
    for (let index = 0; index < 10; index++) forged.setLocalState({ cursor: { x: 99, y: index } });
    const data = awarenessProtocol.encodeAwarenessUpdate(forged, [doc.clientID]);
    onBen.client.send({ type: 'awareness', data: Buffer.from(data).toString('base64') });
    expect((await onBen.client.closedWithin()).code).toBe(CLASS_BOARD_CLOSE_CODES.BAD_MESSAGE);
    expect(cursors().map((state) => [state.cursor.x, state.user.id])).toEqual([[1, ada.id]]);
    forged.destroy();
  });

  it(
    'answers a page’s step 1 sent while its first sync is on its way once, after it',
    async () => {
      const { teacher, classId } = await boardClass();
      await bigBoard(teacher, classId, 3 * 1024 * 1024);
      const late = await openAsTeacher(teacher, classId);
      // A page that reads nothing: the first sync waits for it after two windows.
      late.isSending = false;
      for (let index = 0; index < 4; index++) {
        late.sendSync(syncProtocol.messageYjsSyncStep1, Y.encodeStateVector(new Y.Doc()));
      }
      await new Promise((resolve) => setTimeout(resolve, patience(1_500)));
      const stepOnes = late.client.history.filter(
        (message) => message.type === 'sync' && Buffer.from(message.data, 'base64')[0] === 0,
      );
      // The welcome's, then one at the end of each of the first sync's two windows.
      expect(stepOnes).toHaveLength(3);
    },
    patience(60_000),
  );
});

describe.skipIf(!TEST_REDIS_URL)('a class board across two instances on one Redis and one database', () => {
  const instances = twoInstancesOnRedis();

  it('shares one board: strokes from either instance reach both, and both store into one', async () => {
    const { first, firstUrl, secondUrl } = instances;
    const { teacher, classId, students } = await boardClass(first);
    const board = await teacherWithPage(teacher, classId, firstUrl, first);
    const [ada] = students as [Player];
    const onAda = await open(secondUrl, await studentToken(classId, ada));
    await onAda.until((page) => page.pages.has('p1'));
    const pen = await first.call({
      method: 'PUT',
      url: `/api/class-boards/${classId}/pen`,
      headers: bearer(teacher.token),
      payload: { mode: 'everyone' },
    });
    expect(pen.status).toBe(200);
    expect(await onAda.client.waitFor('pen')).toMatchObject({ canDraw: true });

    for (let index = 0; index < 5; index++) {
      board.draw('p1', strokeBy(teacher.profile._id, 20, `t${index}`));
      onAda.draw('p1', strokeBy(ada.id, 20, `a${index}`));
    }
    await onAda.until((page) => page.strokes('p1').length === 10, 'ten strokes on the second instance');
    await board.until((page) => page.strokes('p1').length === 10, 'ten strokes on the first');
    expect(onAda.json()).toEqual(board.json());
    await onAda.saved();
    await board.saved();
    expect(await storedBoard(classId, first)).toEqual(board.json());

    // A late joiner on the second instance gets it all.
    const late = await open(secondUrl, (await teacherTicket(first, teacher, classId)).token);
    await late.until((page) => page.strokeIds('p1').length === 10);
  });
});
