import type { BoardStroke } from '#shared/class-boards';
import { traceSmoothLine } from '../../components/drawing/smooth-line.ts';

/**
 * Drawing a class board's page on a canvas (issue 35). Strokes are in whole board units, a tenth
 * of a CSS pixel at 100 % (decision 069); a page is a fixed sheet of PAGE_WIDTH × PAGE_HEIGHT
 * units that every screen scales to fit, so everyone sees the same drawing wherever it is, and
 * the PNG and PDF are the sheet. A stroke's width is in CSS pixels at 100 %.
 *
 * Fast for big boards: each stroke is its own path, its points thinned to what shows at the scale
 * (a board of 20,000 strokes rasterises in ~0.3 s in software rather than 2 s), and the painted
 * page is kept: a stroke added at the end is painted alone, only an erase, an undo or another page
 * repaints it all.
 */

/** The sheet: 1600 × 1000 CSS pixels at 100 % (16:10, a projector's and a laptop's shape). */
export const PAGE_WIDTH = 16_000;
export const PAGE_HEIGHT = 10_000;
export const UNITS_PER_PIXEL = 10;
/** The page's paper, and the background of its PNG and PDF. */
export const PAPER = '#ffffff';

/** A stroke's points as board units: x of point i at 2i, y at 2i + 1. */
type Flat = readonly number[];

/**
 * A point nearer than this many device pixels to the last one drawn is left out of the line: at a
 * page fitted to a screen (a tenth of a pixel a unit, or less) a stroke's 50 points are a pixel or
 * two apart, and the rasteriser's time follows the number of segments, not the picture. The line
 * is smoothed through the midpoints of what is kept; 20,000 strokes rasterised in software in
 * ~0.5 s at 1.5 px, ~0.37 s at 2 px (measured at load 4).
 */
const MIN_STEP_PIXELS = 2;

/**
 * A line that would be between one and this many device pixels wide is drawn one device pixel
 * wide: the software rasteriser draws lines of at most a pixel on its fast path (a hairline), and
 * a board of 20,000 such strokes fitted to a laptop's screen rasterises in ~0.1 s instead of
 * ~0.27 s (1.3 px wide, 702 × 439 canvas, headless Chromium). A third of a pixel thinner at most;
 * lines under a pixel already are hairlines (fainter), and a wider one keeps its width.
 */
const HAIRLINE_BELOW_PIXELS = 1.5;
/** Just under a device pixel: a width that maps back to a hair over 1 in floats would miss the fast path. */
const HAIRLINE_PIXELS = 0.999;

/** The context's line width (board units) for a stroke `width` CSS pixels wide, `pixelsPerUnit` device pixels a unit. */
export function lineWidthAt(width: number, pixelsPerUnit: number): number {
  const devicePixels = width * UNITS_PER_PIXEL * pixelsPerUnit;
  return devicePixels > 1 && devicePixels < HAIRLINE_BELOW_PIXELS
    ? HAIRLINE_PIXELS / pixelsPerUnit
    : width * UNITS_PER_PIXEL;
}

/**
 * Paints strokes `from` to the end on a context whose transform maps board units to its pixels
 * (`pixelsPerUnit` of them a unit). Each stroke is its own path: one path of thousands of
 * overlapping lines costs the rasteriser several times more than the same lines stroked apart
 * (20,000 strokes in headless Chromium: 2.3 s against 1.0 s, and 0.3 s with the points thinned).
 */
export function paintBoardStrokes(
  context: CanvasRenderingContext2D,
  strokes: readonly BoardStroke[],
  from = 0,
  pixelsPerUnit = 1,
): void {
  context.lineCap = 'round';
  context.lineJoin = 'round';
  const minStep = MIN_STEP_PIXELS / pixelsPerUnit;
  let colour = '';
  let width = -1;
  for (let index = from; index < strokes.length; index += 1) {
    const stroke = strokes[index]!;
    if (stroke.colour !== colour) {
      colour = stroke.colour;
      context.strokeStyle = colour;
    }
    if (stroke.width !== width) {
      width = stroke.width;
      context.lineWidth = lineWidthAt(width, pixelsPerUnit);
    }
    context.beginPath();
    tracePoints(context, thinned(stroke.points, minStep));
    context.stroke();
  }
}

/** The points without those nearer than `minStep` to the last one kept; the first and last always stay. */
export function thinned(points: Flat, minStep: number): Flat {
  const count = points.length >> 1;
  if (count <= 2 || minStep <= 1) return points;
  const kept = [points[0]!, points[1]!];
  let [lastX, lastY] = kept as [number, number];
  for (let index = 1; index < count - 1; index += 1) {
    const x = points[2 * index]!;
    const y = points[2 * index + 1]!;
    if (Math.abs(x - lastX) < minStep && Math.abs(y - lastY) < minStep) continue;
    kept.push(x, y);
    lastX = x;
    lastY = y;
  }
  kept.push(points[2 * count - 2]!, points[2 * count - 1]!);
  return kept;
}

/** One line through flat points [x0, y0, x1, y1, …], added to the current path. */
export function tracePoints(context: CanvasRenderingContext2D, points: Flat): void {
  traceSmoothLine(
    context,
    points.length >> 1,
    (index) => points[2 * index]!,
    (index) => points[2 * index + 1]!,
  );
}

/** Paints one line (a stroke being drawn, here or by someone else) with its own paint, as the page will. */
export function paintLine(
  context: CanvasRenderingContext2D,
  line: { colour: string; width: number; points: Flat },
  pixelsPerUnit: number,
): void {
  if (line.points.length < 2) return;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.strokeStyle = line.colour;
  context.lineWidth = lineWidthAt(line.width, pixelsPerUnit);
  context.beginPath();
  tracePoints(context, line.points);
  context.stroke();
}

