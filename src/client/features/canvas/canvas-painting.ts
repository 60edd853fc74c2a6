import { t } from '@lingui/core/macro';
import type { SurfaceOps } from './checkpoint-renderer.ts';
import type { Stroke } from './stroke-history.ts';
import { traceSmoothLine } from '../../components/drawing/smooth-line.ts';

/** White: the blank whiteboard, and the background of the saved picture. */
const PAPER = '#ffffff';

/**
 * Paints one stroke in CSS-pixel coordinates (the context carries the
 * CSS-to-device scale), smooth (`traceSmoothLine`, shared with the class
 * board); a single point is a dot of the brush's width.
 */
export function paintStroke(context: CanvasRenderingContext2D, stroke: Stroke): void {
  const { points } = stroke;
  const first = points[0];
  if (!first) return;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.lineWidth = stroke.size;
  context.strokeStyle = stroke.colour;
  context.fillStyle = stroke.colour;
  context.beginPath();
  if (points.length === 1) {
    context.arc(first[0], first[1], stroke.size / 2, 0, Math.PI * 2);
    context.fill();
    return;
  }
  traceSmoothLine(
    context,
    points.length,
    (index) => points[index]![0],
    (index) => points[index]![1],
  );
  context.stroke();
}

/** A canvas (on screen or off) with its 2D context. */
export type CanvasSurface = { canvas: HTMLCanvasElement; context: CanvasRenderingContext2D };

/** The backing store in device pixels and the CSS size it covers. */
export type SurfaceSize = { cssWidth: number; cssHeight: number; pixelWidth: number; pixelHeight: number };

/**
 * Sizes a canvas's backing store and scales its context to CSS pixels. The
 * whiteboard and its checkpoints are opaque (they are never transparent, and
 * opaque canvases composite faster); the overlay of the stroke being drawn is not.
 */
export function openSurface(canvas: HTMLCanvasElement, size: SurfaceSize, isOpaque = true): CanvasSurface {
  canvas.width = size.pixelWidth;
  canvas.height = size.pixelHeight;
  const context = canvas.getContext('2d', { alpha: !isOpaque });
  // Shown by the route's error screen.
  if (!context) throw new Error(t`This browser cannot draw on a canvas.`);
  scaleToCssPixels(context, size);
  return { canvas, context };
}

/** Drawing happens in CSS pixels; the backing store has devicePixelRatio times more, so nothing blurs. */
export function scaleToCssPixels(context: CanvasRenderingContext2D, size: SurfaceSize): void {
  context.setTransform(size.pixelWidth / size.cssWidth, 0, 0, size.pixelHeight / size.cssHeight, 0, 0);
}

function withDevicePixels(context: CanvasRenderingContext2D, work: () => void) {
  context.save();
  context.setTransform(1, 0, 0, 1, 0, 0);
  work();
  context.restore();
}

/** Canvas operations for the checkpoint renderer, all surfaces of one size. */
export function canvasSurfaceOps(size: SurfaceSize): SurfaceOps<CanvasSurface> {
  return {
    create: () => openSurface(document.createElement('canvas'), size),
    reset: ({ context }) =>
      withDevicePixels(context, () => {
        context.fillStyle = PAPER;
        context.fillRect(0, 0, size.pixelWidth, size.pixelHeight);
      }),
    // Same size, identity transform: a pixel-for-pixel copy, no resampling.
    copy: (from, to) => withDevicePixels(to.context, () => to.context.drawImage(from.canvas, 0, 0)),
    draw: ({ context }, stroke) => paintStroke(context, stroke),
  };
}

/** Clears a transparent overlay canvas (the stroke being drawn). */
export function clearOverlay(context: CanvasRenderingContext2D): void {
  withDevicePixels(context, () => context.clearRect(0, 0, context.canvas.width, context.canvas.height));
}

/** Copies a canvas's pixels into `into` (resized to match; a new canvas when null) and returns it. */
export function copyPicture(from: HTMLCanvasElement, into: HTMLCanvasElement | null): HTMLCanvasElement {
  const copy = into ?? document.createElement('canvas');
  // Setting the size also empties it.
  copy.width = from.width;
  copy.height = from.height;
  // Opaque like the board: a plain copy, no blending.
  copy.getContext('2d', { alpha: false })?.drawImage(from, 0, 0);
  return copy;
}

/**
 * Puts the picture of the board at its previous size back on the resized
 * board, at the same CSS place: strokes are in CSS pixels, so only the area
 * changed. With the same device pixels per CSS pixel (devicePixelRatio
 * unchanged) it is a pixel-for-pixel copy; after a zoom or a move to another
 * screen it is scaled, a little soft until the redraw.
 */
export function paintPreviousPicture(
  context: CanvasRenderingContext2D,
  picture: HTMLCanvasElement,
  from: SurfaceSize,
  to: SurfaceSize,
): void {
  const scaleOf = (size: SurfaceSize) => size.pixelWidth / size.cssWidth;
  if (Math.abs(scaleOf(from) - scaleOf(to)) < 0.01) {
    withDevicePixels(context, () => context.drawImage(picture, 0, 0));
  } else {
    context.drawImage(picture, 0, 0, from.cssWidth, from.cssHeight);
  }
}
