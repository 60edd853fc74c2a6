import { z } from 'zod/mini';
import type { UserRole } from '#shared/constants';
import { EMPTY_HISTORY, visibleStrokes, type Point, type Stroke, type StrokeHistory } from './stroke-history.ts';

/**
 * The drawing kept in this browser (SPEC §3 keeps "the canvas image" in local
 * storage; decision 011 keeps the vector history instead, so undo and redo
 * survive a reload and the item stays small). Format, version 1:
 *
 *   {"v":1,"cursor":2,"strokes":[{"c":"#3b3b3b","s":3,"p":[1234,560,5,-2,…]}]}
 *
 * `p` holds integer tenths of a CSS pixel: the first point absolute, every
 * following one as the difference from the one before (small numbers, short JSON).
 */
const FORMAT_VERSION = 1;

/** One item per role and account, so two people sharing a browser keep separate drawings. */
export const drawingStorageKey = (role: UserRole, userId: string) => `whiteboard:${role}:${userId}`;

const storedDrawingSchema = z.object({
  v: z.literal(FORMAT_VERSION),
  cursor: z.int().check(z.gte(0)),
  strokes: z.array(
    z.object({
      c: z.string().check(z.regex(/^#[0-9a-f]{6}$/i)),
      s: z.number().check(z.positive(), z.lte(100)),
      p: z.array(z.int()).check(
        z.minLength(2),
        z.refine((values) => values.length % 2 === 0, 'x and y come in pairs'),
      ),
    }),
  ),
});

const toTenths = (value: number) => Math.round(value * 10);

function encodePoints(points: readonly Point[]): number[] {
  const encoded: number[] = [];
  let previousX = 0;
  let previousY = 0;
  for (const [x, y] of points) {
    const tenthsX = toTenths(x);
    const tenthsY = toTenths(y);
    encoded.push(tenthsX - previousX, tenthsY - previousY);
    previousX = tenthsX;
    previousY = tenthsY;
  }
  return encoded;
}

function decodePoints(encoded: readonly number[]): Point[] {
  const points: Point[] = [];
  let tenthsX = 0;
  let tenthsY = 0;
  for (let index = 0; index < encoded.length; index += 2) {
    tenthsX += encoded[index]!;
    tenthsY += encoded[index + 1]!;
    points.push([tenthsX / 10, tenthsY / 10]);
  }
  return points;
}

/** The history as the compact JSON above. Strokes without points are left out. */
export function serialiseHistory(history: StrokeHistory): string {
  const kept = history.strokes.map((stroke, index) => ({ stroke, index })).filter(({ stroke }) => stroke.points.length);
  return JSON.stringify({
    v: FORMAT_VERSION,
    cursor: kept.filter(({ index }) => index < history.cursor).length,
    strokes: kept.map(({ stroke }) => ({ c: stroke.colour, s: stroke.size, p: encodePoints(stroke.points) })),
  });
}

/** The history stored by serialiseHistory, or null for anything else (another version, damaged data). */
export function parseHistory(text: string): StrokeHistory | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = storedDrawingSchema.safeParse(json);
  if (!parsed.success) return null;
  const strokes: Stroke[] = parsed.data.strokes.map((stored) => ({
    colour: stored.c.toLowerCase(),
    size: stored.s,
    points: decodePoints(stored.p),
  }));
  return { strokes, cursor: Math.min(parsed.data.cursor, strokes.length) };
}

/** The stored drawing, or the blank canvas when there is none or it cannot be read. */
export function loadDrawing(storage: Storage, key: string): StrokeHistory {
  try {
    const stored = storage.getItem(key);
    return (stored && parseHistory(stored)) || EMPTY_HISTORY;
  } catch {
    return EMPTY_HISTORY;
  }
}

export type SaveOutcome = 'saved' | 'saved-without-redo' | 'too-large' | 'unavailable';

const isQuotaExceeded = (error: unknown) =>
  error instanceof DOMException &&
  (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED' || error.code === 22);

/**
 * Stores the drawing. When the browser's quota is full, the strokes undone
 * (the redo tail) are dropped and it tries again; when even the visible
 * drawing does not fit, the previously stored version stays and the caller
 * tells the person (decision 011). Storage switched off counts as unavailable.
 */
export function saveDrawing(storage: Storage, key: string, history: StrokeHistory): SaveOutcome {
  const attempts: [StrokeHistory, SaveOutcome][] = [[history, 'saved']];
  if (history.cursor < history.strokes.length) {
    attempts.push([{ strokes: visibleStrokes(history), cursor: history.cursor }, 'saved-without-redo']);
  }
  for (const [candidate, outcome] of attempts) {
    try {
      storage.setItem(key, serialiseHistory(candidate));
      return outcome;
    } catch (error) {
      if (!isQuotaExceeded(error)) return 'unavailable';
    }
  }
  return 'too-large';
}

/** SPEC §4 Clear removes the stored drawing. */
export function removeDrawing(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Storage switched off: there is nothing stored to remove.
  }
}
