import type { BoardPen } from '#shared/class-boards';
import { noteBoardCopy } from './board-download-client.ts';

/**
 * The browser's copy of a class board (issue 35 point 4): the Yjs state, the local changes the
 * server has not yet acknowledged (sent again, one by one, after a reconnect or a reload), and
 * what the page last knew of the pen. A reload paints from it at once, then syncs; drawing
 * offline goes on into it. One record per person and class, so a shared computer never shows
 * one account's unsent strokes to another. IndexedDB in the browser; memory in tests.
 *
 * The unsent changes are also kept on their own (`saveUnsaved`), written at once when a change is
 * made: encoding the whole board takes a while on a large one, so that waits for a quiet moment,
 * and a reload or a closed tab in between still finds the stroke. Loading puts them back in.
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
  /** The copy, its `unsaved` the last written (by `save` or `saveUnsaved`): they may be newer than `state`. */
  load(key: string): Promise<SavedBoard | undefined>;
  save(key: string, board: SavedBoard): Promise<void>;
  /** Only the unsent changes (cheap: written at every change). */
  saveUnsaved(key: string, unsaved: Uint8Array[]): Promise<void>;
}

/** The record of the unsent changes beside a copy's. */
const unsavedKey = (key: string) => `${key}#unsaved`;

/** A copy with its unsent changes as last written; only changes (none saved yet): a copy of them alone. */
function joined(board: SavedBoard | undefined, unsaved: Uint8Array[] | undefined): SavedBoard | undefined {
  if (!unsaved) return board;
  if (!board) {
    if (unsaved.length === 0) return undefined;
    return { state: EMPTY_STATE, unsaved, pen: null, canDraw: false, teacher: false };
  }
  return { ...board, unsaved };
}

/** Y.encodeStateAsUpdate of an empty document (no structs, no deletions). */
const EMPTY_STATE = new Uint8Array([0, 0]);

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

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB failed'));
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
        const store = db.transaction(STORE).objectStore(STORE);
        const [board, unsaved] = await Promise.all([
          request(store.get(key) as IDBRequest<SavedBoard | undefined>),
          request(store.get(unsavedKey(key)) as IDBRequest<Uint8Array[] | undefined>),
        ]);
        return joined(board, unsaved);
      } catch {
        return undefined;
      }
    },
    async save(key, board) {
      const db = await database();
      if (!db) return;
      try {
        const transaction = db.transaction(STORE, 'readwrite');
        transaction.objectStore(STORE).put(board, key);
        transaction.objectStore(STORE).put(board.unsaved, unsavedKey(key));
        await committed(transaction);
        // The next open of this page paints the copy: it need not download the board first (key: savedBoardKey's).
        noteBoardCopy(key.slice(key.indexOf('/') + 1));
      } catch {
        // A full disk or a closed database: the server's copy still holds what it acknowledged.
      }
    },
    async saveUnsaved(key, unsaved) {
      const db = await database();
      if (!db) return;
      try {
        const transaction = db.transaction(STORE, 'readwrite');
        transaction.objectStore(STORE).put(unsaved, unsavedKey(key));
        await committed(transaction);
      } catch {
        // As above.
      }
    },
  };
}

/** A store in memory (tests, and a page that cannot use IndexedDB): copies survive only this page's sessions. */
export function memoryBoardStore(): BoardLocalStore {
  const boards = new Map<string, SavedBoard>();
  const changes = new Map<string, Uint8Array[]>();
  return {
    load: (key) => Promise.resolve(structuredClone(joined(boards.get(key), changes.get(key)))),
    save(key, board) {
      boards.set(key, structuredClone(board));
      changes.set(key, structuredClone(board.unsaved));
      return Promise.resolve();
    },
    saveUnsaved(key, unsaved) {
      changes.set(key, structuredClone(unsaved));
      return Promise.resolve();
    },
  };
}
