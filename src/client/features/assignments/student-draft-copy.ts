import { z } from 'zod/mini';
import { ASSIGNMENT_LIMITS } from '#shared/assignments';

/**
 * The hand-in text this browser typed and the server has not acknowledged yet (decision 064):
 * kept in localStorage per student and assignment, so a text typed offline, or in a tab closed
 * before its save arrived, is still there on the next load. The server's draft is the truth;
 * this copy is only what may be newer than it, and is dropped once the server holds the same.
 */
const storedCopySchema = z.object({
  text: z.string().check(z.maxLength(ASSIGNMENT_LIMITS.handInText * 2)),
  /** The version of the server's hand-in the text was typed on (0: none yet). */
  baseVersion: z.int().check(z.gte(0)),
});
export type DraftCopy = z.infer<typeof storedCopySchema>;

const keyOf = (studentId: string, assignmentId: string) => `studyhall:hand-in:${studentId}:${assignmentId}`;

export function readDraftCopy(studentId: string, assignmentId: string): DraftCopy | null {
  try {
    const stored = localStorage.getItem(keyOf(studentId, assignmentId));
    const parsed = storedCopySchema.safeParse(stored ? JSON.parse(stored) : null);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeDraftCopy(studentId: string, assignmentId: string, copy: DraftCopy): void {
  try {
    localStorage.setItem(keyOf(studentId, assignmentId), JSON.stringify(copy));
  } catch {
    // Storage full or refused (private mode): the server's saves still keep the text.
  }
}

export function dropDraftCopy(studentId: string, assignmentId: string): void {
  try {
    localStorage.removeItem(keyOf(studentId, assignmentId));
  } catch {
    // Nothing stored, nothing to lose.
  }
}

/** The server's side of a draft: its text and version (0 and '' when the student has none yet). */
export type ServerDraft = { text: string; version: number };

/** What the editor starts from, once the local copy and the server's draft are compared. */
export type ReconciledDraft =
  /** Start from this text; `isUnsaved`: it is the local copy, newer than the server's, to be saved. */
  | { kind: 'text'; text: string; isUnsaved: boolean }
  /** Both changed since they last agreed: the student chooses, nothing is overwritten silently. */
  | { kind: 'conflict'; mine: string; theirs: ServerDraft };

/**
 * Compares the local copy with the server's draft on load. No copy, or the same text: the
 * server's. A copy typed on the version the server still holds: the copy is newer (typed
 * offline, or its save never arrived), so it is kept and saved. A copy typed on an older
 * version: the draft changed elsewhere (another tab, another device) since; both are shown.
 */
export function reconcileDraft(copy: DraftCopy | null, server: ServerDraft): ReconciledDraft {
  if (copy === null || copy.text === server.text) return { kind: 'text', text: server.text, isUnsaved: false };
  if (copy.baseVersion === server.version) return { kind: 'text', text: copy.text, isUnsaved: true };
  return { kind: 'conflict', mine: copy.text, theirs: server };
}
