import { formatNumber } from '../../lib/format.ts';

/** What the statistics page and its pie chart share: the pie's size, slice colours, numbers. */

/** SPEC §9: the pie is 300 by 300 pixels. */
export const PIE_SIZE_PX = 300;

/**
 * Slice colours: each at least 3:1 against the white page and the white
 * separators (WCAG 1.4.11); the legend and the table carry the same facts in text.
 */
const SLICE_COLOURS = [
  '#4f46e5', // indigo 600
  '#0f766e', // teal 700
  '#c2410c', // orange 700
  '#be185d', // pink 700
  '#0369a1', // sky 700
  '#7e22ce', // purple 700
  '#4d7c0f', // lime 700
  '#b91c1c', // red 700
  '#334155', // slate 700
  '#a16207', // yellow 700
];
export const colourOf = (index: number) => SLICE_COLOURS[index % SLICE_COLOURS.length]!;

/** SPEC §2: numbers of the statistics to 2 decimals, in the locale's digits ("2.50", "2,50"). */
export const twoDecimals = (value: number) =>
  formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An average time in minutes to 2 decimals, with the locale's unit: "12.50 min". */
export const minutesTwoDecimals = (value: number) =>
  formatNumber(value, {
    style: 'unit',
    unit: 'minute',
    unitDisplay: 'short',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
