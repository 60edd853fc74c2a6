import * as Y from 'yjs';
import {
  BOARD_ROOT,
  boardPageNameSchema,
  boardStrokeSchema,
  CLASS_BOARD_LIMITS,
  type BoardStroke,
} from '#shared/class-boards';
import type { BoardPage, BoardStrokeInput } from './board-model.ts';

/**
 * The class board's Yjs document as the page changes it (decision 069's schema, which the server
 * checks): one root map `pages`, each page a map of `name`, `order` and `strokes` (an array of
 * immutable stroke values). Every change here is one transaction under the caller's `origin`, so
 * it is one update to send and one step of this person's undo. Nothing here knows of sockets.
 */

export type BoardPages = Y.Map<Y.Map<unknown>>;

export const pagesOf = (doc: Y.Doc): BoardPages => doc.getMap(BOARD_ROOT);

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh id for a stroke or a page (BOARD_ID_PATTERN): 16 random letters and digits. */
export function newBoardId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

/** The pages, by order (ties by id, so every page lists them alike). */
export function listPages(doc: Y.Doc): BoardPage[] {
  const pages: BoardPage[] = [];
  for (const [id, page] of pagesOf(doc)) {
    const name = page.get('name');
    const order = page.get('order');
    if (typeof name === 'string' && typeof order === 'number') pages.push({ id, name, order });
  }
  return pages.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function strokesArrayOf(doc: Y.Doc, pageId: string): Y.Array<BoardStroke> | undefined {
  const strokes = pagesOf(doc).get(pageId)?.get('strokes');
  return strokes instanceof Y.Array ? (strokes as Y.Array<BoardStroke>) : undefined;
}

/** A stroke as the server will take it (the schema, this author), or null. */
export function strokeOf(input: BoardStrokeInput, author: string): BoardStroke | null {
  const stroke = boardStrokeSchema.safeParse({ ...input, id: newBoardId(), author });
  return stroke.success ? stroke.data : null;
}

export function addStroke(doc: Y.Doc, pageId: string, stroke: BoardStroke, origin: unknown): boolean {
  const strokes = strokesArrayOf(doc, pageId);
  if (!strokes) return false;
  doc.transact(() => strokes.push([stroke]), origin);
  return true;
}

export function eraseStrokes(doc: Y.Doc, pageId: string, strokeIds: readonly string[], origin: unknown) {
  const strokes = strokesArrayOf(doc, pageId);
  if (!strokes || strokeIds.length === 0) return;
  const erased = new Set(strokeIds);
  doc.transact(() => {
    // From the end, so each index still points where it did.
    for (let index = strokes.length - 1; index >= 0; index--) {
      if (erased.has(strokes.get(index).id)) strokes.delete(index, 1);
    }
  }, origin);
}

export function clearPage(doc: Y.Doc, pageId: string, origin: unknown) {
  const strokes = strokesArrayOf(doc, pageId);
  if (strokes && strokes.length > 0) doc.transact(() => strokes.delete(0, strokes.length), origin);
}

/** A number between two pages' orders (either may be missing: before the first, after the last). */
export function orderBetween(before: number | undefined, after: number | undefined): number {
  if (before === undefined && after === undefined) return 1;
  if (before === undefined) return after! - 1;
  if (after === undefined) return before + 1;
  return (before + after) / 2;
}

export const isPageNameValid = (name: string) => boardPageNameSchema.safeParse(name).success;

/** Adds a page after the others; its id, or null (a bad name, pagesMax reached). */
export function addPage(doc: Y.Doc, name: string, origin: unknown): string | null {
  const pages = pagesOf(doc);
  if (!isPageNameValid(name) || pages.size >= CLASS_BOARD_LIMITS.pagesMax) return null;
  const id = newBoardId();
  doc.transact(() => {
    const page = new Y.Map<unknown>();
    page.set('name', name);
    page.set('order', orderBetween(listPages(doc).at(-1)?.order, undefined));
    page.set('strokes', new Y.Array<BoardStroke>());
    pages.set(id, page);
  }, origin);
  return id;
}

export function renamePage(doc: Y.Doc, pageId: string, name: string, origin: unknown) {
  const page = pagesOf(doc).get(pageId);
  if (page && isPageNameValid(name) && page.get('name') !== name) doc.transact(() => page.set('name', name), origin);
}

/** Moves a page before `beforeId` (null: to the end) by giving it an order between its new neighbours. */
export function movePage(doc: Y.Doc, pageId: string, beforeId: string | null, origin: unknown) {
  const page = pagesOf(doc).get(pageId);
  if (!page || pageId === beforeId) return;
  const others = listPages(doc).filter((candidate) => candidate.id !== pageId);
  const at = beforeId === null ? others.length : others.findIndex((candidate) => candidate.id === beforeId);
  if (at < 0) return;
  const order = orderBetween(others[at - 1]?.order, others[at]?.order);
  doc.transact(() => page.set('order', order), origin);
}

export function deletePage(doc: Y.Doc, pageId: string, origin: unknown) {
  const pages = pagesOf(doc);
  if (pages.has(pageId)) doc.transact(() => pages.delete(pageId), origin);
}

const isStrokeByAnother = (value: unknown, author: string) =>
  typeof value === 'object' && value !== null && 'author' in value && value.author !== author;

/**
 * Whether undoing (or redoing) `step` would bring back strokes of someone else's (a clear, an
 * erase, a deleted page): the server takes only strokes naming their sender as author (decision
 * 069), and closes the socket on anything else, so such a step is not taken.
 */
export function restoresOthersStrokes(
  doc: Y.Doc,
  step: { deletions: Parameters<typeof Y.iterateDeletedStructs>[1] },
  author: string,
): boolean {
  let found = false;
  // A transaction that changes nothing: iterating may split items, which sends nothing.
  doc.transact((transaction) => {
    Y.iterateDeletedStructs(transaction, step.deletions, (struct) => {
      if (found || !(struct instanceof Y.Item) || !(struct.content instanceof Y.ContentAny)) return;
      found = struct.content.getContent().some((value) => isStrokeByAnother(value, author));
    });
  }, restoresOthersStrokes);
  return found;
}

/** Whether an update carries anything (structs or deletions): an empty one need not be sent. */
export function isEmptyUpdate(update: Uint8Array): boolean {
  const decoded = Y.decodeUpdate(update);
  return decoded.structs.length === 0 && decoded.ds.clients.size === 0;
}
