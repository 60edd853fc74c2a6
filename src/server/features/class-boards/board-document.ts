import * as Y from 'yjs';
import {
  BOARD_ID_PATTERN,
  BOARD_ROOT,
  boardPageNameSchema,
  boardPageOrderSchema,
  boardStrokeSchema,
  CLASS_BOARD_LIMITS,
  PAGE_KEYS,
} from '#shared/class-boards';

/**
 * The class board's document on the server (decision 069): what a Yjs update may do to it. An
 * update is applied to the board's document and the transaction it made is checked: the new
 * structs (each in its place: a page under `pages`, a name, order or strokes array in a page, a
 * stroke of the sender's — from a teacher, anyone's — in a strokes array), the types it changed,
 * no root but `pages`, nothing left pending. A refused update has changed the document in memory: the caller throws that copy
 * away and loads the stored one again (`corrupted`), so nothing refused reaches the database or
 * another person.
 */

/** What an accepted update changed: nothing (already known), strokes only, or pages too (the teachers'). */
export type BoardChange = 'none' | 'strokes' | 'pages';

export type ApplyOutcome =
  | { ok: true; change: BoardChange; diff: Uint8Array }
  /**
   * UNDECODABLE: not a Yjs update; SCHEMA: not a board's; PENDING: it needs updates the board
   * lacks; PAGES_FULL: a board's update, but it would make more than `pagesMax` pages (a refusal,
   * not a broken client).
   */
  | { ok: false; problem: 'UNDECODABLE' | 'SCHEMA' | 'PENDING' | 'PAGES_FULL'; corrupted: boolean };

/** The origin of every update the server applies: its own observers tell them from nothing else. */
export const SERVER_ORIGIN = Symbol('class-board-server');

/** A fresh board document: garbage collection on (a deleted stroke keeps only its place). */
export function newBoardDoc(): Y.Doc {
  const doc = new Y.Doc({ gc: true });
  doc.getMap(BOARD_ROOT);
  return doc;
}

/** The document with every stored update applied, in order (they depend only on earlier ones). */
export function boardDocFrom(updates: Iterable<Uint8Array>): Y.Doc {
  const doc = newBoardDoc();
  for (const update of updates) Y.applyUpdate(doc, update, SERVER_ORIGIN);
  return doc;
}

/** The board as plain data (tests compare documents by it). */
export const boardJson = (doc: Y.Doc) => doc.getMap(BOARD_ROOT).toJSON() as Record<string, unknown>;

type Role = 'pages' | 'page' | 'strokes';

/** What a shared type is on the board (its parent a page of `pages`, …), or null when the schema has no such place. */
function roleOf(type: unknown, pages: Y.Map<unknown>): Role | null {
  if (type === pages) return 'pages';
  const item = (type as { _item?: Y.Item | null } | null)?._item;
  if (!item) return null;
  if (type instanceof Y.Map && item.parent === pages && typeof item.parentSub === 'string') return 'page';
  if (
    type instanceof Y.Array &&
    item.parentSub === 'strokes' &&
    item.parent instanceof Y.Map &&
    roleOf(item.parent, pages) === 'page'
  ) {
    return 'strokes';
  }
  return null;
}

/** Who sends an update; `teacher` only for a teacher of the class (the token; the store checks the class). */
export type BoardSender = { id: string; teacher: boolean };

/**
 * A stroke the sender may add: the sender's own; a teacher's, anyone's. A teacher's undo of a
 * clear, an erase or a page deletion re-inserts the strokes it took (Yjs makes them new items of
 * the teacher's, the content as it was, authors included): everyone's strokes come back.
 */
const isStrokeOf = (value: unknown, sender: BoardSender) => {
  const stroke = boardStrokeSchema.safeParse(value);
  return stroke.success && (sender.teacher || stroke.data.author === sender.id);
};

/** One struct this transaction added: in a place the schema has, with content of its kind. */
function isValidStruct(struct: Y.Item | Y.GC, pages: Y.Map<unknown>, sender: BoardSender): boolean {
  // Garbage-collected content (a client that deleted and collected before sending) has no place.
  if (struct instanceof Y.GC) return true;
  if (!(struct instanceof Y.Item)) return false;
  const role = roleOf(struct.parent, pages);
  if (role === null) return false;
  const key = struct.parentSub;
  const content = struct.content;
  if (role === 'strokes' ? key !== null : key === null) return false;
  if (role === 'pages' && !BOARD_ID_PATTERN.test(key!)) return false;
  if (role === 'page' && !(PAGE_KEYS as readonly string[]).includes(key!)) return false;
  // Deleted at once (or before it was sent): only its place matters.
  if (content instanceof Y.ContentDeleted) return true;
  if (struct.deleted && !(content instanceof Y.ContentType)) return true;
  if (role === 'pages') return content instanceof Y.ContentType && content.type instanceof Y.Map;
  if (role === 'page' && key === 'strokes') return content instanceof Y.ContentType && content.type instanceof Y.Array;
  if (!(content instanceof Y.ContentAny)) return false;
  if (role === 'page') {
    const values: unknown[] = content.arr;
    if (values.length !== 1) return false;
    const value = values[0];
    return key === 'name'
      ? boardPageNameSchema.safeParse(value).success
      : boardPageOrderSchema.safeParse(value).success;
  }
  return content.arr.every((value) => isStrokeOf(value, sender));
}

