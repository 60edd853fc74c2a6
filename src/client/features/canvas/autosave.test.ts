import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutosave } from './autosave.ts';

describe('createAutosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves once, 400 ms after the last movement', () => {
    const save = vi.fn();
    const autosave = createAutosave(save, 400);
    autosave.touch();
    vi.advanceTimersByTime(300);
    autosave.touch();
    vi.advanceTimersByTime(399);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(autosave.isPending).toBe(false);
  });

  it('flush saves a pending change at once; cancel forgets it', () => {
    const save = vi.fn();
    const autosave = createAutosave(save, 400);
    autosave.flush();
    expect(save).not.toHaveBeenCalled();
    autosave.touch();
    autosave.flush();
    expect(save).toHaveBeenCalledTimes(1);
    autosave.touch();
    autosave.cancel();
    vi.advanceTimersByTime(1000);
    expect(save).toHaveBeenCalledTimes(1);
  });
});
