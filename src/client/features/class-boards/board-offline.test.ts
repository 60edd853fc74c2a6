import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { indexedDbBoardStore, memoryBoardStore, savedBoardKey, type SavedBoard } from './board-offline.ts';

/** The browser's copy of a board: kept per person and class; without IndexedDB, nothing kept and nothing broken. */

const copy: SavedBoard = {
  state: new Uint8Array([1, 2, 3]),
  unsaved: [new Uint8Array([4])],
  pen: { mode: 'everyone', studentIds: [] },
  canDraw: true,
  teacher: false,
};

describe('the board’s browser copy', () => {
  it('keeps one copy per person and class, apart from what the page goes on changing', async () => {
    const store = memoryBoardStore();
    const key = savedBoardKey('ada', 'class-1');
    const kept = structuredClone(copy);
    await store.save(key, kept);
    kept.unsaved.push(new Uint8Array([5]));
    expect(await store.load(key)).toEqual(copy);
    expect(await store.load(savedBoardKey('ben', 'class-1'))).toBeUndefined();
    expect(savedBoardKey('ada', 'class-1')).not.toBe(savedBoardKey('ada', 'class-2'));
  });

  it('keeps the copy in IndexedDB across pages of the browser (a reload), bytes and all', async () => {
    const browser = new IDBFactory();
    const key = savedBoardKey('ada', 'class-1');
    await indexedDbBoardStore(browser).save(key, copy);
    // A new page: the database opened again.
    const reloaded = await indexedDbBoardStore(browser).load(key);
    expect(reloaded).toEqual(copy);
    expect(reloaded!.state).toBeInstanceOf(Uint8Array);
    expect(await indexedDbBoardStore(browser).load(savedBoardKey('ben', 'class-1'))).toBeUndefined();
    expect(await indexedDbBoardStore(new IDBFactory()).load(key)).toBeUndefined();
  });

  it('keeps the unsent changes written on their own, newer than the copy, in memory and in IndexedDB', async () => {
    const key = savedBoardKey('ada', 'class-1');
    for (const store of [memoryBoardStore(), indexedDbBoardStore(new IDBFactory())]) {
      // Changes before any copy: a copy of them alone.
      await store.saveUnsaved(key, [new Uint8Array([7])]);
      expect(await store.load(key)).toEqual({
        state: new Uint8Array([0, 0]),
        unsaved: [new Uint8Array([7])],
        pen: null,
        canDraw: false,
        teacher: false,
      });
      await store.save(key, copy);
      expect(await store.load(key)).toEqual(copy);
      const newer = [new Uint8Array([4]), new Uint8Array([5, 6])];
      await store.saveUnsaved(key, newer);
      expect(await store.load(key)).toEqual({ ...copy, unsaved: newer });
      // The next copy's own list wins again.
      await store.save(key, { ...copy, unsaved: [] });
      expect((await store.load(key))!.unsaved).toEqual([]);
    }
  });

  it('without IndexedDB finds nothing and drops saves (the server keeps the board)', async () => {
    const store = indexedDbBoardStore(undefined);
    await store.save('key', copy);
    await store.saveUnsaved('key', copy.unsaved);
    expect(await store.load('key')).toBeUndefined();
  });
});
