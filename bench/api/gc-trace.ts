/**
 * The server's garbage collections, read from `node --trace-gc` on its stdout: how many of each
 * kind and how long the thread stood still for them, per bench phase. A mark-compact (full)
 * collection stops the only thread for as long as the old generation takes to mark and compact;
 * a run of them is a stall every request waits out, health included.
 */

/**
 * One `--trace-gc` line: `[pid:isolate] … 2410 ms: Mark-Compact 58.7 (79.9) -> 45.9 (79.6) MB, 54.58 / 0.01 ms …`.
 * Every isolate of the process prints them: the server's main thread and tsx's loader thread.
 */
const TRACE_LINE =
  /^\[\d+:(0x[\da-f]+)\]\s+\d+ ms: (Scavenge|Minor Mark-Compact|Mark-Compact(?: \(reduce\))?|Mark-Sweep|Minor Mark-Sweep)\b.*?-> ([\d.]+) \([\d.]+\) MB, ([\d.]+) \/ ([\d.]+) ms/;

export type GcFigures = {
  /** Young-generation collections (scavenges): short, frequent. */
  scavenges: number;
  /** Full collections of the old generation (mark-compact): the pauses that stall. */
  fullGcs: number;
  /** Milliseconds the thread was paused for full collections, in all and at most at once. */
  fullGcPauseMs: number;
  longestFullGcPauseMs: number;
  scavengePauseMs: number;
  /** The heap after the last full collection of the phase, MB (what stays live). */
  heapAfterLastFullGcMb: number | null;
  /** Why V8 ran the full collections (the trace's words), with how many of each. */
  fullGcReasons: Record<string, number>;
};

type GcEvent = { isolate: string; isFull: boolean; pauseMs: number; heapAfterMb: number; reason: string };

/**
 * Counts collections from trace lines; `take()` returns those since the last take, of the
 * main thread only: the isolate with the largest heap (the app's; tsx's loader thread keeps
 * ~10 MB, and its collections stall nobody's request).
 */
export function createGcCounter() {
  let events: GcEvent[] = [];
  const largestHeapMb = new Map<string, number>();
  const mainIsolate = () => [...largestHeapMb].sort((a, b) => b[1] - a[1])[0]?.[0];
  return {
    /** True for a trace line (counted); false for any other output. */
    read(line: string): boolean {
      const match = TRACE_LINE.exec(line);
      if (!match) return false;
      const isolate = match[1]!;
      const heapAfterMb = Number(match[3]);
      largestHeapMb.set(isolate, Math.max(heapAfterMb, largestHeapMb.get(isolate) ?? 0));
      events.push({
        isolate,
        isFull: !match[2]!.startsWith('Scavenge') && !match[2]!.startsWith('Minor'),
        heapAfterMb,
        pauseMs: Number(match[4]) + Number(match[5]),
        reason: /current mu = [\d.]+\) (.*?);? *$/.exec(line)?.[1] ?? 'unknown',
      });
      return true;
    },
    take(): GcFigures {
      const main = mainIsolate();
      const taken = events.filter((event) => event.isolate === main);
      events = [];
      const full = taken.filter((event) => event.isFull);
      const young = taken.filter((event) => !event.isFull);
      const sum = (list: GcEvent[]) => Math.round(list.reduce((total, event) => total + event.pauseMs, 0));
      return {
        scavenges: young.length,
        fullGcs: full.length,
        fullGcPauseMs: sum(full),
        longestFullGcPauseMs: Math.round(Math.max(0, ...full.map((event) => event.pauseMs))),
        scavengePauseMs: sum(young),
        heapAfterLastFullGcMb: full.at(-1)?.heapAfterMb ?? null,
        fullGcReasons: full.reduce<Record<string, number>>(
          (counts, event) => ({ ...counts, [event.reason]: (counts[event.reason] ?? 0) + 1 }),
          {},
        ),
      };
    },
  };
}
