import { describe, expect, it } from 'vitest';
import { createBatches } from './batches.ts';

/** The batching itself (the live game's answers, the class board's updates use it on a real database). */
describe('createBatches', () => {
  it('runs at once when idle, then sends what arrived meanwhile as one batch, in order', async () => {
    const batches: number[][] = [];
    let release = () => {};
    const { add } = createBatches(
      async (items: readonly number[]) => {
        batches.push([...items]);
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return items.map((item) => item * 10);
      },
      { maxSize: 3 },
    );
    const first = add(1);
    const rest = [2, 3, 4, 5].map((item) => add(item));
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('hands a failed batch’s error to each of its callers, and goes on with the next', async () => {
    let calls = 0;
    const { add } = createBatches(
      async (items: readonly string[]) => {
        calls++;
        if (calls === 1) throw new Error('database gone');
        return items.map((item) => item.toUpperCase());
      },
      { maxSize: 10 },
    );
    const failed = add('a');
    const next = add('b');
    await expect(failed).rejects.toThrow('database gone');
    expect(await next).toBe('B');
  });

  it('says when it is idle: the last batch has run and nothing waits', async () => {
    let idle = 0;
    const { add } = createBatches(async (items: readonly number[]) => [...items], {
      maxSize: 2,
      onIdle: () => idle++,
    });
    const all = Promise.all([1, 2, 3].map((item) => add(item)));
    expect(idle).toBe(0);
    expect(await all).toEqual([1, 2, 3]);
    expect(idle).toBe(1);
  });
});
