import { readSession } from '../../lib/session.ts';
import { BOARD_COPY_FLAG, boardBodyOf, boardDocumentUrl, started } from './board-prefetch.ts';

/**
 * The page's side of a first open's download (GET /api/class-boards/:classId/document, decision
 * 069's addendum): the one main.tsx started with the page (board-prefetch.ts), taken once, or a
 * new one; and the flag that says this browser holds a copy of a board, so the next open paints
 * the copy and does not download.
 */

/** Notes that this browser holds a copy of a class's board (per class: another person's copy here only delays a first open's download). */
export function noteBoardCopy(classId: string): void {
  try {
    localStorage.setItem(BOARD_COPY_FLAG + classId, '1');
  } catch {
    // No storage: each open downloads the board, as without the flag.
  }
}

/** Hands over the download started with the page for `classId` (once), or undefined. */
function take(classId: string) {
  if (started.classId !== classId || !started.body || !started.controller) return undefined;
  const { body, controller } = started;
  started.classId = started.body = started.controller = undefined;
  return { body, controller };
}

/**
 * The stored board of `classId` downloaded with the session's token: the download started with
 * the page when there is one, else a new one; `signal` aborting stops either. Throws on a refusal.
 */
export function downloadBoard(classId: string, signal: AbortSignal): Promise<Uint8Array> {
  const taken = take(classId);
  if (taken) {
    signal.addEventListener('abort', () => taken.controller.abort(), { once: true });
    return taken.body.then((body) => new Uint8Array(body));
  }
  const token = readSession()?.token;
  const answer = fetch(boardDocumentUrl(classId), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal,
  });
  return boardBodyOf(answer).then((body) => new Uint8Array(body));
}

/** Whether the page started a download of `classId`'s board that nobody has taken yet (a first open). */
export function hasStartedDownload(classId: string): boolean {
  return started.classId === classId && started.body !== undefined;
}

/** The board has a copy here after all (another person's flag, a cleared flag): the download stops. */
export function dropStartedDownload(classId: string): void {
  take(classId)?.controller.abort();
}
