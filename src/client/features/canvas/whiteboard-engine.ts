import { ERASE_COLOUR, isEraserButton } from './brush.ts';
import {
  canvasSurfaceOps,
  clearOverlay,
  copyPicture,
  openSurface,
  paintPreviousPicture,
  paintStroke,
  type CanvasSurface,
  type SurfaceSize,
} from './canvas-painting.ts';
import { CheckpointRenderer } from './checkpoint-renderer.ts';
import {
  addStroke,
  appendPoint,
  canRedo,
  canUndo,
  clearHistory,
  redo,
  undo,
  type Point,
  type StrokeHistory,
} from './stroke-history.ts';

/** A checkpoint after every 32 strokes: an undo replays at most 31 strokes on top of one bitmap copy. */
const CHECKPOINT_INTERVAL = 32;
/** Checkpoint bitmaps together stay under this (a 1280×800 area at 2× is 16 MB each, so 3 of them). */
const CHECKPOINT_BUDGET_BYTES = 48 * 1024 * 1024;
const MIN_CHECKPOINTS = 2;
const MAX_CHECKPOINTS = 8;
/** After a resize, the full redraw waits until the size has stopped changing this long (a window edge being dragged). */
const RESIZE_SETTLE_MS = 150;
/** The redraw after a resize runs in slices of about this long, one per frame, so no frame waits for all of it. */
const REPLAY_SLICE_MS = 8;
/** Strokes drawn between two looks at the clock during that redraw. */
const REPLAY_CHUNK_STROKES = 32;

export function checkpointCountFor(size: SurfaceSize): number {
  const bytesPerCheckpoint = Math.max(1, size.pixelWidth * size.pixelHeight * 4);
  return Math.min(MAX_CHECKPOINTS, Math.max(MIN_CHECKPOINTS, Math.floor(CHECKPOINT_BUDGET_BYTES / bytesPerCheckpoint)));
}

export type WhiteboardStatus = { canUndo: boolean; canRedo: boolean; isBlank: boolean };

type EngineOptions = {
  history: StrokeHistory;
  /** The history changed (stroke, undo, redo, clear). */
  onHistoryChange(history: StrokeHistory): void;
  /** The pointer moved while drawing (the autosave waits for the last movement). */
  onMovement(): void;
};

/** The canvases the engine draws on while attached. */
type Canvases = {
  /** The whiteboard: committed strokes, opaque, receives the pointer events. */
  board: HTMLCanvasElement;
  /** Transparent overlay on top of it showing the stroke being drawn. */
  overlay: HTMLCanvasElement;
};

type ActiveStroke = { pointerId: number; colour: string; size: number; points: Point[] };

/**
 * A redraw after a resize: waits for the size to settle (`timer`), then
 * replays the history on an off-screen surface a slice per frame (`frame`),
 * then copies it to the board. Until then the board shows its previous
 * picture at the new size (strokes are in CSS pixels, so nothing moves).
 */
type PendingReplay = {
  timer: ReturnType<typeof setTimeout> | undefined;
  frame: number;
  staging: CanvasSurface | null;
  renderer: CheckpointRenderer<CanvasSurface> | null;
};

const statusOf = (history: StrokeHistory): WhiteboardStatus => ({
  canUndo: canUndo(history),
  canRedo: canRedo(history),
  isBlank: history.cursor === 0,
});

/**
 * The whiteboard outside React: pointer input (mouse, touch and pen through
 * Pointer Events, with pointer capture and coalesced events), the backing
 * store sized to CSS size × devicePixelRatio, and the history shown through
 * the checkpoint renderer. Undo and redo redraw synchronously; a resize
 * shows the previous picture at once and redraws in slices once the size
 * settles. React reads the status through subscribe/getStatus
 * (useSyncExternalStore).
 */
export class WhiteboardEngine {
  private history: StrokeHistory;
  private status: WhiteboardStatus;
  private paint = { colour: '#000000', size: 1 };
  private canvases: Canvases | null = null;
  private size: SurfaceSize | null = null;
  private board: CanvasSurface | null = null;
  private overlay: CanvasSurface | null = null;
  private renderer: CheckpointRenderer<CanvasSurface> | null = null;
  private replay: PendingReplay | null = null;
  /** Holds the board's picture while the board is resized (kept for the resizes of one window drag). */
  private scratch: HTMLCanvasElement | null = null;
  private active: ActiveStroke | null = null;
  private frame = 0;
  private cleanups: (() => void)[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: EngineOptions) {
    this.history = options.history;
    this.status = statusOf(this.history);
  }

