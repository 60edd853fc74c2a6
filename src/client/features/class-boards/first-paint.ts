/**
 * The performance mark of the first paint of a whole board's current page (the browser's copy, or
 * the server's after its first sync), once per page load: issue 35's "a board of 20,000 strokes
 * opens (first paint of the current page) in < 1 s in Chromium", timed by bench/class-board.ts
 * from the navigation's start. Free of React and Yjs: the bench reads the name.
 */
export const FIRST_PAINT_MARK = 'board-first-paint';

let isMarked = false;

/** Marks FIRST_PAINT_MARK once, after the frame that shows what was just drawn (a task after its animation frame). */
export function markFirstPaint(): void {
  if (isMarked || typeof performance === 'undefined' || typeof requestAnimationFrame === 'undefined') return;
  isMarked = true;
  requestAnimationFrame(() => setTimeout(() => performance.mark(FIRST_PAINT_MARK), 0));
}

/** The moments of a first open the bench prints beside the first paint (where the time goes). */
export const BOARD_MOMENTS = {
  /** The board's screen has started its session (the profile is in, the chunk run). */
  started: 'board-session-start',
  downloaded: 'board-download-received',
  applied: 'board-download-applied',
  painting: 'board-first-paint-start',
  painted: 'board-first-paint-end',
} as const;

/** Marks one of BOARD_MOMENTS (the first time only: later paints are not a first open's). */
export function markBoardMoment(name: (typeof BOARD_MOMENTS)[keyof typeof BOARD_MOMENTS]): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name).length > 0) return;
  performance.mark(name);
}
