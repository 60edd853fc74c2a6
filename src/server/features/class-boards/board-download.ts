import * as Y from 'yjs';
import { notFound } from '../../errors.ts';
import type { AuthenticatedUser } from '../../plugins/auth.ts';
import type { ClassBoards } from './service.ts';

/** A Yjs update with nothing in it: the board of a class nobody has drawn on yet. */
const EMPTY_BOARD = Y.encodeStateAsUpdate(new Y.Doc());

/**
 * GET /api/class-boards/:classId/document (issue 35's first paint, decision 069): the whole stored
 * board as one Yjs update, for a teacher or a student of the class; anyone else is told what an
 * unknown class tells (404). A page opening the board with no copy of its own loads this in one
 * download, then its socket's sync step 1 carries the state vector, so the socket sends only what
 * is newer: over the socket, a board of 20,000 strokes took hundreds of messages and round trips.
 * The database is the truth the sockets load from too: the snapshot and the updates after it, read
 * in one transaction, merged.
 */
export async function storedBoardFor(
  boards: ClassBoards,
  user: AuthenticatedUser,
  classId: string,
): Promise<Uint8Array> {
  const ofClass = await boards.stillOfClass(classId, [{ id: user.id, teacher: user.role === 'teacher' }]);
  if (!ofClass.has(user.id)) throw notFound('This class board does not exist');
  const { updates } = await boards.load(classId);
  if (updates.length === 0) return EMPTY_BOARD;
  return updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
}
