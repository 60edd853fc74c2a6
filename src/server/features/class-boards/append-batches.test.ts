import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ROOT, type BoardStroke } from '#shared/class-boards';
import { classBoards, classBoardUpdates } from '../../db/schema.ts';
import { classTaughtBy, signUpTeacher } from '../../testing/actors.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { addStudents } from '../live-games/live-game-testing.ts';
import { boardDocFrom, boardJson } from './board-document.ts';
import { createClassBoards, type AppendOutcome } from './service.ts';

/**
 * A board's updates arriving while one of its appends is in flight are appended together, in one
 * transaction (service.ts, appendAll): each checked in order as if alone, the accepted ones
 * numbered one after another, each caller answered its own outcome. On a real database.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const stroke = (author: string, id: string, points: number): BoardStroke => ({
  id,
  author,
  colour: '#1d4ed8',
  width: 3,
  points: Array.from({ length: points * 2 }, (_, index) => index * 7),
});

/** The first page of a board, as a teacher's update. */
function firstPage(): Uint8Array {
  const doc = new Y.Doc();
  const page = new Y.Map<unknown>();
  doc.transact(() => {
    page.set('name', 'Fractions');
    page.set('order', 1);
    page.set('strokes', new Y.Array<BoardStroke>());
    doc.getMap(BOARD_ROOT).set('p1', page);
  });
  return Y.encodeStateAsUpdate(doc);
}

/** A page's copy of the board using Yjs client id `clientId`: each call draws a stroke and gives its update. */
function pen(base: Uint8Array, clientId: number) {
  const doc = new Y.Doc();
  doc.clientID = clientId;
  Y.applyUpdate(doc, base);
  const strokes = (doc.getMap(BOARD_ROOT).get('p1') as Y.Map<unknown>).get('strokes') as Y.Array<BoardStroke>;
  return (drawn: BoardStroke) => {
    const before = Y.encodeStateVector(doc);
    strokes.push([drawn]);
    return Y.encodeStateAsUpdate(doc, before);
  };
}

async function board(students: number) {
  const teacher = await signUpTeacher(t);
  const { id: classId } = await classTaughtBy(t, teacher);
  const pupils = await addStudents(t, classId, students, 'Drawer');
  const store = createClassBoards(t.database.db);
  await store.load(classId);
  const page = firstPage();
  expect(await store.append(classId, { id: teacher.profile._id, teacher: true }, page, 'pages')).toMatchObject({
    seq: 1,
  });
  return { teacher: { id: teacher.profile._id, teacher: true }, classId, pupils, store, page };
}

const storedOf = (classId: string) =>
  t.database.db
    .select({ seq: classBoardUpdates.seq, update: classBoardUpdates.update, createdAt: classBoardUpdates.createdAt })
    .from(classBoardUpdates)
    .where(eq(classBoardUpdates.classId, classId))
    .orderBy(asc(classBoardUpdates.seq));

