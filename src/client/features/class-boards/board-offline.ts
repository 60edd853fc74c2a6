import type { BoardPen } from '#shared/class-boards';

/**
 * The browser's copy of a class board (issue 35 point 4): the Yjs state, the local changes the
 * server has not yet acknowledged (sent again, one by one, after a reconnect or a reload), and
 * what the page last knew of the pen. A reload paints from it at once, then syncs; drawing
 * offline goes on into it. One record per person and class, so a shared computer never shows
 * one account's unsent strokes to another. IndexedDB in the browser; memory in tests.
 */

export type SavedBoard = {
  /** Y.encodeStateAsUpdate of the whole document, unsent changes included. */
  state: Uint8Array;
  /** The local updates not yet acknowledged `saved`, in the order they were made. */
  unsaved: Uint8Array[];
  pen: BoardPen | null;
  canDraw: boolean;
  teacher: boolean;
};

export interface BoardLocalStore {
  load(key: string): Promise<SavedBoard | undefined>;
  save(key: string, board: SavedBoard): Promise<void>;
}

/** The record of one person's copy of one class's board. */
export const savedBoardKey = (userId: string, classId: string) => `${userId}/${classId}`;

const DATABASE = 'studyhall-class-boards';
const STORE = 'boards';

function request<T>(made: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    made.onsuccess = () => resolve(made.result);
    made.onerror = () => reject(made.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * The board's copies in IndexedDB. Without it (private modes, old browsers) or when it fails,
 * loads find nothing and saves are dropped: the board then lives on the server only.
 */
export function indexedDbBoardStore(factory: IDBFactory | undefined = globalThis.indexedDB): BoardLocalStore {
  let opened: Promise<IDBDatabase | null> | undefined;
  const database = () =>
    (opened ??= (async () => {
      if (!factory) return null;
      const opening = factory.open(DATABASE, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
      return request(opening).catch(() => null);
    })());
  return {
    async load(key) {
      const db = await database();
      if (!db) return undefined;
      try {
        return (await request(db.transaction(STORE).objectStore(STORE).get(key))) as SavedBoard | undefined;
      } catch {
        return undefined;
      }
    },
    async save(key, board) {
      const db = await database();
      if (!db) return;
      try {
        await request(db.transaction(STORE, 'readwrite').objectStore(STORE).put(board, key));
      } catch {
        // A full disk or a closed database: the server's copy still holds what it acknowledged.
      }
    },
  };
}

/** A store in memory (tests, and a page that cannot use IndexedDB): copies survive only this page's sessions. */
export function memoryBoardStore(): BoardLocalStore {
  const boards = new Map<string, SavedBoard>();
  return {
    load: (key) => Promise.resolve(boards.get(key)),
    save(key, board) {
      boards.set(key, structuredClone(board));
      return Promise.resolve();
    },
  };
}
