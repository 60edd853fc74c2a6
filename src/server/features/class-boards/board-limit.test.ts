import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ROOT, CLASS_BOARD_LIMITS, type BoardStroke } from '#shared/class-boards';
import { classBoards, classBoardUpdates } from '../../db/schema.ts';
import { classTaughtBy, signUpTeacher } from '../../testing/actors.ts';
import { patience } from '../../testing/patience.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { boardDocFrom } from './board-document.ts';
import { createClassBoards } from './service.ts';

/**
 * The board's size limit (CLASS_BOARD_LIMITS.boardMaxBytes, decision 069): issue 35's board of
 * 20,000 strokes of 50 points fits in it once compacted, and a board at the limit answers
 * BOARD_FULL, storing nothing of the refused update.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A stroke of `points` points along a random walk over the sheet, whole board units (as a hand draws). */
function walkStroke(author: string, id: string, points: number, spread = 60): BoardStroke {
  let [x, y] = [Math.floor(Math.random() * 16_000), Math.floor(Math.random() * 10_000)];
  const flat: number[] = [];
  for (let index = 0; index < points; index++) {
    x += Math.floor(Math.random() * spread) - spread / 3;
    y += Math.floor(Math.random() * spread) - spread / 3;
    flat.push(x, y);
  }
  return { id, author, colour: '#1d4ed8', width: 3, points: flat };
}

/** A board of one page, its strokes array, and the update of what `add` did to it. */
function pageDoc() {
  const doc = new Y.Doc();
  const page = new Y.Map<unknown>();
  doc.transact(() => {
    page.set('name', 'Weeks of lessons');
    page.set('order', 1);
    page.set('strokes', new Y.Array<BoardStroke>());
    doc.getMap(BOARD_ROOT).set('p1', page);
  });
  const strokes = page.get('strokes') as Y.Array<BoardStroke>;
  const change = (add: () => void) => {
    const before = Y.encodeStateVector(doc);
    doc.transact(add);
    return Y.encodeStateAsUpdate(doc, before);
  };
  return { doc, strokes, change };
}

describe('the class board’s size limit', () => {
  it('takes an update that only deletes on a full board (erasing makes room), refuses one that adds', async () => {
    const teacher = await signUpTeacher(t);
    const { id: classId } = await classTaughtBy(t, teacher);
    const writer = { id: teacher.profile._id, teacher: true };
    const { doc, strokes, change } = pageDoc();
    await createClassBoards(t.database.db).load(classId);
    const stroked = change(() => {
      for (let index = 0; index < 5; index++) strokes.push([walkStroke(writer.id, `s${index}`, 50)]);
    });
    for (const [update, kind] of [
      [Y.encodeStateAsUpdate(doc, Y.encodeStateVector(new Y.Doc())), 'pages'],
      [stroked, 'strokes'],
    ] as const) {
      expect(await createClassBoards(t.database.db).append(classId, writer, update, kind)).toHaveProperty('seq');
    }
    // A store whose limit is what the board holds: full to the byte.
    const [row] = await t.database.db.select().from(classBoards).where(eq(classBoards.classId, classId));
    const full = createClassBoards(t.database.db, { limits: { boardMaxBytes: row!.snapshotBytes + row!.logBytes } });
    expect(
      await full.append(
        classId,
        writer,
        change(() => strokes.delete(0, 2)),
        'strokes',
      ),
    ).toHaveProperty('seq');
    const more = change(() => strokes.push([walkStroke(writer.id, 'more', 5)]));
    expect(await full.append(classId, writer, more, 'strokes')).toEqual({ refused: 'BOARD_FULL' });
    doc.destroy();
  });

  it('holds issue 35’s board of 20,000 strokes of 50 points, compacted', () => {
    const { doc, strokes, change } = pageDoc();
    const author = '6a1f0c4e-2b7d-4c1e-9f3a-0d5e8b7c6a21';
    change(() => {
      for (let index = 0; index < 20_000; index++) strokes.push([walkStroke(author, `s${index}`, 50)]);
    });
    const bytes = Y.encodeStateAsUpdate(doc).byteLength;
    expect(bytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(bytes).toBeLessThan(CLASS_BOARD_LIMITS.boardMaxBytes);
    doc.destroy();
  });

  it(
    'answers BOARD_FULL to an update that would take a board past the limit, storing nothing of it',
    async () => {
      const teacher = await signUpTeacher(t);
      const { id: classId } = await classTaughtBy(t, teacher);
      const store = createClassBoards(t.database.db);
      await store.load(classId);
      const writer = { id: teacher.profile._id, teacher: true };
      const { doc, strokes, change } = pageDoc();
      expect(await store.append(classId, writer, Y.encodeStateAsUpdate(doc), 'pages')).toHaveProperty('seq');

      // Strokes of 1,000 points: updates of ~1 MiB, then each of half the room left, to the limit.
      const limit = CLASS_BOARD_LIMITS.boardMaxBytes;
      let count = 0;
      let strokeBytes = 10_000;
      const stored = async () => {
        const [row] = await t.database.db.select().from(classBoards).where(eq(classBoards.classId, classId));
        return row!.snapshotBytes + row!.logBytes;
      };
      let refused: Uint8Array | undefined;
      while (!refused) {
        const room = limit - (await stored());
        const perUpdate = Math.max(1, Math.min(120, Math.floor(room / 2 / strokeBytes)));
        const update = change(() => {
          for (let index = 0; index < perUpdate; index++)
            strokes.push([walkStroke(writer.id, `big${count++}`, 1000, 2_000)]);
        });
        strokeBytes = update.byteLength / perUpdate;
        const appended = await store.append(classId, writer, update, 'strokes');
        if ('refused' in appended) {
          expect(appended.refused).toBe('BOARD_FULL');
          expect(update.byteLength).toBeGreaterThan(room);
          refused = update;
        }
      }
      const full = await stored();
      expect(full).toBeLessThanOrEqual(limit);
      expect(full + refused.byteLength).toBeGreaterThan(limit);
      // At the limit: less room left than one stroke of 1,000 points.
      expect(limit - full).toBeLessThan(2 * strokeBytes);

      // Nothing of the refused stroke stored, before or after a compaction.
      const kept = async () => {
        const board = boardDocFrom((await store.load(classId)).updates);
        const ids = ((board.getMap(BOARD_ROOT).get('p1') as Y.Map<unknown>).get('strokes') as Y.Array<BoardStroke>)
          .toArray()
          .map((stroke) => stroke.id);
        board.destroy();
        return ids;
      };
      const before = await kept();
      expect(before).toHaveLength(count - 1);
      expect(before).not.toContain(`big${count - 1}`);
      await store.compact(classId);
      expect(await kept()).toEqual(before);
      expect(
        await t.database.db.select().from(classBoardUpdates).where(eq(classBoardUpdates.classId, classId)),
      ).toEqual([]);
      doc.destroy();
    },
    patience(120_000),
  );
});
