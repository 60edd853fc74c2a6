import { readSession } from '../../lib/session.ts';

/**
 * A class board opened by its address starts its download as the page's code starts (main.tsx
 * calls this first), not once the board's chunk, the class and the browser's copy have been read:
 * issue 35's first paint of a 20,000-stroke board (decision 069's addendum). Only when this browser
 * holds no copy of that board (a flag beside the copy, read synchronously here): a reload paints
 * the copy and downloads nothing. In the first chunk, so only the start is here; the board's chunk
 * takes it (board-download-client.ts).
 */

/** The board's page, as router.tsx routes it (either dashboard; the server checks the id). */
const BOARD_PATH = /^\/dashboard\/\w+\/classes\/([\w-]{36})\/board\/?$/;

/** The flag of a class whose board this browser holds a copy of (board-download-client.ts sets it). */
export const BOARD_COPY_FLAG = 'studyhall.board-copy.';

/** GET /api/class-boards/:classId/document (getClassBoardDocument; board-prefetch.test.tsx checks they agree). */
// eslint-disable-next-line no-restricted-syntax -- the first chunk has no contracts (zod); the test holds it to the contract
export const boardDocumentUrl = (classId: string) => `/api/class-boards/${encodeURIComponent(classId)}/document`;

/** The download started with the page: its class, its body, and how to stop it. */
export const started: { classId?: string; body?: Promise<ArrayBuffer>; controller?: AbortController } = {};

/** The body of a download's answer; rejected when refused (the socket then syncs the board). */
export const boardBodyOf = (answer: Promise<Response>): Promise<ArrayBuffer> =>
  answer.then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error())));

/** Starts the board's download when `pathname` is a board's page with no copy in this browser. */
export function prefetchBoard(pathname: string): void {
  const classId = BOARD_PATH.exec(pathname)?.[1];
  const token = readSession()?.token;
  if (!classId || !token || localStorage.getItem(BOARD_COPY_FLAG + classId)) return;
  if (started.classId === classId) return;
  dropUntaken();
  const controller = new AbortController();
  // Read as it comes: a body nobody reads stops arriving once the browser's buffer is full (the
  // transfer then waited for the board's chunk).
  const body = boardBodyOf(
    fetch(boardDocumentUrl(classId), { headers: { authorization: `Bearer ${token}` }, signal: controller.signal }),
  );
  // Taken or dropped later; a failure is the taker's to see (it then syncs over the socket).
  body.catch(() => undefined);
  Object.assign(started, { classId, body, controller });
}

/** Stops a download nobody took (its board was not opened after all): 8 MB need not arrive for nothing. */
function dropUntaken(): void {
  started.controller?.abort();
  started.classId = started.body = started.controller = undefined;
}

/** What followNavigations reads of the router (react-router's data router). */
type NavigatingRouter = {
  subscribe(
    listener: (state: { location: { pathname: string }; navigation: { location?: { pathname: string } } }) => void,
  ): unknown;
};

/**
 * A board opened from inside the app (the class page's link) starts its download as the
 * navigation starts, while the router loads the board's chunk, as an address does with the page
 * (issue 35's first paint, decision 069's addendum); a navigation that ends elsewhere stops it.
 */
export function followNavigations(router: NavigatingRouter): void {
  router.subscribe(({ location, navigation }) => {
    if (navigation.location) prefetchBoard(navigation.location.pathname);
    else if (started.classId && BOARD_PATH.exec(location.pathname)?.[1] !== started.classId) dropUntaken();
  });
}