describe('appending a board’s updates in batches', () => {
  it('checks each update of a batch in order, storing the accepted ones with consecutive numbers', async () => {
    const { teacher, classId, pupils, store, page } = await board(3);
    const [ada, ben, cal] = pupils.map((pupil) => ({ id: pupil.id, teacher: false })) as [
      { id: string; teacher: boolean },
      { id: string; teacher: boolean },
      { id: string; teacher: boolean },
    ];
    await store.setPen(teacher.id, classId, { mode: 'named', studentIds: [ada.id, ben.id] });
    const [size] = await t.database.db
      .select({ snapshot: classBoards.snapshotBytes, log: classBoards.logBytes })
      .from(classBoards)
      .where(eq(classBoards.classId, classId));
    const [adaPen, benPen, calPen, benAsAda] = [pen(page, 1001), pen(page, 2002), pen(page, 3003), pen(page, 1001)];
    const started = pen(page, 4004)(stroke(teacher.id, 'teacher-1', 10));
    const adaFirst = adaPen(stroke(ada.id, 'ada-1', 10));
    const calNoPen = calPen(stroke(cal.id, 'cal-1', 10));
    // Ada's client id, bound by her update earlier in the same batch (not yet stored, nor known).
    const benTaken = benAsAda(stroke(ben.id, 'ben-forged', 10));
    const benFirst = benPen(stroke(ben.id, 'ben-1', 10));
    const adaLarge = adaPen(stroke(ada.id, 'ada-2', 400));
    const benSmall = benPen(stroke(ben.id, 'ben-2', 5));
    // Room for the large one alone, not after Ada's and Ben's first strokes of the same batch.
    const limit =
      size!.snapshot +
      size!.log +
      started.byteLength +
      adaFirst.byteLength +
      benFirst.byteLength +
      adaLarge.byteLength -
      1;
    const limited = createClassBoards(t.database.db, { limits: { boardMaxBytes: limit } });

    // The first goes at once (nothing in flight); the others arrive while it is, and go together.
    const inFlight = limited.append(classId, teacher, started, 'strokes');
    const batch = [
      limited.append(classId, ada, adaFirst, 'strokes'),
      limited.append(classId, cal, calNoPen, 'strokes'),
      limited.append(classId, ben, benTaken, 'strokes'),
      limited.append(classId, ben, benFirst, 'strokes'),
      limited.append(classId, ada, adaLarge, 'strokes'),
      limited.append(classId, ben, benSmall, 'strokes'),
    ];
    expect(await inFlight).toEqual({ seq: 2, compactDue: false });
    expect(await Promise.all(batch)).toEqual<AppendOutcome[]>([
      { seq: 3, compactDue: false },
      { refused: 'NO_PEN' },
      { refused: 'CLIENT_TAKEN' },
      { seq: 4, compactDue: false },
      { refused: 'BOARD_FULL' },
      { seq: 5, compactDue: false },
    ]);

    const stored = await storedOf(classId);
    expect(stored.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5]);
    // One transaction: now() is its start, the same for every row it inserted.
    expect(new Set(stored.slice(2).map((row) => row.createdAt.getTime())).size).toBe(1);
    const [counters] = await t.database.db
      .select({ lastSeq: classBoards.lastSeq, logCount: classBoards.logCount, logBytes: classBoards.logBytes })
      .from(classBoards)
      .where(eq(classBoards.classId, classId));
    expect(counters).toEqual({
      lastSeq: 5,
      logCount: 5,
      logBytes: stored.reduce((sum, row) => sum + row.update.byteLength, 0),
    });
    const doc = boardDocFrom(stored.map((row) => row.update));
    expect(doc.store.pendingStructs).toBeNull();
    const strokes = (boardJson(doc).p1 as { strokes: BoardStroke[] }).strokes.map((drawn) => drawn.id);
    expect(strokes.sort()).toEqual(['ada-1', 'ben-1', 'ben-2', 'teacher-1']);
    // Ada's client id is hers from now on: Ben's next update with it is refused before any query.
    expect(await limited.append(classId, ben, benAsAda(stroke(ben.id, 'ben-forged-2', 3)), 'strokes')).toEqual({
      refused: 'CLIENT_TAKEN',
    });
    doc.destroy();
  });

  it('numbers the updates of many writers at once one after another, losing none', async () => {
    const writers = 24;
    const strokesEach = 6;
    const { teacher, classId, pupils, store, page } = await board(writers);
    await store.setPen(teacher.id, classId, { mode: 'everyone', studentIds: [] });
    // Two instances on one database: their batches meet at the board's row lock.
    const instances = [store, createClassBoards(t.database.db)];
    const outcomes = await Promise.all(
      pupils.map(async (pupil, index) => {
        const draw = pen(page, 10_000 + index);
        const instance = instances[index % 2]!;
        const seqs: AppendOutcome[] = [];
        // As a page does: its next update once the last is saved.
        for (let drawn = 0; drawn < strokesEach; drawn++) {
          const update = draw(stroke(pupil.id, `${pupil.id}-${drawn}`, 50));
          seqs.push(await instance.append(classId, { id: pupil.id, teacher: false }, update, 'strokes'));
        }
        return seqs;
      }),
    );
    const seqs = outcomes.flat().map((outcome) => ('seq' in outcome ? outcome.seq : outcome.refused));
    const total = writers * strokesEach;
    expect([...seqs].sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: total }, (_, index) => index + 2),
    );
    const stored = await storedOf(classId);
    expect(stored.map((row) => row.seq)).toEqual(Array.from({ length: total + 1 }, (_, index) => index + 1));
    // Fewer transactions than updates: some went together.
    expect(new Set(stored.map((row) => row.createdAt.getTime())).size).toBeLessThan(total);
    const doc = boardDocFrom(stored.map((row) => row.update));
    expect(doc.store.pendingStructs).toBeNull();
    expect((boardJson(doc).p1 as { strokes: BoardStroke[] }).strokes).toHaveLength(total);
    const [counters] = await t.database.db
      .select({ lastSeq: classBoards.lastSeq, logCount: classBoards.logCount })
      .from(classBoards)
      .where(eq(classBoards.classId, classId));
    expect(counters).toEqual({ lastSeq: total + 1, logCount: total + 1 });
    doc.destroy();
  });
});
