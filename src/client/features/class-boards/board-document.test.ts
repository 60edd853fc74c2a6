import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { BOARD_ID_PATTERN, CLASS_BOARD_LIMITS } from '#shared/class-boards';
import * as board from './board-document.ts';

/** The board's document as the page changes it: pages in order, strokes, and which undo steps the server would take. */

const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const LOCAL = { board: 'test' };
const line = { colour: '#000000', width: 2, points: [0, 0, 10, 10] };

function boardWithPages(...names: string[]) {
  const doc = new Y.Doc();
  const ids = names.map((name) => board.addPage(doc, name, LOCAL)!);
  return { doc, ids };
}

const names = (doc: Y.Doc) => board.listPages(doc).map((page) => page.name);

describe('the board document', () => {
  it('adds pages at the end, moves them between others, renames and deletes them', () => {
    const { doc, ids } = boardWithPages('A', 'B', 'C');
    expect(names(doc)).toEqual(['A', 'B', 'C']);
    expect(ids.every((id) => BOARD_ID_PATTERN.test(id))).toBe(true);
    board.movePage(doc, ids[2]!, ids[0]!, LOCAL);
    expect(names(doc)).toEqual(['C', 'A', 'B']);
    board.movePage(doc, ids[2]!, null, LOCAL);
    expect(names(doc)).toEqual(['A', 'B', 'C']);
    board.movePage(doc, ids[0]!, ids[2]!, LOCAL);
    expect(names(doc)).toEqual(['B', 'A', 'C']);
    board.renamePage(doc, ids[1]!, 'Bee', LOCAL);
    board.renamePage(doc, ids[0]!, '', LOCAL);
    board.deletePage(doc, ids[2]!, LOCAL);
    expect(names(doc)).toEqual(['Bee', 'A']);
  });

  it('refuses a page over the limit or with a bad name', () => {
    const doc = new Y.Doc();
    expect(board.addPage(doc, 'x'.repeat(CLASS_BOARD_LIMITS.pageNameMax + 1), LOCAL)).toBeNull();
    for (let index = 0; index < CLASS_BOARD_LIMITS.pagesMax; index++) board.addPage(doc, `P${index}`, LOCAL);
    expect(board.addPage(doc, 'One more', LOCAL)).toBeNull();
  });

  it('keeps only strokes the server takes: whole units, within the limits, this author', () => {
    expect(board.strokeOf(line, ME)).toMatchObject({ author: ME, points: [0, 0, 10, 10] });
    expect(board.strokeOf({ ...line, points: [0.5, 0, 1, 1] }, ME)).toBeNull();
    expect(board.strokeOf({ ...line, points: [CLASS_BOARD_LIMITS.coordinateMax + 1, 0] }, ME)).toBeNull();
    expect(board.strokeOf({ ...line, points: [0, 0, 1] }, ME)).toBeNull();
    expect(board.strokeOf({ ...line, colour: 'red' }, ME)).toBeNull();
  });

  it('erases and clears strokes', () => {
    const { doc, ids } = boardWithPages('A');
    const strokes = [1, 2, 3].map(() => board.strokeOf(line, ME)!);
    for (const stroke of strokes) board.addStroke(doc, ids[0]!, stroke, LOCAL);
    board.eraseStrokes(doc, ids[0]!, [strokes[0]!.id, strokes[2]!.id], LOCAL);
    expect(board.strokesArrayOf(doc, ids[0]!)!.toArray()).toEqual([strokes[1]]);
    board.clearPage(doc, ids[0]!, LOCAL);
    expect(board.strokesArrayOf(doc, ids[0]!)!.length).toBe(0);
    expect(board.addStroke(doc, 'no-such-page', strokes[0]!, LOCAL)).toBe(false);
  });

  it('tells an undo that would bring back someone else’s strokes from one that brings back only one’s own', () => {
    const { doc, ids } = boardWithPages('A');
    const undo = new Y.UndoManager(board.pagesOf(doc), { trackedOrigins: new Set([LOCAL]), captureTimeout: 0 });
    const mine = board.strokeOf(line, ME)!;
    board.addStroke(doc, ids[0]!, mine, LOCAL);
    board.clearPage(doc, ids[0]!, LOCAL);
    expect(board.restoresOthersStrokes(doc, undo.undoStack.at(-1)!, ME)).toBe(false);

    // Another's stroke arrives (not this page's origin), then this page clears the page.
    board.addStroke(doc, ids[0]!, board.strokeOf(line, OTHER)!, 'remote');
    board.clearPage(doc, ids[0]!, LOCAL);
    expect(board.restoresOthersStrokes(doc, undo.undoStack.at(-1)!, ME)).toBe(true);
    // Deleting the page with it is the same.
    board.addStroke(doc, ids[0]!, board.strokeOf(line, OTHER)!, 'remote');
    board.deletePage(doc, ids[0]!, LOCAL);
    expect(board.restoresOthersStrokes(doc, undo.undoStack.at(-1)!, ME)).toBe(true);
  });

  it('finds the order between two neighbours', () => {
    expect(board.orderBetween(undefined, undefined)).toBe(1);
    expect(board.orderBetween(1, 2)).toBe(1.5);
    expect(board.orderBetween(undefined, 1)).toBe(0);
    expect(board.orderBetween(3, undefined)).toBe(4);
  });
});
