import { and, asc, eq, gt, inArray, lte, ne, sql } from 'drizzle-orm';
import * as Y from 'yjs';
import {
  CLASS_BOARD_LIMITS,
  holdsPen,
  type BoardPen,
  type BoardPenInput,
  type BoardTicket,
  type ClassBoardPen,
} from '#shared/class-boards';
import type { Database } from '../../db/client.ts';
import {
  classBoardClients,
  classBoards,
  classBoardUpdates,
  classes,
  classStudents,
  classTeachers,
  students,
  teachers,
} from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { AuthenticatedUser } from '../../plugins/auth.ts';
import { isStudentOfClass, requireTaughtClass, teachesClass } from '../classes/records.ts';
import type { BoardChange } from './board-document.ts';
import { boardDocFrom } from './board-document.ts';
import type { BoardTokens } from './board-tokens.ts';

/**
 * The class board's storage and REST side (issue 35, decision 069). A board's document is its
 * snapshot and the updates appended since, numbered; the database is the truth every instance
 * loads from and catches up with. An update is appended in one transaction holding the board's
 * row: the sender still of the class, holding the pen (pages: a teacher), the board's size; it is
 * acknowledged only after the commit. Past a count or a size the updates are folded into a new
 * snapshot, in one transaction too.
 */

/** Who sends an update, as the socket's token says; `teacher` only for a teacher of the class. */
export type BoardWriter = { id: string; teacher: boolean };

/** What a board holds: its snapshot (when compacted) and the updates after it, and the last number. */
export type StoredBoard = { updates: Uint8Array[]; seq: number; pen: BoardPen };

export type AppendOutcome =
  | { seq: number; compactDue: boolean }
  /** CLIENT_TAKEN: the update uses a Yjs client id someone else used first on this board. */
  | { refused: 'NO_PEN' | 'NOT_A_TEACHER' | 'BOARD_FULL' | 'GONE' | 'CLIENT_TAKEN' };

export type ClassBoardsOptions = {
  tokens?: BoardTokens;
  /** Smaller thresholds in tests. */
  limits?: Partial<Record<'boardMaxBytes' | 'compactAfterUpdates' | 'compactAfterBytes' | 'membershipCheckMs', number>>;
};

const penOf = (row: { penMode: BoardPen['mode']; penStudentIds: string[] }): BoardPen => ({
  mode: row.penMode,
  studentIds: row.penStudentIds,
});

