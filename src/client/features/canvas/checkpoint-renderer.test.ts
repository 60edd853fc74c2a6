import { describe, expect, it } from 'vitest';
import { CheckpointRenderer, type SurfaceOps } from './checkpoint-renderer.ts';
import {
  EMPTY_HISTORY,
  addStroke,
  clearHistory,
  redo,
  undo,
  visibleStrokes,
  type Stroke,
  type StrokeHistory,
} from './stroke-history.ts';

/** A surface that remembers which strokes were painted on it, in order: what a full replay would paint. */
type FakeSurface = { painted: Stroke[] };

function fakeOps() {
  let created = 0;
  const ops: SurfaceOps<FakeSurface> = {
    create: () => {
      created += 1;
      return { painted: [] };
    },
    reset: (surface) => {
      surface.painted = [];
    },
    copy: (from, to) => {
      to.painted = [...from.painted];
    },
    draw: (surface, stroke) => {
      surface.painted.push(stroke);
    },
  };
  return { ops, created: () => created };
}

let strokeNumber = 0;
const newStroke = (): Stroke => ({ colour: '#3b3b3b', size: 3, points: [[(strokeNumber += 1), 0]] });

function setUp(interval = 4, maxCheckpoints = 3) {
  const { ops, created } = fakeOps();
  const target: FakeSurface = { painted: [] };
  const renderer = new CheckpointRenderer(ops, target, { interval, maxCheckpoints });
  let history: StrokeHistory = EMPTY_HISTORY;
  const apply = (next: StrokeHistory) => {
    history = next;
    const replayed = renderer.show(history.strokes, history.cursor);
    // The defining property: the target holds exactly what a full replay of the snapshot would.
    expect(target.painted).toEqual(visibleStrokes(history));
    return replayed;
  };
  return { renderer, target, created, apply, history: () => history };
}

