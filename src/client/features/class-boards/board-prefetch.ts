import { readSession } from '../../lib/session.ts';

/**
 * A first open of a class board starts its download as the page's code starts (main.tsx imports
 * this first), not once the board's chunk, the class and the browser's copy have been read: issue
 * 35's first paint of a 20,000-stroke board under 1 s (decision 069). Only when this browser holds
 * no copy of that board for this person (a flag beside the copy, read synchronously here): a reload
 * paints the copy and downloads nothing. Free of React, Yjs and zod: it is in the first chunk.
 */

/** The board's page, as router.tsx routes it (either dashboard). */
const BOARD_PATH = /^\/dashboard\/(?:teacher|student)\/classes\/([0-9a-fA-F-]{36})\/board\/?$/;

/** GET /api/class-boards/:classId/document (getClassBoardDocument; board-prefetch.test.ts checks they agree). */
// eslint-disable-next-line no-restricted-syntax -- the first chunk has no contracts (zod); the test holds it to the contract
export const boardDocumentUrl = (classId: string) => `/api/class-boards/${encodeURIComponent(classId)}/document`;

const COPY_FLAG = 'studyhall.board-copy.';

/** Whether this browser holds a copy of this person's board (set when the copy is first written). */
export function noteBoardCopy(storeKey: string): void {
  try {
    localStorage.setItem(`${COPY_FLAG}${storeKey}`, '1');
  } catch {
    // No storage: each open downloads the board, as without the flag.
  }
}

function hasBoardCopy(storeKey: string): boolean {
  try {
    return localStorage.getItem(`${COPY_FLAG}${storeKey}`) !== null;
  } catch {
    return false;
  }
}

/** The person's id from the session's token (its `sub`), without verifying it: the server does. */
function signedInUserId(token: string): string | undefined {
  try {
    const payload = token.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

type Prefetch = { classId: string; body: Promise<Uint8Array>; controller: AbortController };
let prefetched: Prefetch | undefined;

/** Downloads the stored board of `classId` with the session's token; throws on a refusal. */
export async function downloadBoard(classId: string, signal: AbortSignal): Promise<Uint8Array> {
  const token = readSession()?.token;
  const response = await fetch(boardDocumentUrl(classId), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal,
  });
  if (!response.ok) throw new Error(String(response.status));
  return new Uint8Array(await response.arrayBuffer());
}

/** Starts the board's download when `pathname` is a board's page opened for the first time here. */
export function prefetchBoard(pathname: string): void {
  const classId = BOARD_PATH.exec(pathname)?.[1];
  const token = readSession()?.token;
  if (!classId || !token) return;
  const userId = signedInUserId(token);
  if (!userId || hasBoardCopy(`${userId}/${classId}`)) return;
  const controller = new AbortController();
  const body = downloadBoard(classId, controller.signal);
  // Taken or dropped later; a failure is the taker's to see (it then syncs over the socket).
  body.catch(() => undefined);
  prefetched = { classId, body, controller };
}

/**
 * The download started for `classId`, once (the next open downloads afresh), or undefined. `signal`
 * aborting (the session's timeout, the screen leaving) aborts it.
 */
export function takePrefetchedBoard(classId: string, signal: AbortSignal): Promise<Uint8Array> | undefined {
  if (prefetched?.classId !== classId) return undefined;
  const { body, controller } = prefetched;
  prefetched = undefined;
  signal.addEventListener('abort', () => controller.abort(), { once: true });
  return body;
}

/** The board has a copy here after all (another person's flag, a cleared flag): the download stops. */
export function dropPrefetchedBoard(classId: string): void {
  if (prefetched?.classId !== classId) return;
  prefetched.controller.abort();
  prefetched = undefined;
}