/** How a page's sheet sits in a box of CSS pixels: scaled to fit, centred. */
export type PageFit = { scale: number; offsetX: number; offsetY: number; cssWidth: number; cssHeight: number };

/** The sheet fitted into a box (`scale`: CSS pixels per board unit). */
export function fitPage(boxWidth: number, boxHeight: number): PageFit {
  const scale = Math.max(0.001, Math.min(boxWidth / PAGE_WIDTH, boxHeight / PAGE_HEIGHT));
  const cssWidth = PAGE_WIDTH * scale;
  const cssHeight = PAGE_HEIGHT * scale;
  return { scale, cssWidth, cssHeight, offsetX: 0, offsetY: 0 };
}

/** A point of the page's element (CSS pixels from its corner) in board units, whole and on the sheet. */
export function toBoardPoint(fit: PageFit, cssX: number, cssY: number): [number, number] {
  const clamp = (value: number, max: number) => Math.min(max, Math.max(0, Math.round(value)));
  return [clamp((cssX - fit.offsetX) / fit.scale, PAGE_WIDTH), clamp((cssY - fit.offsetY) / fit.scale, PAGE_HEIGHT)];
}

/** Sets a context to draw in board units on a backing store of `pixelRatio` device pixels per CSS pixel. */
export function setBoardUnits(context: CanvasRenderingContext2D, fit: PageFit, pixelRatio: number): void {
  const scale = fit.scale * pixelRatio;
  context.setTransform(scale, 0, 0, scale, fit.offsetX * pixelRatio, fit.offsetY * pixelRatio);
}

/** Fills a whole canvas with the paper (its transform is kept). */
export function paintPaper(context: CanvasRenderingContext2D): void {
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.fillStyle = PAPER;
  context.fillRect(0, 0, context.canvas.width, context.canvas.height);
  context.restore();
}

/**
 * The committed strokes of the page on show, kept painted on one canvas. `show` paints only what
 * was added at the end since the last call (a stroke drawn here or by someone else); anything else
 * (another page, an erase, an undo, a clear, a new size) repaints the page.
 */
export class PagePainter {
  private pageId: string | null = null;
  private painted: readonly BoardStroke[] = [];
  private fitKey = '';

  constructor(private readonly context: CanvasRenderingContext2D) {}

  show(pageId: string | null, strokes: readonly BoardStroke[], fit: PageFit, pixelRatio: number): void {
    const fitKey = `${fit.scale}:${fit.offsetX}:${fit.offsetY}:${pixelRatio}:${this.context.canvas.width}`;
    const count = this.painted.length;
    const isAppend =
      pageId === this.pageId &&
      fitKey === this.fitKey &&
      strokes.length >= count &&
      (count === 0 || (strokes[0] === this.painted[0] && strokes[count - 1] === this.painted[count - 1]));
    setBoardUnits(this.context, fit, pixelRatio);
    const pixelsPerUnit = fit.scale * pixelRatio;
    if (isAppend) {
      paintBoardStrokes(this.context, strokes, count, pixelsPerUnit);
    } else {
      paintPaper(this.context);
      paintBoardStrokes(this.context, strokes, 0, pixelsPerUnit);
    }
    this.pageId = pageId;
    this.painted = strokes;
    this.fitKey = fitKey;
  }

  /** Forgets what is painted: the next `show` repaints (the canvas was resized). */
  reset(): void {
    this.pageId = null;
    this.painted = [];
  }
}

const boundsCache = new WeakMap<BoardStroke, readonly [number, number, number, number]>();

function boundsOf(stroke: BoardStroke): readonly [number, number, number, number] {
  let bounds = boundsCache.get(stroke);
  if (!bounds) {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    const { points } = stroke;
    for (let index = 0; index < points.length; index += 2) {
      minX = Math.min(minX, points[index]!);
      maxX = Math.max(maxX, points[index]!);
      minY = Math.min(minY, points[index + 1]!);
      maxY = Math.max(maxY, points[index + 1]!);
    }
    bounds = [minX, minY, maxX, maxY];
    boundsCache.set(stroke, bounds);
  }
  return bounds;
}

function distanceToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  const along = length === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length));
  return Math.hypot(px - (ax + along * dx), py - (ay + along * dy));
}

/**
 * The strokes the eraser touches at a point (board units) with a radius (board units): the ones
 * whose line passes within the radius plus half their width. Their bounds are looked at first
 * (kept per stroke), so a page of thousands of strokes is searched within a pointer move.
 */
export function strokesAt(strokes: readonly BoardStroke[], x: number, y: number, radius: number): BoardStroke[] {
  const touched: BoardStroke[] = [];
  for (const stroke of strokes) {
    const reach = radius + (stroke.width * UNITS_PER_PIXEL) / 2;
    const [minX, minY, maxX, maxY] = boundsOf(stroke);
    if (x < minX - reach || x > maxX + reach || y < minY - reach || y > maxY + reach) continue;
    const { points } = stroke;
    if (points.length === 2) {
      if (Math.hypot(x - points[0]!, y - points[1]!) <= reach) touched.push(stroke);
      continue;
    }
    for (let index = 2; index < points.length; index += 2) {
      const near = distanceToSegment(x, y, points[index - 2]!, points[index - 1]!, points[index]!, points[index + 1]!);
      if (near <= reach) {
        touched.push(stroke);
        break;
      }
    }
  }
  return touched;
}