describe('CheckpointRenderer', () => {
  it('draws a new stroke on top of what is shown, and a redo likewise, without a replay', () => {
    const board = setUp();
    for (let index = 0; index < 10; index += 1) expect(board.apply(addStroke(board.history(), newStroke()))).toBe(1);
    board.apply(undo(board.history()));
    expect(board.apply(redo(board.history()))).toBe(1);
  });

  it('undoes from the nearest checkpoint: fewer than `interval` strokes replayed', () => {
    const board = setUp(4, 3);
    for (let index = 0; index < 20; index += 1) board.apply(addStroke(board.history(), newStroke()));
    expect(board.renderer.checkpointCounts()).toEqual([12, 16, 20]);
    // Three checkpoints 4 apart cover the last 12 snapshots.
    for (let cursor = 19; cursor >= 12; cursor -= 1) {
      const replayed = board.apply(undo(board.history()));
      expect(replayed).toBeLessThan(4);
    }
    expect(board.history().cursor).toBe(12);
  });

  it('undoing past every checkpoint replays from the blank canvas once, then keeps the checkpoints it passed', () => {
    const board = setUp(4, 3);
    for (let index = 0; index < 40; index += 1) board.apply(addStroke(board.history(), newStroke()));
    expect(board.renderer.checkpointCounts()).toEqual([32, 36, 40]);
    let replays = 0;
    for (let index = 0; index < 40; index += 1) {
      const replayed = board.apply(undo(board.history()));
      if (replayed >= 4) replays += 1;
    }
    expect(board.history().cursor).toBe(0);
    // 40 undos over 3 checkpoints 4 strokes apart: a full replay about every 12 undos, not every time.
    expect(replays).toBeLessThanOrEqual(3);
  });

  it('keeps at most maxCheckpoints bitmaps (+1 spare) whatever the number of strokes', () => {
    const board = setUp(4, 3);
    for (let index = 0; index < 500; index += 1) board.apply(addStroke(board.history(), newStroke()));
    for (let index = 0; index < 300; index += 1) board.apply(undo(board.history()));
    for (let index = 0; index < 150; index += 1) board.apply(redo(board.history()));
    expect(board.renderer.checkpointCounts().length).toBeLessThanOrEqual(3);
    expect(board.created()).toBeLessThanOrEqual(4);
  });

  it('never uses a checkpoint of strokes dropped by a new stroke after undos', () => {
    const board = setUp(4, 3);
    for (let index = 0; index < 16; index += 1) board.apply(addStroke(board.history(), newStroke()));
    for (let index = 0; index < 6; index += 1) board.apply(undo(board.history()));
    for (let index = 0; index < 10; index += 1) board.apply(addStroke(board.history(), newStroke()));
    // Checkpoint 12 and 16 of the old branch must not be reused for the new strokes 11..20.
    for (let index = 0; index < 12; index += 1) board.apply(undo(board.history()));
  });

  it('matches a full replay through clear and through a resize (invalidate)', () => {
    const board = setUp(3, 2);
    for (let index = 0; index < 10; index += 1) board.apply(addStroke(board.history(), newStroke()));
    board.apply(clearHistory());
    expect(board.target.painted).toEqual([]);
    for (let index = 0; index < 7; index += 1) board.apply(addStroke(board.history(), newStroke()));
    board.renderer.invalidate();
    board.target.painted = [{ colour: '#000000', size: 1, points: [[0, 0]] }]; // a resize emptied the canvas
    board.apply(undo(board.history()));
  });

  it('gives identical results to a full replay over a long random session', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const board = setUp(5, 3);
    for (let step = 0; step < 3000; step += 1) {
      const roll = random();
      if (roll < 0.5) board.apply(addStroke(board.history(), newStroke()));
      else if (roll < 0.8) board.apply(undo(board.history()));
      else if (roll < 0.97) board.apply(redo(board.history()));
      else if (roll < 0.985) board.apply(clearHistory());
      else {
        board.renderer.invalidate();
        board.apply(board.history());
      }
    }
    expect(board.renderer.checkpointCounts().length).toBeLessThanOrEqual(3);
  });

  it('spreads a replay over several calls with advance, following history changes in between', () => {
    const { ops } = fakeOps();
    let history: StrokeHistory = EMPTY_HISTORY;
    for (let index = 0; index < 50; index += 1) history = addStroke(history, newStroke());
    const target: FakeSurface = { painted: [] };
    const renderer = new CheckpointRenderer(ops, target, { interval: 4, maxCheckpoints: 3 });
    const first = renderer.advance(history.strokes, history.cursor, 10);
    expect(first).toEqual({ drawn: 10, isDone: false });
    // In between, the target shows an earlier snapshot of the same history.
    expect(target.painted).toEqual(history.strokes.slice(0, 10));
    // A stroke drawn meanwhile, then an undo, then another stroke (the redo tail dropped).
    history = addStroke(history, newStroke());
    renderer.advance(history.strokes, history.cursor, 10);
    history = addStroke(undo(undo(history)), newStroke());
    let calls = 0;
    let step = renderer.advance(history.strokes, history.cursor, 10);
    while (!step.isDone) {
      expect(step.drawn).toBeLessThanOrEqual(10);
      step = renderer.advance(history.strokes, history.cursor, 10);
      calls += 1;
    }
    // It went on from stroke 20 (the first 49 are unchanged) instead of starting again: 30 strokes, 3 calls.
    expect(calls).toBe(2);
    expect(target.painted).toEqual(visibleStrokes(history));
    // The same checkpoints a replay in one go keeps.
    expect(renderer.checkpointCounts()).toEqual([40, 44, 48]);
  });

  it('moves an off-screen replay onto the board: a copy, then drawing goes on there', () => {
    const { ops, created } = fakeOps();
    let history: StrokeHistory = EMPTY_HISTORY;
    for (let index = 0; index < 30; index += 1) history = addStroke(history, newStroke());
    const staging: FakeSurface = { painted: [] };
    const board: FakeSurface = { painted: [{ colour: '#000000', size: 1, points: [[0, 0]] }] }; // a provisional picture
    const renderer = new CheckpointRenderer(ops, staging, { interval: 4, maxCheckpoints: 3 });
    while (!renderer.advance(history.strokes, history.cursor, 7).isDone);
    expect(board.painted).not.toEqual(visibleStrokes(history));
    renderer.moveTo(board);
    expect(board.painted).toEqual(visibleStrokes(history));

    history = addStroke(history, newStroke());
    expect(renderer.show(history.strokes, history.cursor)).toBe(1);
    expect(board.painted).toEqual(visibleStrokes(history));
    for (let index = 0; index < 6; index += 1) {
      history = undo(history);
      renderer.show(history.strokes, history.cursor);
      expect(board.painted).toEqual(visibleStrokes(history));
    }
    // The off-screen surface became a spare: no surface created for the checkpoints after the move.
    const createdBefore = created();
    for (let index = 0; index < 8; index += 1) {
      history = addStroke(history, newStroke());
      renderer.show(history.strokes, history.cursor);
    }
    expect(created()).toBeLessThanOrEqual(createdBefore + 1);
    expect(board.painted).toEqual(visibleStrokes(history));
  });
});
