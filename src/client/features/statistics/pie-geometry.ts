/**
 * The geometry of the statistics pie, with no React and no DOM so it can be unit tested:
 * which angle each slice covers, the SVG path that draws it, where its details go.
 *
 * Angles are degrees clockwise from 12 o'clock, the way people read a pie.
 */

export type Point = { x: number; y: number };
export type Box = { left: number; top: number; width: number; height: number };

/**
 * The narrowest slice drawn, in degrees. The white separators take about a pixel from each
 * side of a slice, so a subject at 0.3 % of the pie would be a white line; 2 degrees is a
 * sliver about 5 px wide at the rim that a pointer can still find. The other slices give up
 * what this costs in proportion; the legend and the table keep the exact numbers.
 */
export const MIN_SLICE_DEGREES = 2;

export type PieSlice = {
  /** Position in the input: the subject's colour and legend entry. */
  index: number;
  /** The value counted: 0 for anything that is not a positive finite number. */
  value: number;
  /** value / total of the values, 0 to 1: the true share, before any widening. */
  share: number;
  startAngle: number;
  endAngle: number;
};

const sweepOf = (slice: PieSlice) => slice.endAngle - slice.startAngle;

/** Nothing to draw: a zero (or missing) value. */
export const isEmptySlice = (slice: PieSlice) => sweepOf(slice) <= 0;

/**
 * The only slice with a value: drawn as a circle, not as a 360-degree sector, whose start and
 * end points coincide (an arc between equal points draws nothing) and whose edge from the
 * centre would show as a white seam.
 */
export const isFullCircle = (slice: PieSlice) => sweepOf(slice) >= 360;

/**
 * Lays the values out around the circle in their order, each slice's angle proportional to
 * its value, no non-empty slice narrower than `minSweep` degrees. Zero, negative and
 * non-finite values get an empty slice (start = end) so indexes still match the input.
 */
export function layOutPie(values: readonly number[], minSweep = MIN_SLICE_DEGREES): PieSlice[] {
  const counted = values.map((value) => (Number.isFinite(value) && value > 0 ? value : 0));
  const total = counted.reduce((sum, value) => sum + value, 0);
  const nonEmpty = counted.filter((value) => value > 0).length;
  const sweeps = counted.map(() => 0);

  if (nonEmpty > 0) {
    // With more slices than 360 / minSweep the floor cannot hold for all: they share equally.
    const floor = Math.min(minSweep, 360 / nonEmpty);
    const widened = new Set<number>();
    // Widening one slice takes from the others, which may push another below the floor: repeat.
    for (;;) {
      const rest = 360 - widened.size * floor;
      const restTotal = counted.reduce((sum, value, index) => (widened.has(index) ? sum : sum + value), 0);
      const narrow = counted.findIndex(
        (value, index) => value > 0 && !widened.has(index) && (value / restTotal) * rest < floor,
      );
      if (narrow === -1) {
        counted.forEach((value, index) => {
          if (value > 0) sweeps[index] = widened.has(index) ? floor : (value / restTotal) * rest;
        });
        break;
      }
      widened.add(narrow);
    }
  }

  const lastNonEmpty = counted.findLastIndex((value) => value > 0);
  let angle = 0;
  return counted.map((value, index) => {
    const startAngle = angle;
    // The last slice closes the circle exactly: no hairline gap from rounding.
    const endAngle = index === lastNonEmpty ? 360 : startAngle + sweeps[index]!;
    angle = endAngle;
    return { index, value, share: total > 0 ? value / total : 0, startAngle, endAngle };
  });
}

/** The point at `angle` degrees (clockwise from 12 o'clock) and `radius` from `centre`. */
export function pointAt(centre: Point, radius: number, angle: number): Point {
  const radians = (angle * Math.PI) / 180;
  return { x: centre.x + radius * Math.sin(radians), y: centre.y - radius * Math.cos(radians) };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** The arc from the slice's start to its end at `radius`, clockwise (`M… A…`). */
export function arcPath(slice: PieSlice, centre: Point, radius: number): string {
  const start = pointAt(centre, radius, slice.startAngle);
  const end = pointAt(centre, radius, slice.endAngle);
  const largeArc = sweepOf(slice) > 180 ? 1 : 0;
  // Sweep flag 1: the positive-angle direction, which is clockwise on a screen (y points down).
  return `M${round(start.x)} ${round(start.y)}A${radius} ${radius} 0 ${largeArc} 1 ${round(end.x)} ${round(end.y)}`;
}

/**
 * The SVG path of a slice that is neither empty nor the full circle: from the centre to the
 * rim, along the rim, back to the centre.
 */
export function sectorPath(slice: PieSlice, centre: Point, radius: number): string {
  if (isEmptySlice(slice) || isFullCircle(slice)) {
    throw new Error(`slice ${slice.index} sweeps ${sweepOf(slice)} degrees: no sector to draw`);
  }
  return `M${round(centre.x)} ${round(centre.y)}L${arcPath(slice, centre, radius).slice(1)}Z`;
}

/** Where a slice's details point at: inside the slice, on its middle angle; the centre for a full or empty slice. */
export function sliceAnchor(slice: PieSlice, centre: Point, radius: number): Point {
  if (isEmptySlice(slice) || isFullCircle(slice)) return centre;
  return pointAt(centre, radius * 0.6, (slice.startAngle + slice.endAngle) / 2);
}

/**
 * The top-left corner of a tooltip of `size` shown for `anchor`: `offset` px to the right of
 * and below it, on the other side where it would leave `bounds`, and moved back into `bounds`
 * when it fits on neither side (it then covers the anchor: better than being cut off).
 */
export function placeTooltip(
  anchor: Point,
  size: { width: number; height: number },
  bounds: Box,
  offset: number,
): Point {
  const place = (at: number, length: number, min: number, span: number) => {
    const max = min + span;
    const after = at + offset;
    const before = at - offset - length;
    const chosen = after + length <= max ? after : before >= min ? before : after;
    return Math.max(min, Math.min(chosen, max - length));
  };
  return {
    x: place(anchor.x, size.width, bounds.left, bounds.width),
    y: place(anchor.y, size.height, bounds.top, bounds.height),
  };
}
