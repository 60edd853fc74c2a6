import { encodeBoardDownload } from '#shared/board-download';
import { notFound } from '../../errors.ts';
import type { AuthenticatedUser } from '../../plugins/auth.ts';
import type { ClassBoards } from './service.ts';

/**
 * GET /api/class-boards/:classId/document (issue 35's first paint, decision 069): the whole stored
 * board as a few Yjs updates (src/shared/board-download.ts), for a teacher or a student of the
 * class; anyone else is told what an unknown class tells (404). A page opening the board with no
 * copy of its own loads this in one download, then its socket's sync step 1 carries the state
 * vector, so the socket sends only what is newer: over the socket, a board of 20,000 strokes took
 * hundreds of messages and round trips. The database is the truth the sockets load from too: the
 * snapshot (kept in memory once read) and the updates after it, read in one transaction.
 */
export async function storedBoardFor(
  boards: ClassBoards,
  user: AuthenticatedUser,
  classId: string,
): Promise<Uint8Array> {
  const ofClass = await boards.stillOfClass(classId, [{ id: user.id, teacher: user.role === 'teacher' }]);
  if (!ofClass.has(user.id)) throw notFound('This class board does not exist');
  return encodeBoardDownload(await boards.download(classId));
}
