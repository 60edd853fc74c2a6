/**
 * Work that arrives while the same kind of work is in flight waits for it, then goes as one
 * batch: nothing waits when the server is idle, and under a burst (a class answering in the
 * same second) one statement and one commit serve many callers instead of one each.
 *
 * `run` gets the batch (never empty, at most `maxSize`) and answers each item's result in the
 * same order; if it fails, every caller of that batch gets its error. Used by the live game's
 * answers and the class board's updates.
 */
export function createBatches<Item, Result>(
  run: (items: readonly Item[]) => Promise<Result[]>,
  options: {
    maxSize: number;
    /** Called when the last batch has run and nothing waits (a caller keeping batches per key drops them). */
    onIdle?: () => void;
  },
) {
  type Waiting = { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, options.maxSize);
      waiting = waiting.slice(batch.length);
      try {
        const results = await run(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => entry.resolve(results[i]!));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    flushing = null;
    options.onIdle?.();
  }

  return {
    add(item: Item): Promise<Result> {
      return new Promise<Result>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        flushing ??= flush();
      });
    },
    /** Once everything added so far (and anything added meanwhile) has run: nothing waits, nothing in flight. */
    settled(): Promise<void> {
      return flushing ?? Promise.resolve();
    },
  };
}