  /** Starts drawing on these canvases: pointer input and size changes. Returns the detach. */
  attach(canvases: Canvases): () => void {
    this.detach();
    this.canvases = canvases;
    const { board } = canvases;
    const listen = <K extends keyof HTMLElementEventMap>(type: K, handler: (event: HTMLElementEventMap[K]) => void) => {
      board.addEventListener(type, handler);
      this.cleanups.push(() => board.removeEventListener(type, handler));
    };
    listen('pointerdown', this.handlePointerDown);
    listen('pointermove', this.handlePointerMove);
    listen('pointerup', this.handlePointerEnd);
    listen('pointercancel', this.handlePointerEnd);
    listen('lostpointercapture', this.handlePointerEnd);

    const observer = new ResizeObserver((entries) => {
      const entry = entries.at(-1);
      if (entry) this.resize(entry);
    });
    try {
      // Exact device pixels where supported (Chromium); it also reports a devicePixelRatio change.
      observer.observe(board, { box: 'device-pixel-content-box' });
    } catch {
      observer.observe(board);
    }
    this.cleanups.push(() => observer.disconnect());
    this.watchPixelRatio();
    return () => this.detach();
  }

  /** The paint of the next stroke (the brush in the toolbar). */
  setPaint(paint: { colour: string; size: number }): void {
    this.paint = paint;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getStatus = (): WhiteboardStatus => this.status;

  getHistory(): StrokeHistory {
    return this.history;
  }

  undo(): void {
    if (!this.active) this.setHistory(undo(this.history));
  }

  redo(): void {
    if (!this.active) this.setHistory(redo(this.history));
  }

  /** SPEC §4 Clear: white canvas, empty history. */
  clear(): void {
    this.cancelActiveStroke();
    this.renderer?.invalidate();
    this.setHistory(clearHistory());
  }

  /** The whiteboard as a PNG: its backing store, already opaque on white. */
  toPngBlob(): Promise<Blob | null> {
    // The picture shown just after a resize is provisional: finish the redraw first.
    this.finishReplay();
    const board = this.canvases?.board;
    if (!board || board.width === 0 || board.height === 0) return Promise.resolve(null);
    return new Promise((resolve) => board.toBlob(resolve, 'image/png'));
  }

  private detach(): void {
    this.cancelActiveStroke();
    this.cancelReplay();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.canvases = null;
    this.size = null;
    this.board = null;
    this.overlay = null;
    this.renderer = null;
  }

  private setHistory(next: StrokeHistory): void {
    if (next === this.history) return;
    const previous = this.history;
    this.history = next;
    this.render(previous);
    const status = statusOf(next);
    const current = this.status;
    if (
      status.canUndo !== current.canUndo ||
      status.canRedo !== current.canRedo ||
      status.isBlank !== current.isBlank
    ) {
      this.status = status;
      for (const listener of this.listeners) listener();
    }
    this.options.onHistoryChange(next);
  }

  private render(previous: StrokeHistory): void {
    const { strokes, cursor } = this.history;
    const board = this.board;
    if (this.replay && board) {
      const isAppended =
        cursor > previous.cursor &&
        (previous.cursor === 0 || strokes[previous.cursor - 1] === previous.strokes[previous.cursor - 1]);
      if (isAppended) {
        // A stroke (or a redo) during the redraw: on top of the provisional picture now, in the redraw too.
        for (let index = previous.cursor; index < cursor; index += 1) paintStroke(board.context, strokes[index]!);
        return;
      }
      // An undo or a clear must show exactly: finish the redraw at once (it follows the new history).
      this.finishReplay();
      return;
    }
    this.renderer?.show(strokes, cursor);
  }

  private resize(entry: ResizeObserverEntry): void {
    const box = entry.contentBoxSize?.[0];
    const cssWidth = box ? box.inlineSize : entry.contentRect.width;
    const cssHeight = box ? box.blockSize : entry.contentRect.height;
    const scaledWidth = cssWidth * devicePixelRatio;
    const scaledHeight = cssHeight * devicePixelRatio;
    // The exact device-pixel box avoids a rounding blur, but only when it agrees with
    // devicePixelRatio: under DevTools device emulation Chromium reports CSS pixels there.
    const exact = entry.devicePixelContentBoxSize?.[0];
    const isExact =
      exact && Math.abs(exact.inlineSize - scaledWidth) <= 1 && Math.abs(exact.blockSize - scaledHeight) <= 1;
    this.applySize({
      cssWidth,
      cssHeight,
      pixelWidth: isExact ? exact.inlineSize : Math.round(scaledWidth),
      pixelHeight: isExact ? exact.blockSize : Math.round(scaledHeight),
    });
  }

  /**
   * A new size empties both backing stores. The first size draws the history
   * at once. Later ones (a window edge dragged, the side menu collapsed, a
   * phone rotated) put the previous picture back at the same CSS place (a
   * pixel copy while devicePixelRatio is unchanged) and redraw the vectors,
   * sharp and exact, once the size has settled, in slices across frames:
   * with thousands of strokes a full redraw per resize would block each one
   * for hundreds of milliseconds. Strokes outside a smaller area are kept and
   * come back when it grows (with the redraw).
   */
  private applySize(size: SurfaceSize): void {
    const previous = this.size;
    if (
      previous &&
      previous.cssWidth === size.cssWidth &&
      previous.cssHeight === size.cssHeight &&
      previous.pixelWidth === size.pixelWidth &&
      previous.pixelHeight === size.pixelHeight
    ) {
      return;
    }
    const canvases = this.canvases;
    if (!canvases || size.cssWidth <= 0 || size.cssHeight <= 0 || size.pixelWidth <= 0 || size.pixelHeight <= 0) return;
    // A blank board has nothing worth keeping: it is drawn at once, like the first size.
    const shown = this.board;
    const picture =
      shown && previous && (this.history.cursor > 0 || this.replay)
        ? (this.scratch = copyPicture(shown.canvas, this.scratch))
        : null;
    this.size = size;
    this.board = openSurface(canvases.board, size);
    this.overlay = openSurface(canvases.overlay, size, false);
    if (picture && previous) {
      canvasSurfaceOps(size).reset(this.board);
      paintPreviousPicture(this.board.context, picture, previous, size);
      this.renderer = null;
      this.scheduleReplay();
    } else {
      this.cancelReplay();
      this.renderer = this.createRenderer(this.board, size);
      this.renderer.show(this.history.strokes, this.history.cursor);
    }
    this.drawActiveStroke();
  }

  private createRenderer(target: CanvasSurface, size: SurfaceSize): CheckpointRenderer<CanvasSurface> {
    return new CheckpointRenderer(canvasSurfaceOps(size), target, {
      interval: CHECKPOINT_INTERVAL,
      maxCheckpoints: checkpointCountFor(size),
    });
  }

  /** (Re)starts the redraw after a resize: it waits for the size to settle. */
  private scheduleReplay(): void {
    this.cancelReplay();
    const replay: PendingReplay = { timer: undefined, frame: 0, staging: null, renderer: null };
    replay.timer = setTimeout(() => {
      replay.timer = undefined;
      this.stepReplay(REPLAY_SLICE_MS);
    }, RESIZE_SETTLE_MS);
    this.replay = replay;
    // Tests and assistive technology can tell the picture is still being redrawn.
    this.canvases?.board.setAttribute('aria-busy', 'true');
  }

  /** Redraws for about `sliceMs` (Infinity: to the end), then goes on next frame or puts the result on the board. */
  private stepReplay(sliceMs: number): void {
    const { replay, size, board } = this;
    if (!replay || !size || !board) return;
    // Off screen, so the board keeps its provisional picture until the redraw is complete.
    replay.staging ??= openSurface(document.createElement('canvas'), size);
    replay.renderer ??= this.createRenderer(replay.staging, size);
    const deadline = performance.now() + sliceMs;
    let isDone: boolean;
    do {
      // The history as it is now: strokes, undos and redos during the redraw are followed.
      ({ isDone } = replay.renderer.advance(this.history.strokes, this.history.cursor, REPLAY_CHUNK_STROKES));
      // Canvas drawing is recorded and rasterised later, all at once when the picture is used:
      // reading a pixel makes each chunk's real cost happen now, within this slice.
      if (Number.isFinite(sliceMs)) replay.staging.context.getImageData(0, 0, 1, 1);
    } while (!isDone && performance.now() < deadline);
    if (!isDone) {
      replay.frame = requestAnimationFrame(() => {
        replay.frame = 0;
        this.stepReplay(REPLAY_SLICE_MS);
      });
      return;
    }
    replay.renderer.moveTo(board);
    this.renderer = replay.renderer;
    this.replay = null;
    this.scratch = null;
    this.canvases?.board.removeAttribute('aria-busy');
  }

  /** Completes a pending redraw now (an undo, a Save). */
  private finishReplay(): void {
    const replay = this.replay;
    if (!replay) return;
    clearTimeout(replay.timer);
    cancelAnimationFrame(replay.frame);
    this.stepReplay(Number.POSITIVE_INFINITY);
  }

  private cancelReplay(): void {
    const replay = this.replay;
    if (!replay) return;
    clearTimeout(replay.timer);
    cancelAnimationFrame(replay.frame);
    this.replay = null;
    this.canvases?.board.removeAttribute('aria-busy');
  }

  /** Browsers without device-pixel boxes (Safari) report a zoom or a new screen here instead. */
  private watchPixelRatio(): void {
    let query: MediaQueryList | null = null;
    const handleChange = () => {
      query?.removeEventListener('change', handleChange);
      const rect = this.canvases?.board.getBoundingClientRect();
      if (rect && this.size) {
        this.applySize({
          cssWidth: rect.width,
          cssHeight: rect.height,
          pixelWidth: Math.round(rect.width * devicePixelRatio),
          pixelHeight: Math.round(rect.height * devicePixelRatio),
        });
      }
      query = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
      query.addEventListener('change', handleChange);
    };
    query = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
    query.addEventListener('change', handleChange);
    this.cleanups.push(() => query?.removeEventListener('change', handleChange));
  }

  private readonly handlePointerDown = (event: PointerEvent) => {
    if (this.active || !event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const board = this.canvases?.board;
    if (!board) return;
    // No text selection or drag; the focus would stay where it was (the colour field, the size
    // menu), so move it to the board: Ctrl/Cmd+Z then undoes here.
    event.preventDefault();
    board.focus({ preventScroll: true });
    try {
      board.setPointerCapture(event.pointerId);
    } catch {
      // A synthetic or already released pointer: drawing still works while it stays on the board.
    }
    // The other end of a pen (its eraser) erases, whatever the tool: for this stroke only.
    const colour = isEraserButton(event) ? ERASE_COLOUR : this.paint.colour;
    this.active = { pointerId: event.pointerId, colour, size: this.paint.size, points: [] };
    const origin = board.getBoundingClientRect();
    appendPoint(this.active.points, event.clientX - origin.left, event.clientY - origin.top);
    this.scheduleActiveStroke();
    this.options.onMovement();
  };

  private readonly handlePointerMove = (event: PointerEvent) => {
    const active = this.active;
    const board = this.canvases?.board;
    if (!active || !board || event.pointerId !== active.pointerId) return;
    // Read at every event, not once per stroke: the board can move or change size mid-stroke
    // (a toolbar wrapping, a banner, a rotation). Layout is normally clean here, so it is cheap.
    const origin = board.getBoundingClientRect();
    // Coalesced events carry the positions the browser merged into this one (smoother fast strokes).
    const coalesced = typeof event.getCoalescedEvents === 'function' ? event.getCoalescedEvents() : [];
    for (const sample of coalesced.length > 0 ? coalesced : [event]) {
      appendPoint(active.points, sample.clientX - origin.left, sample.clientY - origin.top);
    }
    this.scheduleActiveStroke();
    this.options.onMovement();
  };

  private readonly handlePointerEnd = (event: PointerEvent) => {
    const active = this.active;
    if (!active || event.pointerId !== active.pointerId) return;
    const board = this.canvases?.board;
    if (event.type === 'pointerup' && board) {
      const origin = board.getBoundingClientRect();
      appendPoint(active.points, event.clientX - origin.left, event.clientY - origin.top, true);
    }
    this.active = null;
    this.cancelFrame();
    if (this.overlay) clearOverlay(this.overlay.context);
    // A cancelled touch (the browser took over) keeps what was drawn: the person saw it appear.
    this.setHistory(addStroke(this.history, { colour: active.colour, size: active.size, points: active.points }));
  };

  private cancelActiveStroke(): void {
    this.active = null;
    this.cancelFrame();
    if (this.overlay) clearOverlay(this.overlay.context);
  }

  /** The stroke being drawn is repainted on the overlay once per frame, however many events arrive. */
  private scheduleActiveStroke(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.drawActiveStroke();
    });
  }

  private cancelFrame(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private drawActiveStroke(): void {
    const overlay = this.overlay;
    if (!overlay) return;
    clearOverlay(overlay.context);
    const active = this.active;
    if (active) paintStroke(overlay.context, { colour: active.colour, size: active.size, points: active.points });
  }
}
