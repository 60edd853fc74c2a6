import { describe, expect, it } from 'vitest';
import {
  drawingStorageKey,
  loadDrawing,
  parseHistory,
  removeDrawing,
  saveDrawing,
  serialiseHistory,
} from './canvas-storage.ts';
import { EMPTY_HISTORY, addStroke, appendPoint, undo, type Point, type StrokeHistory } from './stroke-history.ts';

/** A Storage with a size limit in characters, like a browser's quota. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  constructor(private readonly quota = Number.POSITIVE_INFINITY) {}
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    const others = [...this.items].filter(([other]) => other !== key);
    const used = others.reduce((total, [other, stored]) => total + other.length + stored.length, 0);
    if (used + key.length + value.length > this.quota) throw new DOMException('full', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

function pointsOf(count: number, seed: number): Point[] {
  const points: Point[] = [];
  for (let index = 0; index < count; index += 1) {
    appendPoint(points, 100 + seed * 7.31 + index * 3.17, 50 + Math.sin(index + seed) * 40.123);
  }
  return points;
}

function historyOf(count: number): StrokeHistory {
  let history = EMPTY_HISTORY;
  for (let index = 0; index < count; index += 1) {
    const colour = index % 3 === 0 ? '#ffffff' : '#3b3b3b';
    history = addStroke(history, { colour, size: [1, 3, 30][index % 3]!, points: pointsOf(5 + index, index) });
  }
  return history;
}

const KEY = drawingStorageKey('teacher', 'teacher-1');

describe('drawing storage', () => {
  it('round-trips the history exactly: colours, sizes, points to 0.1 px, cursor and redo tail', () => {
    const history = undo(undo(historyOf(6)));
    const restored = parseHistory(serialiseHistory(history));
    expect(restored).toEqual(history);
    // Negative positions (a stroke dragged off the board) survive too.
    const offBoard = addStroke(EMPTY_HISTORY, {
      colour: '#123abc',
      size: 5,
      points: [
        [-4.2, 0.1],
        [1999.9, -0.3],
      ],
    });
    expect(parseHistory(serialiseHistory(offBoard))).toEqual(offBoard);
  });

  it('is compact: points as differences in tenths of a pixel', () => {
    const json = serialiseHistory(
      addStroke(EMPTY_HISTORY, {
        colour: '#3b3b3b',
        size: 3,
        points: [
          [120.5, 40],
          [121, 40.3],
          [122.4, 41],
        ],
      }),
    );
    expect(json).toBe('{"v":1,"cursor":1,"strokes":[{"c":"#3b3b3b","s":3,"p":[1205,400,5,3,14,7]}]}');
  });

  it('reads damaged, foreign or missing items as the blank canvas', () => {
    const storage = new MemoryStorage();
    expect(loadDrawing(storage, KEY)).toEqual(EMPTY_HISTORY);
    for (const stored of [
      'not json',
      '{"v":2,"cursor":0,"strokes":[]}',
      '{"v":1,"cursor":1,"strokes":[{"c":"red","s":3,"p":[1,2]}]}',
      '{"v":1,"cursor":1,"strokes":[{"c":"#ffffff","s":3,"p":[1,2,3]}]}',
      'data:image/png;base64,iVBORw0KGgo=',
    ]) {
      storage.setItem(KEY, stored);
      expect(loadDrawing(storage, KEY)).toEqual(EMPTY_HISTORY);
    }
    storage.setItem(KEY, '{"v":1,"cursor":9,"strokes":[{"c":"#FFFFFF","s":3,"p":[1,2]}]}');
    expect(loadDrawing(storage, KEY)).toEqual({
      strokes: [{ colour: '#ffffff', size: 3, points: [[0.1, 0.2]] }],
      cursor: 1,
    });
  });

  it('saves, loads and removes under a key per role and account', () => {
    const storage = new MemoryStorage();
    const history = historyOf(3);
    expect(saveDrawing(storage, KEY, history)).toBe('saved');
    expect(loadDrawing(storage, KEY)).toEqual(history);
    expect(loadDrawing(storage, drawingStorageKey('student', 'teacher-1'))).toEqual(EMPTY_HISTORY);
    removeDrawing(storage, KEY);
    expect(storage.getItem(KEY)).toBeNull();
  });

  it('over the quota: drops the redo tail first, then keeps the last version that fitted', () => {
    const small = historyOf(2);
    const large = historyOf(40);
    const quota = KEY.length + serialiseHistory(small).length + 50;
    const storage = new MemoryStorage(quota);
    expect(saveDrawing(storage, KEY, small)).toBe('saved');

    // The visible part fits once the undone strokes are left out.
    let withTail = small;
    for (let index = 0; index < 5; index += 1) withTail = addStroke(withTail, large.strokes[20 + index]!);
    for (let index = 0; index < 5; index += 1) withTail = undo(withTail);
    expect(saveDrawing(storage, KEY, withTail)).toBe('saved-without-redo');
    expect(loadDrawing(storage, KEY)).toEqual({ strokes: small.strokes, cursor: 2 });

    expect(saveDrawing(storage, KEY, large)).toBe('too-large');
    expect(loadDrawing(storage, KEY)).toEqual({ strokes: small.strokes, cursor: 2 });
  });

  it('reports storage that refuses everything (switched off) as unavailable', () => {
    const storage = new MemoryStorage();
    storage.setItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    expect(saveDrawing(storage, KEY, historyOf(1))).toBe('unavailable');
  });
});