export function createClassBoards(db: Database, options: ClassBoardsOptions = {}) {
  const limits = {
    boardMaxBytes: options.limits?.boardMaxBytes ?? CLASS_BOARD_LIMITS.boardMaxBytes,
    compactAfterUpdates: options.limits?.compactAfterUpdates ?? CLASS_BOARD_LIMITS.compactAfterUpdates,
    compactAfterBytes: options.limits?.compactAfterBytes ?? CLASS_BOARD_LIMITS.compactAfterBytes,
    membershipCheckMs: options.limits?.membershipCheckMs ?? CLASS_BOARD_LIMITS.membershipCheckMs,
  };

  /**
   * Client ids known to be bound, per board (a binding never changes): an update whose client ids
   * are all the writer's costs no query. Emptied when it grows past a bound (a long-running process).
   */
  const bound = new Map<string, Map<number, string>>();
  let boundCount = 0;
  const remember = (classId: string, clientIds: number[], userId: string) => {
    if (boundCount > 100_000) {
      bound.clear();
      boundCount = 0;
    }
    const board = bound.get(classId) ?? new Map<number, string>();
    bound.set(classId, board);
    for (const clientId of clientIds) {
      if (board.has(clientId)) continue;
      board.set(clientId, userId);
      boundCount++;
    }
  };

  /** The board's row, made on first use (a class has a board from its first visit or pen setting). */
  async function ensureBoard(tx: Pick<Database, 'insert'>, classId: string) {
    await tx.insert(classBoards).values({ classId }).onConflictDoNothing();
  }

  /** Everything after `afterSeq`: the snapshot when it covers updates the caller lacks, then the updates. */
  async function readSince(tx: Pick<Database, 'select'>, classId: string, afterSeq: number): Promise<StoredBoard> {
    const [row] = await tx
      .select({
        snapshot: classBoards.snapshot,
        snapshotSeq: classBoards.snapshotSeq,
        lastSeq: classBoards.lastSeq,
        penMode: classBoards.penMode,
        penStudentIds: classBoards.penStudentIds,
      })
      .from(classBoards)
      .where(eq(classBoards.classId, classId));
    if (!row) return { updates: [], seq: 0, pen: { mode: 'teachers', studentIds: [] } };
    const updates: Uint8Array[] = [];
    if (row.snapshot && afterSeq < row.snapshotSeq) updates.push(row.snapshot);
    const logged = await tx
      .select({ update: classBoardUpdates.update })
      .from(classBoardUpdates)
      .where(
        and(
          eq(classBoardUpdates.classId, classId),
          gt(classBoardUpdates.seq, Math.max(afterSeq, row.snapshotSeq)),
          lte(classBoardUpdates.seq, row.lastSeq),
        ),
      )
      .orderBy(asc(classBoardUpdates.seq));
    updates.push(...logged.map((logged) => logged.update));
    return { updates, seq: row.lastSeq, pen: penOf(row) };
  }

  return {
    limits,

    /** Which of `people` are (still) teachers or students of the class: the others have been removed from it. */
    async stillOfClass(classId: string, people: BoardWriter[]): Promise<Set<string>> {
      const ids = (teacher: boolean) => [
        ...new Set(people.filter((person) => person.teacher === teacher).map((person) => person.id)),
      ];
      const [teacherIds, studentIds] = [ids(true), ids(false)];
      const [taught, enrolled] = await Promise.all([
        teacherIds.length === 0
          ? []
          : db
              .select({ id: classTeachers.teacherId })
              .from(classTeachers)
              .where(and(eq(classTeachers.classId, classId), inArray(classTeachers.teacherId, teacherIds))),
        studentIds.length === 0
          ? []
          : db
              .select({ id: classStudents.studentId })
              .from(classStudents)
              .where(and(eq(classStudents.classId, classId), inArray(classStudents.studentId, studentIds))),
      ]);
      return new Set([...taught, ...enrolled].map((row) => row.id));
    },

    /** The board's document for a socket's first member on this instance (made on first use). */
    async load(classId: string): Promise<StoredBoard> {
      await ensureBoard(db, classId);
      // One statement's snapshot for both reads, so a compaction between them cannot lose updates.
      return db.transaction((tx) => readSince(tx, classId, 0), { isolationLevel: 'repeatable read' });
    },

    /** What an instance that has everything up to `afterSeq` lacks (a bus message it missed). */
    async since(classId: string, afterSeq: number): Promise<StoredBoard> {
      return db.transaction((tx) => readSince(tx, classId, afterSeq), { isolationLevel: 'repeatable read' });
    },

    /**
     * Appends one checked update (what was new to the document) under the board's lock: refused
     * when the writer has left the class, lacks the pen (or, for pages, is no teacher), or the
     * board would outgrow its size. The number it gets orders it after every update committed before.
     */
    async append(
      classId: string,
      writer: BoardWriter,
      update: Uint8Array,
      change: BoardChange,
    ): Promise<AppendOutcome> {
      // The client ids whose structs it adds: each this writer's, or new (then bound to them).
      const clientIds = [...Y.parseUpdateMeta(update).to.keys()];
      const known = bound.get(classId);
      if (clientIds.some((clientId) => (known?.get(clientId) ?? writer.id) !== writer.id)) {
        return { refused: 'CLIENT_TAKEN' };
      }
      const unknown = clientIds.filter((clientId) => known?.get(clientId) !== writer.id);
      const outcome = await db.transaction(async (tx): Promise<AppendOutcome> => {
        const [row] = await tx
          .select({
            penMode: classBoards.penMode,
            penStudentIds: classBoards.penStudentIds,
            snapshotBytes: classBoards.snapshotBytes,
            logBytes: classBoards.logBytes,
            logCount: classBoards.logCount,
            lastSeq: classBoards.lastSeq,
            // Whether the writer is still of the class, in the same round trip as the lock: a
            // teacher's update may add others' strokes (an undo restoring them), only while they teach it.
            isMember: writer.teacher
              ? sql<boolean>`exists (select 1 from ${classTeachers} where ${classTeachers.classId} = ${classId} and ${classTeachers.teacherId} = ${writer.id})`
              : sql<boolean>`exists (select 1 from ${classStudents} where ${classStudents.classId} = ${classId} and ${classStudents.studentId} = ${writer.id})`,
          })
          .from(classBoards)
          .where(eq(classBoards.classId, classId))
          .for('update');
        if (!row?.isMember) return { refused: 'GONE' as const };
        if (change === 'pages' && !writer.teacher) return { refused: 'NOT_A_TEACHER' as const };
        if (!holdsPen(penOf(row), writer)) return { refused: 'NO_PEN' as const };
        if (unknown.length > 0) {
          const taken = await tx
            .select({ clientId: classBoardClients.clientId })
            .from(classBoardClients)
            .where(
              and(
                eq(classBoardClients.classId, classId),
                inArray(classBoardClients.clientId, unknown),
                ne(classBoardClients.userId, writer.id),
              ),
            )
            .limit(1);
          if (taken.length > 0) return { refused: 'CLIENT_TAKEN' as const };
        }
        if (row.snapshotBytes + row.logBytes + update.byteLength > limits.boardMaxBytes) {
          return { refused: 'BOARD_FULL' as const };
        }
        const seq = row.lastSeq + 1;
        if (unknown.length > 0) {
          await tx
            .insert(classBoardClients)
            .values(unknown.map((clientId) => ({ classId, clientId, userId: writer.id })))
            .onConflictDoNothing();
        }
        await tx.insert(classBoardUpdates).values({ classId, seq, update, authorId: writer.id });
        await tx
          .update(classBoards)
          .set({
            lastSeq: seq,
            logBytes: sql`${classBoards.logBytes} + ${update.byteLength}`,
            logCount: sql`${classBoards.logCount} + 1`,
            updatedAt: sql`now()`,
          })
          .where(eq(classBoards.classId, classId));
        const compactDue =
          row.logCount + 1 >= limits.compactAfterUpdates ||
          row.logBytes + update.byteLength >= limits.compactAfterBytes;
        return { seq, compactDue };
      });
      // Bound for good once committed.
      if ('seq' in outcome && unknown.length > 0) remember(classId, unknown, writer.id);
      return outcome;
    },

    /**
     * Folds every update into one snapshot, in one transaction under the board's lock: the
     * document it makes is the same (deleted strokes keep only their place), the log is emptied.
     * Returns the board's stored size after it.
     */
    async compact(classId: string): Promise<number> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ lastSeq: classBoards.lastSeq, snapshotSeq: classBoards.snapshotSeq })
          .from(classBoards)
          .where(eq(classBoards.classId, classId))
          .for('update');
        if (!row) return 0;
        const stored = await readSince(tx, classId, 0);
        const doc = boardDocFrom(stored.updates);
        const snapshot = Y.encodeStateAsUpdate(doc);
        doc.destroy();
        await tx
          .update(classBoards)
          .set({ snapshot, snapshotSeq: row.lastSeq, snapshotBytes: snapshot.byteLength, logBytes: 0, logCount: 0 })
          .where(eq(classBoards.classId, classId));
        await tx
          .delete(classBoardUpdates)
          .where(and(eq(classBoardUpdates.classId, classId), lte(classBoardUpdates.seq, row.lastSeq)));
        return snapshot.byteLength;
      });
    },

    /** A room token for the board's socket: for a teacher or a student of the class; anyone else, 404. */
    async issueToken(user: AuthenticatedUser, classId: string): Promise<BoardTicket> {
      if (!options.tokens) throw new Error('issueToken(): no board tokens configured');
      const isTeacher = user.role === 'teacher';
      const [found] = await db.select({ id: classes.id }).from(classes).where(eq(classes.id, classId)).limit(1);
      const allowed =
        found && (isTeacher ? await teachesClass(db, user.id, classId) : await isStudentOfClass(db, user.id, classId));
      if (!allowed) throw notFound('This class board does not exist');
      const table = isTeacher ? teachers : students;
      const [account] = await db.select({ name: table.name }).from(table).where(eq(table.id, user.id)).limit(1);
      if (!account) throw notFound('This class board does not exist');
      const { token, expiresAt } = await options.tokens.issue({
        sub: user.id,
        role: user.role,
        name: account.name,
        room: classId,
        sv: user.sessionVersion,
        teacher: isTeacher,
      });
      return { classId, token, expiresAt: expiresAt.toISOString(), teacher: isTeacher };
    },

    /** The pen setting, for a teacher of the class. */
    async pen(teacherId: string, classId: string): Promise<ClassBoardPen> {
      await requireTaughtClass(db, teacherId, classId);
      const [row] = await db
        .select({ penMode: classBoards.penMode, penStudentIds: classBoards.penStudentIds })
        .from(classBoards)
        .where(eq(classBoards.classId, classId));
      return { classId, ...(row ? penOf(row) : { mode: 'teachers', studentIds: [] }) };
    },

    /** Sets who draws; only students of the class are kept among those named. */
    async setPen(teacherId: string, classId: string, input: Required<BoardPenInput>): Promise<ClassBoardPen> {
      return db.transaction(async (tx) => {
        await requireTaughtClass(tx, teacherId, classId);
        const named = [...new Set(input.studentIds)];
        const kept =
          named.length === 0
            ? []
            : (
                await tx
                  .select({ id: classStudents.studentId })
                  .from(classStudents)
                  .where(and(eq(classStudents.classId, classId), inArray(classStudents.studentId, named)))
              ).map((row) => row.id);
        const studentIds = named.filter((id) => kept.includes(id));
        await ensureBoard(tx, classId);
        await tx
          .update(classBoards)
          .set({ penMode: input.mode, penStudentIds: studentIds, updatedAt: sql`now()` })
          .where(eq(classBoards.classId, classId));
        return { classId, mode: input.mode, studentIds };
      });
    },
  };
}

export type ClassBoards = ReturnType<typeof createClassBoards>;
