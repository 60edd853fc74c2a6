/**
 * A table that reads as one card per row at phone width (issue 32: no sideways scrolling at
 * 390 px), a table again from `sm` up. Each cell names its column through `data-label`, shown
 * before its value on a phone; the header row stays for assistive technology (sr-only), so the
 * rows keep their column names when read out. The roster import's checked rows started it.
 */
/** A line's column name (data-label) before its value, on a phone; `line` adds the layout. */
const LINE_LABEL =
  'max-sm:gap-2 max-sm:py-0.5 max-sm:text-start max-sm:before:font-semibold max-sm:before:text-muted max-sm:before:content-[attr(data-label)]';

export const STACKED_TABLE = {
  /** The <table> and its <tbody>: blocks on a phone. */
  table: 'max-sm:block',
  body: 'max-sm:block',
  /** The <thead>: read out, not shown, on a phone. */
  head: 'max-sm:sr-only',
  /** A <tr>: a card of lines on a phone. */
  row: 'max-sm:block max-sm:py-2',
  /** A row's heading cell: the card's first line, whole width. */
  heading: 'max-sm:block',
  /** A cell as one line of its row's card on a phone: its column's name (data-label), then its value. */
  line: `max-sm:flex max-sm:before:w-24 max-sm:before:shrink-0 ${LINE_LABEL}`,
  /** `line` without its layout, for a cell that lays out its own (`cn` adds classes, never replaces them). */
  lineLabel: LINE_LABEL,
} as const;
