import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ROOT, type BoardStroke } from '#shared/class-boards';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { decodeBoardDownload } from '#shared/board-download';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { boardDocFrom, boardJson } from './board-document.ts';
import { createClassBoards } from './service.ts';

/**
 * GET /api/class-boards/:classId/document (decision 069): the stored board in one download, for a
 * teacher or a student of the class; anyone else is NOT_FOUND, as an unknown class is.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const download = (classId: string, token: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/class-boards/${classId}/document`,
    headers: { authorization: `Bearer ${token}` },
  });

const stroke = (author: string, index: number): BoardStroke => ({
  id: `s${index}`,
  author,
  colour: '#1d4ed8',
  width: 3,
  points: [index, index * 2, index + 40, index * 3],
});

describe('the class board’s download', () => {
  it('answers the stored board (snapshot and later updates) to its class only, never cached', async () => {
    const teacher = await signUpTeacher(t);
    const taught = await classTaughtBy(t, teacher);
    const pupil = await signUpStudent(t, { classCode: taught.joinCode });
    const elsewhere = await signUpTeacher(t);
    const other = await classTaughtBy(t, elsewhere);
    const stranger = await signUpStudent(t, { classCode: other.joinCode });

    // Nothing drawn yet: an empty board.
    const empty = await download(taught.id, pupil.token);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(decodeBoardDownload(new Uint8Array(empty.rawPayload))).toEqual([]);

    const store = createClassBoards(t.database.db);
    const writer = { id: teacher.profile._id, teacher: true };
    const doc = new Y.Doc();
    const change = (make: () => void) => {
      const before = Y.encodeStateVector(doc);
      doc.transact(make);
      return Y.encodeStateAsUpdate(doc, before);
    };
    const page = new Y.Map<unknown>();
    const pageUpdate = change(() => {
      page.set('name', 'Fractions');
      page.set('order', 1);
      page.set('strokes', new Y.Array<BoardStroke>());
      doc.getMap(BOARD_ROOT).set('p1', page);
    });
    expect(await store.append(taught.id, writer, pageUpdate, 'pages')).toHaveProperty('seq');
    const strokes = page.get('strokes') as Y.Array<BoardStroke>;
    for (let index = 0; index < 3; index++) {
      const update = change(() => strokes.push([stroke(writer.id, index)]));
      expect(await store.append(taught.id, writer, update, 'strokes')).toHaveProperty('seq');
    }
    // A snapshot, then updates after it: the download is both.
    await store.compact(taught.id);
    for (let index = 3; index < 5; index++) {
      const update = change(() => strokes.push([stroke(writer.id, index)]));
      expect(await store.append(taught.id, writer, update, 'strokes')).toHaveProperty('seq');
    }
    const stored = await store.load(taught.id);
    expect(stored.updates.length).toBe(3);

    for (const caller of [teacher, pupil]) {
      const answer = await download(taught.id, caller.token);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.headers['content-type']).toBe('application/octet-stream');
      expect(answer.headers['cache-control']).toBe('no-store');
      // The snapshot and the updates after it, framed, to apply in order.
      const parts = decodeBoardDownload(new Uint8Array(answer.rawPayload));
      expect(parts).toEqual(stored.updates);
      const loaded = boardDocFrom(parts);
      expect(boardJson(loaded)).toEqual(boardJson(doc));
      expect(Y.encodeStateVector(loaded)).toEqual(Y.encodeStateVector(doc));
    }

    // Another class's student and teacher: what an unknown class tells.
    for (const caller of [stranger, elsewhere]) {
      const answer = await download(taught.id, caller.token);
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    const unknown = await download('00000000-0000-4000-8000-000000000000', teacher.token);
    expect(unknown.statusCode).toBe(404);
    // Signed out: refused before anything is read.
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/class-boards/${taught.id}/document` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps a board’s snapshot once read: later downloads read only the updates after it, until a compaction', async () => {
    const teacher = await signUpTeacher(t);
    const taught = await classTaughtBy(t, teacher);
    const writer = { id: teacher.profile._id, teacher: true };
    // Two instances' services on one database: `here` downloads, `elsewhere` also compacts.
    const here = createClassBoards(t.database.db);
    const elsewhere = createClassBoards(t.database.db);
    const doc = new Y.Doc();
    const change = (make: () => void) => {
      const before = Y.encodeStateVector(doc);
      doc.transact(make);
      return Y.encodeStateAsUpdate(doc, before);
    };
    // A socket's join makes the board.
    await elsewhere.load(taught.id);
    const page = new Y.Map<unknown>();
    await elsewhere.append(
      taught.id,
      writer,
      change(() => {
        page.set('name', 'Kept');
        page.set('order', 1);
        page.set('strokes', new Y.Array<BoardStroke>());
        doc.getMap(BOARD_ROOT).set('p1', page);
      }),
      'pages',
    );
    const strokes = page.get('strokes') as Y.Array<BoardStroke>;
    const draw = async (index: number) => {
      const update = change(() => strokes.push([stroke(writer.id, index)]));
      expect(await elsewhere.append(taught.id, writer, update, 'strokes')).toHaveProperty('seq');
    };
    await draw(0);
    await elsewhere.compact(taught.id);
    const asDoc = (parts: Uint8Array[]) => boardJson(boardDocFrom(parts));

    const first = await here.download(taught.id);
    expect(first).toHaveLength(1);
    await draw(1);
    await draw(2);
    // The same snapshot (not read again: the very bytes), then what came after it.
    const second = await here.download(taught.id);
    expect(second).toHaveLength(3);
    expect(second[0]).toBe(first[0]);
    expect(asDoc(second)).toEqual(boardJson(doc));

    // A compaction on the other instance: the next download reads the new snapshot, once.
    await elsewhere.compact(taught.id);
    const third = await here.download(taught.id);
    expect(third).toHaveLength(1);
    expect(third[0]).not.toBe(first[0]);
    expect(asDoc(third)).toEqual(boardJson(doc));
    expect((await here.download(taught.id))[0]).toBe(third[0]);

    // A compaction here: its snapshot is the next download's, without reading it back.
    await draw(3);
    await here.compact(taught.id);
    const fourth = await here.download(taught.id);
    expect(fourth).toHaveLength(1);
    expect(fourth[0]).not.toBe(third[0]);
    expect(asDoc(fourth)).toEqual(boardJson(doc));
    expect((await here.download(taught.id))[0]).toBe(fourth[0]);

    // Within its bytes only: a snapshot larger than the room kept is read at each download.
    const small = createClassBoards(t.database.db, { downloadCacheBytes: 16 });
    const [once] = await small.download(taught.id);
    const [again] = await small.download(taught.id);
    expect(again).not.toBe(once);
    expect(again).toEqual(once);
  });
});