/** A page as the schema has it: a name, an order and a strokes array, nothing else. */
function isValidPage(value: unknown): boolean {
  if (!(value instanceof Y.Map)) return false;
  const page = value as Y.Map<unknown>;
  if ([...page.keys()].some((key) => !(PAGE_KEYS as readonly string[]).includes(key))) return false;
  return (
    boardPageNameSchema.safeParse(page.get('name')).success &&
    boardPageOrderSchema.safeParse(page.get('order')).success &&
    page.get('strokes') instanceof Y.Array
  );
}

/** The structs `transaction` added (new clocks of every client), merged ones included whole. */
function* addedStructs(doc: Y.Doc, transaction: Y.Transaction): Generator<Y.Item | Y.GC> {
  for (const [client, after] of transaction.afterState) {
    const before = transaction.beforeState.get(client) ?? 0;
    if (after <= before) continue;
    const structs = doc.store.clients.get(client) as (Y.Item | Y.GC)[];
    for (let index = Y.findIndexSS(structs, before); index < structs.length; index++) yield structs[index]!;
  }
}

/**
 * Applies a client's update to the board's document and checks the result; a student `sender`
 * must be the author of every stroke it adds (a teacher may restore anyone's). The accepted
 * update's `diff` is what was new to the document (what to store and pass on).
 */
export function applyBoardUpdate(doc: Y.Doc, update: Uint8Array, sender: BoardSender): ApplyOutcome {
  const pages = doc.getMap<unknown>(BOARD_ROOT);
  const stateBefore = Y.encodeStateVector(doc);
  const pagesBefore = pages.size;
  let transaction: Y.Transaction | null = null;
  const listen = (made: Y.Transaction) => {
    if (made.origin === SERVER_ORIGIN) transaction = made;
  };
  doc.on('afterTransaction', listen);
  try {
    Y.applyUpdate(doc, update, SERVER_ORIGIN);
  } catch {
    return { ok: false, problem: 'UNDECODABLE', corrupted: true };
  } finally {
    doc.off('afterTransaction', listen);
  }
  if (doc.store.pendingStructs !== null || doc.store.pendingDs !== null) {
    return { ok: false, problem: 'PENDING', corrupted: true };
  }
  const made = transaction as Y.Transaction | null;
  if (made === null) return { ok: false, problem: 'UNDECODABLE', corrupted: true };
  const inserted = [...made.afterState].some(([client, clock]) => clock > (made.beforeState.get(client) ?? 0));
  if (!inserted && made.deleteSet.clients.size === 0) return { ok: true, change: 'none', diff: new Uint8Array() };

  const schemaBroken = { ok: false, problem: 'SCHEMA', corrupted: true } as const;
  // A struct under a root of its own name made that root: the board has one.
  if ([...doc.share.keys()].some((name) => name !== BOARD_ROOT)) return schemaBroken;
  for (const struct of addedStructs(doc, made)) {
    if (!isValidStruct(struct, pages, sender)) return schemaBroken;
  }
  let change: BoardChange = 'strokes';
  for (const [type, keys] of made.changed) {
    const role = roleOf(type, pages);
    if (role === null) return schemaBroken;
    if (role === 'strokes') continue;
    change = 'pages';
    if (role === 'pages') {
      for (const key of keys) {
        const page = key === null ? undefined : pages.get(key);
        if (key === null || (page !== undefined && !isValidPage(page))) return schemaBroken;
      }
    } else {
      // A page that was there before keeps its strokes array: replacing or removing it would drop them all.
      if (keys.has('strokes') || !isValidPage(type)) return schemaBroken;
    }
  }
  // More pages than a board holds, and more than before (two teachers adding the last page at
  // once on two instances could pass it: the board's strokes go on).
  if (pages.size > CLASS_BOARD_LIMITS.pagesMax && pages.size > pagesBefore) {
    return { ok: false, problem: 'PAGES_FULL', corrupted: true };
  }
  return { ok: true, change, diff: Y.diffUpdate(update, stateBefore) };
}

/**
 * Whether an update changes nothing of the document (all its structs and deletions already
 * there): what someone without the pen may send (their sync step 2). Checked without applying
 * it; undefined when it is not a Yjs update.
 */
export function changesNothing(doc: Y.Doc, update: Uint8Array): boolean | undefined {
  try {
    return Y.snapshotContainsUpdate(Y.snapshot(doc), update);
  } catch {
    return undefined;
  }
}
