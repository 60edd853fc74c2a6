/**
 * Runs `save` once `delayMs` after the last `touch()` (SPEC §4: 400 ms after
 * the last drawing movement). `flush()` saves a pending change at once (the
 * page is being hidden or left); `cancel()` forgets it (Clear).
 */
export function createAutosave(save: () => void, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    save();
  };
  return {
    touch() {
      clearTimeout(timer);
      timer = setTimeout(run, delayMs);
    },
    flush() {
      if (timer === undefined) return;
      clearTimeout(timer);
      run();
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
    get isPending() {
      return timer !== undefined;
    },
  };
}

export type Autosave = ReturnType<typeof createAutosave>;
