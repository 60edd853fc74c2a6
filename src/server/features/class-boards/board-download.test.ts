import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ROOT, type BoardStroke } from '#shared/class-boards';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
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
    expect(boardJson(boardDocFrom([empty.rawPayload]))).toEqual({});

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
      expect(new Uint8Array(answer.rawPayload)).toEqual(Y.mergeUpdates(stored.updates));
      const loaded = boardDocFrom([answer.rawPayload]);
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
});
