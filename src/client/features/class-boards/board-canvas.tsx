import { useLingui } from '@lingui/react/macro';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { CLASS_BOARD_LIMITS, type BoardStroke } from '#shared/class-boards';
import { isEraserButton } from '../../components/drawing/pen-input.ts';
import type { BoardPeer, BoardSession } from './board-model.ts';
import {
  fitPage,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  PagePainter,
  paintLine,
  setBoardUnits,
  strokesAt,
  toBoardPoint,
  UNITS_PER_PIXEL,
  type PageFit,
} from './board-render.ts';
import { labelTextColour } from './board-contrast.ts';
import { BOARD_MOMENTS, markBoardMoment, markFirstPaint } from './first-paint.ts';

/** The pen's widths on offer, CSS pixels at 100 % (within the schema's 0.5 to 64). */
export const BOARD_WIDTHS = [1, 2, 3, 5, 8, 12, 20, 30] as const;
/** The pen when the board opens: the personal whiteboard's dark grey, a middle width. */
export const FIRST_TOOL: BoardTool = { mode: 'pen', colour: '#3b3b3b', width: 5 };

/** The tool in hand: a pen of a colour and width (CSS pixels at 100 %), or the eraser. */
export type BoardTool = { mode: 'pen' | 'eraser'; colour: string; width: number };

const NO_STROKES: readonly BoardStroke[] = [];

/** The least height the sheet is given when the window's room below its top is less (CSS pixels). */
const MIN_SHEET_HEIGHT = 240;

/** The eraser's reach around the pointer, in board units (a 12 px circle at 100 %). */
const ERASER_RADIUS = 6 * UNITS_PER_PIXEL;

/** The line being drawn, on the page it began on: a page deleted or moved meanwhile does not take it elsewhere. */
type LiveLine = {
  pointerId: number;
  pageId: string;
  points: number[];
  mode: BoardTool['mode'];
  erased: Set<string>;
};

/**
 * A page of the class board (issue 35): the committed strokes on one canvas (PagePainter), the
 * line being drawn on a transparent one above it, and the others' cursors with their names. The
 * pen draws locally while the pointer is down and the stroke goes to the session on pen up; the
 * eraser hides the strokes it passes over and erases them together on pen up (one undo step). Without the pen (`canDraw` false) the page only shows.
 * The sheet keeps its geometry in a right-to-left page (`dir="ltr"`): a drawing does not mirror.
 */
