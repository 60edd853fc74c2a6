import type { Stroke } from './stroke-history.ts';

/**
 * What the renderer needs from a drawing surface. The whiteboard passes canvas
 * operations; the tests pass a surface that records the strokes it holds.
 */
export type SurfaceOps<S> = {
  /** A new blank surface of the current size. */
  create(): S;
  /** Back to blank (white). */
  reset(surface: S): void;
  /** Makes `to` a copy of `from` (same size). */
  copy(from: S, to: S): void;
  draw(surface: S, stroke: Stroke): void;
};

export type CheckpointOptions = {
  /** A checkpoint is kept after every `interval` strokes. */
  interval: number;
  /** At most this many checkpoint surfaces exist at once. */
  maxCheckpoints: number;
};

/** A surface holding the first `count` strokes; `last` is stroke `count - 1`, to notice a rewritten history. */
type Snapshot = { count: number; last: Stroke | undefined };
type Checkpoint<S> = Snapshot & { surface: S };

/**
 * Shows a snapshot of the stroke history on a target surface without
 * replaying every stroke (decision 011). Moving forward (a new stroke, redo)
 * draws the missing strokes on top of what is shown. Moving back (undo)
 * copies the nearest checkpoint at or before the wanted snapshot and replays
 * fewer than `interval` strokes from there. Checkpoints are bitmaps of "the
 * first k·interval strokes", at most `maxCheckpoints` of them, those just
 * below the snapshot on screen kept first, so memory is bounded whatever the
 * number of strokes. Undoing past all of them replays from the blank canvas
 * once and keeps the checkpoints it passes on the way.
 */
export class CheckpointRenderer<S> {
  private shown: Snapshot | null = null;
  private checkpoints: Checkpoint<S>[] = [];
  private spare: S[] = [];

  constructor(
    private readonly ops: SurfaceOps<S>,
    private target: S,
    private readonly options: CheckpointOptions,
  ) {}

  /**
   * Makes the target show the first `cursor` strokes. Returns how many
   * strokes were drawn (a measure of the work, for tests and benchmarks).
   */
  show(strokes: readonly Stroke[], cursor: number): number {
    return this.advance(strokes, cursor, Number.POSITIVE_INFINITY).drawn;
  }

  /**
   * Like `show`, but draws at most `maxStrokes` strokes this time, so a long
   * replay can be spread over several frames: call it again until `isDone`.
   * In between, the target shows an earlier snapshot of the same history.
   */
  advance(strokes: readonly Stroke[], cursor: number, maxStrokes: number): { drawn: number; isDone: boolean } {
    const isCurrent = (snapshot: Snapshot) =>
      snapshot.count <= strokes.length && (snapshot.count === 0 || strokes[snapshot.count - 1] === snapshot.last);
    this.checkpoints = this.checkpoints.filter((checkpoint) => {
      if (isCurrent(checkpoint)) return true;
      this.spare.push(checkpoint.surface);
      return false;
    });

    let start: number;
    if (this.shown && isCurrent(this.shown) && this.shown.count <= cursor) {
      start = this.shown.count;
    } else {
      const base = this.nearestCheckpointAtOrBefore(cursor);
      if (base) this.ops.copy(base.surface, this.target);
      else this.ops.reset(this.target);
      start = base?.count ?? 0;
    }

    const { interval, maxCheckpoints } = this.options;
    const stop = Math.min(cursor, start + Math.max(0, maxStrokes));
    // Checkpoints further back than the ones that will be kept are not worth a copy.
    const lowestKept = cursor - maxCheckpoints * interval;
    for (let index = start; index < stop; index += 1) {
      const stroke = strokes[index]!;
      this.ops.draw(this.target, stroke);
      const count = index + 1;
      if (count % interval === 0 && count > lowestKept && !this.checkpoints.some((c) => c.count === count)) {
        this.keepCheckpoint(count, stroke, cursor);
      }
    }
    this.shown = { count: stop, last: strokes[stop - 1] };
    return { drawn: stop - start, isDone: stop === cursor };
  }

  /**
   * From now on draws on `target`, which first gets a copy of what the
   * current target shows (same size); the old target becomes a spare surface
   * for checkpoints. A replay made off screen is put on screen this way.
   */
  moveTo(target: S): void {
    if (target === this.target) return;
    this.ops.copy(this.target, target);
    this.spare.push(this.target);
    this.target = target;
  }

  /** The surfaces changed size (or were cleared outside): drop every checkpoint and redraw next time. */
  invalidate(): void {
    this.checkpoints = [];
    this.spare = [];
    this.shown = null;
  }

  /** For tests and benchmarks: the strokes counts held by checkpoints, ascending. */
  checkpointCounts(): number[] {
    return this.checkpoints.map((checkpoint) => checkpoint.count).sort((a, b) => a - b);
  }

  private nearestCheckpointAtOrBefore(cursor: number): Checkpoint<S> | undefined {
    let best: Checkpoint<S> | undefined;
    for (const checkpoint of this.checkpoints) {
      if (checkpoint.count <= cursor && (!best || checkpoint.count > best.count)) best = checkpoint;
    }
    return best;
  }

  private keepCheckpoint(count: number, last: Stroke, cursor: number): void {
    const surface = this.spare.pop() ?? this.ops.create();
    this.ops.copy(this.target, surface);
    this.checkpoints.push({ count, last, surface });
    while (this.checkpoints.length > this.options.maxCheckpoints) {
      // Those after the cursor go first (a redo recreates them for one copy), then the oldest.
      const after = this.checkpoints.filter((checkpoint) => checkpoint.count > cursor);
      const pool = after.length > 0 ? after : this.checkpoints;
      const victim = pool.reduce((a, b) =>
        after.length > 0 ? (b.count > a.count ? b : a) : b.count < a.count ? b : a,
      );
      this.checkpoints.splice(this.checkpoints.indexOf(victim), 1);
      this.spare.push(victim.surface);
    }
  }
}
