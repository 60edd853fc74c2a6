/**
 * The line shape both whiteboards draw (the personal one of SPEC §4 and the class board of issue
 * 35): through the midpoints between captured points, with the points as quadratic control
 * points, so it is smooth rather than a polyline. It only adds to the context's current path:
 * the caller sets the paint and strokes, so many lines of one paint can share one stroke() call.
 * `x(i)` and `y(i)` read the i-th point, whatever the points' layout (pairs or one flat array).
 */
export function traceSmoothLine(
  context: CanvasRenderingContext2D,
  count: number,
  x: (index: number) => number,
  y: (index: number) => number,
): void {
  if (count < 1) return;
  context.moveTo(x(0), y(0));
  if (count === 1) {
    // A zero-length line with round caps is a dot of the line's width.
    context.lineTo(x(0), y(0));
    return;
  }
  for (let index = 1; index < count - 1; index += 1) {
    const nextX = x(index + 1);
    const nextY = y(index + 1);
    context.quadraticCurveTo(x(index), y(index), (x(index) + nextX) / 2, (y(index) + nextY) / 2);
  }
  context.lineTo(x(count - 1), y(count - 1));
}
