/**
 * The whiteboard's undo history as vector strokes (decision 011).
 *
 * SPEC §4 describes a list of snapshots with a position in it: undo steps back
 * only when more than one snapshot exists, redo steps forward only when not at
 * the latest. Here snapshot `i` is "the first `i` strokes": snapshot 0 is the
 * blank canvas, `cursor` is the snapshot on screen, and `strokes.length + 1`
 * snapshots exist. Memory grows with the strokes drawn, not with screen size.
 * Values are immutable: every operation returns a new history.
 */

/** A point in CSS pixels of the drawing area, rounded to 0.1 px when captured. */
export type Point = readonly [x: number, y: number];

export type Stroke = {
  /** `#rrggbb`; erasing paints white strokes. */
  readonly colour: string;
  /** Line width in CSS pixels. */
  readonly size: number;
  readonly points: readonly Point[];
};

export type StrokeHistory = {
  readonly strokes: readonly Stroke[];
  /** How many strokes are shown: the index of the current snapshot. */
  readonly cursor: number;
};

export const EMPTY_HISTORY: StrokeHistory = { strokes: [], cursor: 0 };

/** The strokes of the snapshot on screen. */
export const visibleStrokes = (history: StrokeHistory): readonly Stroke[] => history.strokes.slice(0, history.cursor);

/** Undo needs more than one snapshot: there is always the blank one, so "a stroke before the cursor". */
export const canUndo = (history: StrokeHistory): boolean => history.cursor > 0;

/** Redo needs a snapshot after the current one. */
export const canRedo = (history: StrokeHistory): boolean => history.cursor < history.strokes.length;

/** A finished stroke becomes the latest snapshot; strokes undone before it (the redo tail) are dropped. */
export function addStroke(history: StrokeHistory, stroke: Stroke): StrokeHistory {
  const kept = history.cursor === history.strokes.length ? history.strokes : history.strokes.slice(0, history.cursor);
  return { strokes: [...kept, stroke], cursor: history.cursor + 1 };
}

export function undo(history: StrokeHistory): StrokeHistory {
  return canUndo(history) ? { strokes: history.strokes, cursor: history.cursor - 1 } : history;
}

export function redo(history: StrokeHistory): StrokeHistory {
  return canRedo(history) ? { strokes: history.strokes, cursor: history.cursor + 1 } : history;
}

/** SPEC §4 Clear: the blank canvas, and no history to go back to. */
export const clearHistory = (): StrokeHistory => EMPTY_HISTORY;

/** Rounds a coordinate to 0.1 px, the precision kept in memory and in storage. */
export const roundCoordinate = (value: number): number => Math.round(value * 10) / 10;

/**
 * Adds a pointer position to the points of a stroke being drawn, rounded to
 * 0.1 px; a position within 0.5 px of the last kept one adds nothing (pens and
 * coalesced events report many), unless `isFinal` (the stroke must end where
 * the pointer was lifted).
 */
export function appendPoint(points: Point[], x: number, y: number, isFinal = false): void {
  const point: Point = [roundCoordinate(x), roundCoordinate(y)];
  const last = points.at(-1);
  if (last) {
    const distance = Math.hypot(point[0] - last[0], point[1] - last[1]);
    if (distance === 0 || (distance < 0.5 && !isFinal)) return;
  }
  points.push(point);
}
