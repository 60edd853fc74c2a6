import { describe, expect, it } from 'vitest';
import {
  arcPath,
  isEmptySlice,
  isFullCircle,
  layOutPie,
  MIN_SLICE_DEGREES,
  placeTooltip,
  pointAt,
  sectorPath,
  sliceAnchor,
  type PieSlice,
} from './pie-geometry.ts';

const centre = { x: 150, y: 150 };
const sweeps = (slices: PieSlice[]) => slices.map((slice) => slice.endAngle - slice.startAngle);

describe('layOutPie', () => {
  it('gives each slice an angle proportional to its value, clockwise from 12 o’clock, in order', () => {
    // The e2e student: Mathematics 100 %, Physics 66.67 % -> 60 % and 40 % of the circle.
    const slices = layOutPie([100, 66.67]);
    expect(slices.map((slice) => slice.startAngle)).toEqual([0, expect.closeTo(216, 1)]);
    expect(slices.map((slice) => slice.endAngle)).toEqual([expect.closeTo(216, 1), 360]);
    expect(slices.map((slice) => slice.share)).toEqual([expect.closeTo(0.6, 3), expect.closeTo(0.4, 3)]);
    expect(slices.map((slice) => slice.index)).toEqual([0, 1]);
  });

  it('makes the slices meet and close the circle exactly', () => {
    const slices = layOutPie([33.33, 50, 66.67, 12.5, 91]);
    for (const [index, slice] of slices.entries()) {
      if (index > 0) expect(slice.startAngle).toBe(slices[index - 1]!.endAngle);
    }
    expect(slices.at(-1)!.endAngle).toBe(360);
    expect(sweeps(slices).reduce((sum, sweep) => sum + sweep, 0)).toBeCloseTo(360, 9);
  });

  it('makes a single subject the full circle', () => {
    const [slice] = layOutPie([33.33]);
    expect(slice).toMatchObject({ startAngle: 0, endAngle: 360, share: 1 });
    expect(isFullCircle(slice!)).toBe(true);
  });

  it('makes the only subject with a value the full circle when the others are at 0', () => {
    const slices = layOutPie([0, 75, 0]);
    expect(slices.map(isEmptySlice)).toEqual([true, false, true]);
    expect(isFullCircle(slices[1]!)).toBe(true);
    expect(slices.map((slice) => slice.share)).toEqual([0, 1, 0]);
  });

  it('gives zero, negative and non-finite values an empty slice and keeps the indexes of the input', () => {
    const slices = layOutPie([0, 50, -10, Number.NaN, 50, Number.POSITIVE_INFINITY]);
    expect(slices.map((slice) => slice.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slices.map(isEmptySlice)).toEqual([true, false, true, true, false, true]);
    expect(sweeps(slices)).toEqual([0, 180, 0, 0, 180, 0]);
    expect(slices.map((slice) => slice.value)).toEqual([0, 50, 0, 0, 50, 0]);
  });

  it('draws nothing when every value is 0 (or there is none)', () => {
    expect(layOutPie([0, 0]).every(isEmptySlice)).toBe(true);
    expect(layOutPie([0, 0]).map((slice) => slice.share)).toEqual([0, 0]);
    expect(layOutPie([])).toEqual([]);
  });

  it('widens a tiny slice to the minimum and takes the difference from the others in proportion', () => {
    // 0.5 % of 100.5 would be 1.8 degrees.
    const slices = layOutPie([60, 40, 0.5]);
    const [large, medium, tiny] = sweeps(slices);
    expect(tiny).toBeCloseTo(MIN_SLICE_DEGREES, 9);
    expect(large! + medium!).toBeCloseTo(360 - MIN_SLICE_DEGREES, 9);
    expect(large! / medium!).toBeCloseTo(60 / 40, 9);
    // The true share is kept for whoever needs the real number.
    expect(slices[2]!.share).toBeCloseTo(0.5 / 100.5, 9);
  });

  it('keeps the floor when widening one slice pushes another below it', () => {
    // 5.59 is 2.001 degrees of this pie; once 0.1 (0.04 degrees) is widened to 2, 1.99.
    const slices = layOutPie([1000, 0.1, 5.59]);
    const [, first, second] = sweeps(slices);
    expect(first).toBeCloseTo(MIN_SLICE_DEGREES, 9);
    expect(second).toBeCloseTo(MIN_SLICE_DEGREES, 9);
  });

  it('shares the circle equally when there are more slices than minimum-width slots', () => {
    const values = [1_000_000, ...Array.from({ length: 199 }, () => 1)];
    const slices = layOutPie(values, MIN_SLICE_DEGREES);
    for (const sweep of sweeps(slices)) expect(sweep).toBeCloseTo(360 / 200, 9);
  });

  it('does not widen anything with a minimum of 0', () => {
    expect(sweeps(layOutPie([99, 1], 0))).toEqual([expect.closeTo(356.4, 9), expect.closeTo(3.6, 9)]);
  });
});

describe('paths', () => {
  it('puts 0 degrees at 12 o’clock and 90 at 3 o’clock', () => {
    expect(pointAt(centre, 100, 0)).toEqual({ x: 150, y: 50 });
    const east = pointAt(centre, 100, 90);
    expect([east.x, east.y]).toEqual([250, expect.closeTo(150, 9)]);
  });

  it('draws a sector from the centre, along the rim clockwise, and back', () => {
    const [, quarter] = layOutPie([3, 1]); // 270 to 360 degrees: 9 to 12 o'clock
    expect(sectorPath(quarter!, centre, 140)).toBe('M150 150L10 150A140 140 0 0 1 150 10Z');
  });

  it('sets the large-arc flag only for a slice over half the circle', () => {
    const [large, small] = layOutPie([3, 1]);
    expect(arcPath(large!, centre, 140)).toMatch(/^M150 10A140 140 0 1 1 10 150$/);
    expect(arcPath(small!, centre, 140)).toContain(' 0 0 1 ');
    // Exactly half: the small arc (both are the same length, either draws it).
    expect(arcPath(layOutPie([1, 1])[0]!, centre, 140)).toContain(' 0 0 1 ');
  });

  it('refuses to draw a sector for a full circle or an empty slice (they are drawn otherwise or not at all)', () => {
    expect(() => sectorPath(layOutPie([5])[0]!, centre, 140)).toThrow(/360 degrees/);
    expect(() => sectorPath(layOutPie([0, 5])[0]!, centre, 140)).toThrow(/0 degrees/);
  });

  it('anchors a slice’s details inside it on its middle angle, a full circle’s at the centre', () => {
    const [, quarter] = layOutPie([3, 1]); // middle at 315 degrees: up and to the left
    const anchor = sliceAnchor(quarter!, centre, 100);
    expect(anchor.x).toBeCloseTo(150 - 60 * Math.SQRT1_2, 9);
    expect(anchor.y).toBeCloseTo(150 - 60 * Math.SQRT1_2, 9);
    expect(sliceAnchor(layOutPie([5])[0]!, centre, 100)).toEqual(centre);
  });
});

describe('placeTooltip', () => {
  const bounds = { left: 0, top: 0, width: 300, height: 300 };
  const size = { width: 200, height: 100 };

  it('puts the tooltip the offset to the right of and below the anchor when it fits', () => {
    expect(placeTooltip({ x: 50, y: 40 }, size, bounds, 10)).toEqual({ x: 60, y: 50 });
  });

  it('flips it to the left and above near the right and bottom edges', () => {
    expect(placeTooltip({ x: 250, y: 260 }, size, bounds, 10)).toEqual({ x: 40, y: 150 });
  });

  it('keeps it inside the bounds when it fits on neither side', () => {
    expect(placeTooltip({ x: 150, y: 150 }, size, bounds, 10)).toEqual({ x: 100, y: 160 });
    expect(placeTooltip({ x: 150, y: 150 }, { width: 400, height: 100 }, bounds, 10).x).toBe(0);
  });

  it('works in bounds that do not start at 0', () => {
    const inner = { left: 45, top: 20, width: 300, height: 300 };
    expect(placeTooltip({ x: 330, y: 30 }, size, inner, 10)).toEqual({ x: 120, y: 40 });
  });
});
