import { describe, expect, it } from 'vitest';
import { brushReducer, ERASE_COLOUR, INITIAL_BRUSH, paintOf } from './brush.ts';
import {
  EMPTY_HISTORY,
  addStroke,
  appendPoint,
  canRedo,
  canUndo,
  clearHistory,
  redo,
  undo,
  visibleStrokes,
  type Point,
  type Stroke,
  type StrokeHistory,
} from './stroke-history.ts';

const stroke = (name: number): Stroke => ({ colour: '#3b3b3b', size: 3, points: [[name, name]] });
const historyOf = (...names: number[]) =>
  names.reduce((history, name) => addStroke(history, stroke(name)), EMPTY_HISTORY);
const shownNames = (history: StrokeHistory) => visibleStrokes(history).map((shown) => shown.points[0]![0]);

describe('stroke history (SPEC §4 snapshots: snapshot 0 is the blank canvas)', () => {
  it('cannot undo with only the blank snapshot, nor redo at the latest', () => {
    expect(canUndo(EMPTY_HISTORY)).toBe(false);
    expect(canRedo(EMPTY_HISTORY)).toBe(false);
    expect(undo(EMPTY_HISTORY)).toBe(EMPTY_HISTORY);
    expect(redo(EMPTY_HISTORY)).toBe(EMPTY_HISTORY);

    const drawn = historyOf(1, 2);
    expect(canUndo(drawn)).toBe(true);
    expect(canRedo(drawn)).toBe(false);
    expect(redo(drawn)).toBe(drawn);
  });

  it('undo steps back one snapshot at a time down to the blank one, redo forward to the latest', () => {
    let history = historyOf(1, 2, 3);
    history = undo(history);
    expect(shownNames(history)).toEqual([1, 2]);
    history = undo(undo(history));
    expect(shownNames(history)).toEqual([]);
    expect(canUndo(history)).toBe(false);
    expect(undo(history)).toBe(history);
    history = redo(history);
    expect(shownNames(history)).toEqual([1]);
    history = redo(redo(history));
    expect(shownNames(history)).toEqual([1, 2, 3]);
    expect(canRedo(history)).toBe(false);
  });

  it('a new stroke after undos drops the redo tail', () => {
    const history = addStroke(undo(undo(historyOf(1, 2, 3))), stroke(9));
    expect(history.strokes.map((kept) => kept.points[0]![0])).toEqual([1, 9]);
    expect(history.cursor).toBe(2);
    expect(canRedo(history)).toBe(false);
  });

  it('leaves the history it was given unchanged', () => {
    const before = historyOf(1, 2);
    addStroke(undo(before), stroke(3));
    expect(shownNames(before)).toEqual([1, 2]);
    expect(before.strokes).toHaveLength(2);
  });

  it('clear goes back to the blank canvas with no history to undo or redo', () => {
    const cleared = clearHistory();
    expect(cleared.strokes).toEqual([]);
    expect(cleared.cursor).toBe(0);
    expect(canUndo(cleared)).toBe(false);
    expect(canRedo(cleared)).toBe(false);
  });
});

describe('erasing', () => {
  it('paints white strokes, and Draw brings back the dark grey', () => {
    const erasing = brushReducer(INITIAL_BRUSH, { type: 'erase' });
    expect(paintOf(erasing).colour).toBe(ERASE_COLOUR);
    expect(ERASE_COLOUR).toBe('#ffffff');
    // Even a colour picked before switching to Erase does not leak into erase strokes.
    expect(paintOf({ ...erasing, colour: '#ff0000' }).colour).toBe('#ffffff');
    const drawing = brushReducer(brushReducer(erasing, { type: 'colour', colour: '#FF0000' }), { type: 'draw' });
    expect(paintOf(drawing)).toEqual({ colour: '#3b3b3b', size: 3 });
  });
});

describe('appendPoint', () => {
  it('rounds to 0.1 px and skips positions within half a pixel, except the last one', () => {
    const points: Point[] = [];
    appendPoint(points, 10.04, 20.06);
    appendPoint(points, 10.2, 20.2);
    appendPoint(points, 10.04, 20.06);
    appendPoint(points, 12.56, 20.06);
    appendPoint(points, 12.6, 20.1, true);
    expect(points).toEqual([
      [10, 20.1],
      [12.6, 20.1],
    ]);
    appendPoint(points, 12.8, 20.1, true);
    expect(points.at(-1)).toEqual([12.8, 20.1]);
  });
});