export function BoardCanvas(props: {
  session: BoardSession;
  pageId: string;
  strokes: readonly BoardStroke[];
  tool: BoardTool;
  canDraw: boolean;
  peers: readonly BoardPeer[];
  showCursors: boolean;
  pageName: string;
  /** Whether `strokes` are a whole board's (BoardState.isLoaded): their first paint is marked. */
  isLoaded: boolean;
}) {
  const { session, pageId, strokes, tool, canDraw, isLoaded } = props;
  const { t } = useLingui();
  const boxRef = useRef<HTMLDivElement>(null);
  const boardRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const painterRef = useRef<PagePainter | null>(null);
  const liveRef = useRef<LiveLine | null>(null);
  const [fit, setFit] = useState<PageFit>(() => fitPage(800, 500));
  // Nothing is painted before the box is measured: a first paint at the default size was thrown
  // away at once (the canvas resized), which at 20,000 strokes cost a second paint and its raster.
  const [isMeasured, setIsMeasured] = useState(false);
  // The strokes an eraser drag has passed over: hidden at once, erased together on pen up (one undo).
  const [erasing, setErasing] = useState<ReadonlySet<string>>(() => new Set());
  const shown = useMemo(
    () => (erasing.size === 0 ? strokes : strokes.filter((stroke) => !erasing.has(stroke.id))),
    [strokes, erasing],
  );
  const pixelRatio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;

  // The latest props for the pointer handlers, which are attached once.
  const latest = useRef({ session, pageId, strokes, tool, canDraw, fit });
  useLayoutEffect(() => {
    latest.current = { session, pageId, strokes, tool, canDraw, fit };
  });

  // The sheet fits its box, whatever the screen.
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () => {
      const width = box.clientWidth;
      const widthHeight = (width * PAGE_HEIGHT) / PAGE_WIDTH;
      // As wide as the box, and within the window's height below the box's top in the page (a
      // laptop's 800 px), not where it is scrolled to. Something above it pushing it down (the
      // pen panel on a tablet) does not shrink it below half the window: the page scrolls instead.
      const top = box.getBoundingClientRect().top + window.scrollY;
      const room = window.innerHeight - Math.max(0, top) - 16;
      const least = Math.max(MIN_SHEET_HEIGHT, window.innerHeight / 2);
      const height = Math.min(widthHeight, Math.max(least, room));
      if (width <= 0) return;
      const next = fitPage(width, height);
      setFit((before) => (before.cssWidth === next.cssWidth && before.cssHeight === next.cssHeight ? before : next));
      setIsMeasured(true);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    // What is above it settling after the first paint (the pages, the tools once the pen is known)
    // moves the box without resizing it: the page's own size changes then.
    observer.observe(document.documentElement);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);

  // Backing stores in device pixels: sizing a canvas empties it, so the page is painted again.
  useLayoutEffect(() => {
    const board = boardRef.current;
    const overlay = overlayRef.current;
    if (!board || !overlay) return;
    for (const canvas of [board, overlay]) {
      canvas.width = Math.max(1, Math.round(fit.cssWidth * pixelRatio));
      canvas.height = Math.max(1, Math.round(fit.cssHeight * pixelRatio));
    }
    const context = board.getContext('2d', { alpha: false });
    painterRef.current = context ? new PagePainter(context) : null;
  }, [fit, pixelRatio]);

  // A page of a board not whole yet (a late joiner's pieces arriving, in any order) shows its paper
  // and waits for the rest: painted once whole rather than again at each piece.
  useLayoutEffect(() => {
    if (!painterRef.current || !isMeasured) return;
    if (isLoaded) markBoardMoment(BOARD_MOMENTS.painting);
    painterRef.current.show(pageId, isLoaded ? shown : NO_STROKES, fit, pixelRatio);
    if (isLoaded) {
      markBoardMoment(BOARD_MOMENTS.painted);
      markFirstPaint();
    }
  }, [pageId, shown, fit, pixelRatio, isLoaded, isMeasured]);

  // Pointer input, attached once; reads the latest props.
  useEffect(() => {
    const overlay = overlayRef.current;
    if (!overlay) return;
    const context = overlay.getContext('2d');
    let cursorFrame = 0;
    let pendingCursor: { x: number; y: number } | null = null;

    const pointOf = (event: PointerEvent) => {
      const rect = overlay.getBoundingClientRect();
      return toBoardPoint(latest.current.fit, event.clientX - rect.left, event.clientY - rect.top);
    };
    const sendCursor = (point: [number, number]) => {
      pendingCursor = { x: point[0], y: point[1] };
      if (cursorFrame) return;
      cursorFrame = requestAnimationFrame(() => {
        cursorFrame = 0;
        if (pendingCursor) latest.current.session.setCursor({ pageId: latest.current.pageId, ...pendingCursor });
      });
    };
    const paintLive = () => {
      if (!context) return;
      context.setTransform(1, 0, 0, 1, 0, 0);
      context.clearRect(0, 0, overlay.width, overlay.height);
      const live = liveRef.current;
      if (!live || live.mode !== 'pen') return;
      setBoardUnits(context, latest.current.fit, pixelRatio);
      paintLine(
        context,
        { colour: latest.current.tool.colour, width: latest.current.tool.width, points: live.points },
        latest.current.fit.scale * pixelRatio,
      );
    };
    const erase = (live: LiveLine, point: [number, number]) => {
      // Another page is on show now (this one was deleted or left): its strokes are not this line's.
      if (latest.current.pageId !== live.pageId) return;
      const touched = strokesAt(latest.current.strokes, point[0], point[1], ERASER_RADIUS).filter(
        (stroke) => !live.erased.has(stroke.id),
      );
      if (touched.length === 0) return;
      for (const stroke of touched) live.erased.add(stroke.id);
      setErasing(new Set(live.erased));
    };
    const commit = (live: LiveLine) => {
      // The page the line began on, whichever is on show now (a page gone takes nothing).
      const { session: current, tool: pen } = latest.current;
      if (live.mode === 'pen' && live.points.length >= 2) {
        current.addStroke(live.pageId, { colour: pen.colour, width: pen.width, points: live.points });
      }
      if (live.mode === 'eraser' && live.erased.size > 0) current.eraseStrokes(live.pageId, [...live.erased]);
    };
    const add = (live: LiveLine, point: [number, number]) => {
      const { points } = live;
      if (points.length >= 2 && points.at(-2) === point[0] && points.at(-1) === point[1]) return;
      points.push(point[0], point[1]);
      // A long line goes as several strokes, each within the schema's points.
      if (points.length >= 2 * CLASS_BOARD_LIMITS.strokePointsMax) {
        commit(live);
        live.points = [point[0], point[1]];
      }
    };

    const handleDown = (event: PointerEvent) => {
      if (!latest.current.canDraw || liveRef.current || !event.isPrimary) return;
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      event.preventDefault();
      try {
        overlay.setPointerCapture(event.pointerId);
      } catch {
        // A synthetic pointer: drawing still works while it stays on the sheet.
      }
      const mode = isEraserButton(event) ? 'eraser' : latest.current.tool.mode;
      const point = pointOf(event);
      const live: LiveLine = {
        pointerId: event.pointerId,
        pageId: latest.current.pageId,
        points: [point[0], point[1]],
        mode,
        erased: new Set(),
      };
      liveRef.current = live;
      if (mode === 'eraser') erase(live, point);
      paintLive();
    };
    const handleMove = (event: PointerEvent) => {
      const point = pointOf(event);
      sendCursor(point);
      const live = liveRef.current;
      if (!live || event.pointerId !== live.pointerId) return;
      const events = typeof event.getCoalescedEvents === 'function' ? event.getCoalescedEvents() : [];
      for (const each of events.length > 0 ? events : [event]) {
        const at = pointOf(each);
        if (live.mode === 'eraser') erase(live, at);
        else add(live, at);
      }
      paintLive();
    };
    const handleEnd = (event: PointerEvent) => {
      const live = liveRef.current;
      if (!live || event.pointerId !== live.pointerId) return;
      liveRef.current = null;
      if (event.type !== 'pointercancel') commit(live);
      if (live.erased.size > 0) setErasing(new Set());
      paintLive();
    };
    const handleLeave = () => {
      if (!liveRef.current) latest.current.session.setCursor(null);
    };

    overlay.addEventListener('pointerdown', handleDown);
    overlay.addEventListener('pointermove', handleMove);
    overlay.addEventListener('pointerup', handleEnd);
    overlay.addEventListener('pointercancel', handleEnd);
    overlay.addEventListener('lostpointercapture', handleEnd);
    overlay.addEventListener('pointerleave', handleLeave);
    return () => {
      cancelAnimationFrame(cursorFrame);
      overlay.removeEventListener('pointerdown', handleDown);
      overlay.removeEventListener('pointermove', handleMove);
      overlay.removeEventListener('pointerup', handleEnd);
      overlay.removeEventListener('pointercancel', handleEnd);
      overlay.removeEventListener('lostpointercapture', handleEnd);
      overlay.removeEventListener('pointerleave', handleLeave);
      latest.current.session.setCursor(null);
    };
  }, [pixelRatio]);

  const cursors = props.showCursors ? props.peers.filter((peer) => peer.cursor?.pageId === pageId) : [];
  const pageName = props.pageName;
  return (
    // On a phone the sheet takes the screen's width, past the page's margins (a 16:10 sheet is
    // limited by the width there).
    <div
      ref={boxRef}
      dir="ltr"
      className="relative flex w-full items-start justify-center max-sm:-mx-4 max-sm:w-[calc(100%+2rem)]"
    >
      <div
        className="relative shadow-sm ring-1 ring-line-strong"
        style={{ width: fit.cssWidth, height: fit.cssHeight }}
      >
        <canvas
          ref={boardRef}
          role="img"
          aria-label={t`Class board, page ${pageName}`}
          className="absolute inset-0 size-full bg-white"
        />
        <canvas
          ref={overlayRef}
          aria-hidden="true"
          data-testid="board-input"
          className={`absolute inset-0 size-full touch-none ${canDraw ? (tool.mode === 'eraser' ? 'cursor-cell' : 'cursor-crosshair') : 'cursor-not-allowed'}`}
        />
        {cursors.map((peer) => (
          <PeerCursor key={peer.clientId} peer={peer} fit={fit} />
        ))}
      </div>
    </div>
  );
}

function PeerCursor({ peer, fit }: { peer: BoardPeer; fit: PageFit }) {
  const cursor = peer.cursor!;
  const x = fit.offsetX + cursor.x * fit.scale;
  const y = fit.offsetY + cursor.y * fit.scale;
  return (
    <div
      className="pointer-events-none absolute start-0 top-0 flex items-start gap-0.5 transition-transform duration-75"
      style={{ transform: `translate(${x}px, ${y}px)` }}
    >
      <svg viewBox="0 0 12 16" className="size-4 drop-shadow" aria-hidden="true">
        <path d="M0 0 L0 13 L3.5 10 L6 15.5 L8 14.5 L5.7 9.3 L10.5 9.3 Z" fill={peer.colour} stroke="white" />
      </svg>
      <span
        className="mt-3 rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap shadow"
        style={{ backgroundColor: peer.colour, color: labelTextColour(peer.colour) }}
      >
        <bdi>{peer.name}</bdi>
      </span>
    </div>
  );
}
