import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
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
import { createBatches } from '../../lib/batches.ts';
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

/**
 * An update to append, with the client ids it adds structs of that are not known to be the
 * writer's; `deletesOnly` when it adds no struct (erasing, clearing: allowed on a full board).
 */
type AppendRequest = {
  writer: BoardWriter;
  update: Uint8Array;
  change: BoardChange;
  unknown: number[];
  deletesOnly: boolean;
};

type AppendBatches = ReturnType<typeof createBatches<AppendRequest, AppendOutcome>>;

/** At most this many updates in one append transaction (a board holds at most 200 people). */
const APPEND_BATCH_MAX = 100;

export type ClassBoardsOptions = {
  tokens?: BoardTokens;
  /** Smaller thresholds in tests. */
  limits?: Partial<Record<'boardMaxBytes' | 'compactAfterUpdates' | 'compactAfterBytes' | 'membershipCheckMs', number>>;
  /** How many bytes of boards' snapshots the downloads keep in memory (64 MiB by default). */
  downloadCacheBytes?: number;
};

/** The snapshots kept for downloads by default: five boards at their limit. */
const DOWNLOAD_CACHE_BYTES = 64 * 1024 * 1024;

/** A board's snapshot as a download keeps it: everything up to `seq` merged (null: nothing yet). */
type KeptSnapshot = { seq: number; snapshot: Uint8Array | null };

/** The distinct ids of the teachers (or the students) among `people`. */
const idsOf = (people: readonly BoardWriter[], teacher: boolean) => [
  ...new Set(people.filter((person) => person.teacher === teacher).map((person) => person.id)),
];

/** Which of `ids` teach (or are students of) the class, as text[]: a column of the board row's select. */
function membersAmong(classId: string, teacher: boolean, ids: string[]) {
  if (ids.length === 0) return sql<string[]>`'{}'::text[]`;
  const [table, id, ofClass] = teacher
    ? [classTeachers, classTeachers.teacherId, classTeachers.classId]
    : [classStudents, classStudents.studentId, classStudents.classId];
  return sql<string[]>`array(select ${id}::text from ${table} where ${ofClass} = ${classId} and ${inArray(id, ids)})`;
}

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

  /**
   * Per board, its last snapshot as read or made here (decision 069's addendum), least recently
   * downloaded first, within downloadCacheBytes: a download reads the updates after it only (a
   * snapshot of 20,000 strokes took 1-1.7 s to read from PostgreSQL on a loaded machine). A
   * snapshot never changes what it holds, so a kept one is never wrong, only older than the
   * board's: a compaction elsewhere makes the next download read the new one.
   */
  const kept = new Map<string, KeptSnapshot>();
  const keptMaxBytes = options.downloadCacheBytes ?? DOWNLOAD_CACHE_BYTES;
  let keptBytes = 0;
  const keepSnapshot = (classId: string, entry: KeptSnapshot) => {
    const old = kept.get(classId);
    if (old && old.seq > entry.seq) return;
    if (old) {
      kept.delete(classId);
      keptBytes -= old.snapshot?.byteLength ?? 0;
    }
    const bytes = entry.snapshot?.byteLength ?? 0;
    if (bytes > keptMaxBytes) return;
    kept.set(classId, entry);
    keptBytes += bytes;
    for (const [oldestId, oldest] of kept) {
      if (keptBytes <= keptMaxBytes) break;
      kept.delete(oldestId);
      keptBytes -= oldest.snapshot?.byteLength ?? 0;
    }
  };

  /**
   * The board as a download sends it: its snapshot, kept or read (only when the kept one is
   * older than the stored), then the updates after it; one transaction's view.
   */
  async function readDownload(
    tx: Pick<Database, 'select' | 'insert'>,
    classId: string,
    known: KeptSnapshot | undefined,
  ) {
    const [row] = await tx
      .select({ snapshotSeq: classBoards.snapshotSeq, lastSeq: classBoards.lastSeq })
      .from(classBoards)
      .where(eq(classBoards.classId, classId));
    if (!row) {
      // A board nobody opened yet is made, as a socket's join makes it.
      await ensureBoard(tx, classId);
      return { snapshot: { seq: 0, snapshot: null }, updates: [] as Uint8Array[] };
    }
    let snapshot = known;
    if (!snapshot || snapshot.seq < row.snapshotSeq) {
      const [read] = await tx
        .select({ snapshot: classBoards.snapshot })
        .from(classBoards)
        .where(eq(classBoards.classId, classId));
      snapshot = { seq: row.snapshotSeq, snapshot: read?.snapshot ?? null };
    }
    return { snapshot, updates: await readLog(tx, classId, snapshot.seq, row.lastSeq) };
  }

  /** The logged updates numbered after `afterSeq`, up to `lastSeq`, in order. */
  async function readLog(tx: Pick<Database, 'select'>, classId: string, afterSeq: number, lastSeq: number) {
    const logged = await tx
      .select({ update: classBoardUpdates.update })
      .from(classBoardUpdates)
      .where(
        and(
          eq(classBoardUpdates.classId, classId),
          gt(classBoardUpdates.seq, afterSeq),
          lte(classBoardUpdates.seq, lastSeq),
        ),
      )
      .orderBy(asc(classBoardUpdates.seq));
    return logged.map((entry) => entry.update);
  }

  /** Per board, its appends waiting for the one in flight (dropped once nothing waits). */
  const appendBatches = new Map<string, AppendBatches>();

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
    updates.push(...(await readLog(tx, classId, Math.max(afterSeq, row.snapshotSeq), row.lastSeq)));
    return { updates, seq: row.lastSeq, pen: penOf(row) };
  }

  /**
   * Appends a batch of a board's updates in one transaction: one lock of the board's row, each
   * update checked in order as if appended alone (the writer of the class, the pen, pages the
   * teachers', client ids, including those bound by an earlier update of the batch, the size
   * with the earlier ones counted), the accepted ones inserted with consecutive numbers in one
   * statement, the counters updated once. Answers each update's outcome, in order.
   */
  async function appendAll(classId: string, requests: readonly AppendRequest[]): Promise<AppendOutcome[]> {
    const writers = requests.map((request) => request.writer);
    const [teacherIds, studentIds] = [idsOf(writers, true), idsOf(writers, false)];
    const claimed = [...new Set(requests.flatMap((request) => request.unknown))];
    const bindings: { clientIds: number[]; userId: string }[] = [];
    const outcomes = await db.transaction(async (tx): Promise<AppendOutcome[]> => {
      const [row] = await tx
        .select({
          penMode: classBoards.penMode,
          penStudentIds: classBoards.penStudentIds,
          snapshotBytes: classBoards.snapshotBytes,
          logBytes: classBoards.logBytes,
          logCount: classBoards.logCount,
          lastSeq: classBoards.lastSeq,
          // Which writers are still of the class, in the same round trip as the lock: a teacher's
          // update may add others' strokes (an undo restoring them), only while they teach it.
          teachers: membersAmong(classId, true, teacherIds),
          students: membersAmong(classId, false, studentIds),
        })
        .from(classBoards)
        .where(eq(classBoards.classId, classId))
        .for('update');
      if (!row) return requests.map(() => ({ refused: 'GONE' as const }));
      const [taught, enrolled] = [new Set(row.teachers), new Set(row.students)];
      const pen = penOf(row);
      // Who holds each client id the batch adds structs of: bound before, or by an earlier update of it.
      const owners = new Map<number, string>();
      if (claimed.length > 0) {
        const rows = await tx
          .select({ clientId: classBoardClients.clientId, userId: classBoardClients.userId })
          .from(classBoardClients)
          .where(and(eq(classBoardClients.classId, classId), inArray(classBoardClients.clientId, claimed)));
        for (const bound of rows) owners.set(bound.clientId, bound.userId);
      }
      let { lastSeq, logBytes, logCount } = row;
      const accepted: (typeof classBoardUpdates.$inferInsert)[] = [];
      const newBindings: (typeof classBoardClients.$inferInsert)[] = [];
      const decide = ({ writer, update, change, unknown, deletesOnly }: AppendRequest): AppendOutcome => {
        if (!(writer.teacher ? taught : enrolled).has(writer.id)) return { refused: 'GONE' };
        if (change === 'pages' && !writer.teacher) return { refused: 'NOT_A_TEACHER' };
        if (!holdsPen(pen, writer)) return { refused: 'NO_PEN' };
        if (unknown.some((clientId) => (owners.get(clientId) ?? writer.id) !== writer.id)) {
          return { refused: 'CLIENT_TAKEN' };
        }
        // Erasing is how a full board makes room (then compaction): an update that only deletes always goes.
        if (!deletesOnly && row.snapshotBytes + logBytes + update.byteLength > limits.boardMaxBytes) {
          return { refused: 'BOARD_FULL' };
        }
        for (const clientId of unknown) {
          if (owners.has(clientId)) continue;
          owners.set(clientId, writer.id);
          newBindings.push({ classId, clientId, userId: writer.id });
        }
        if (unknown.length > 0) bindings.push({ clientIds: unknown, userId: writer.id });
        lastSeq += 1;
        logBytes += update.byteLength;
        logCount += 1;
        accepted.push({ classId, seq: lastSeq, update, authorId: writer.id });
        return {
          seq: lastSeq,
          compactDue: logCount >= limits.compactAfterUpdates || logBytes >= limits.compactAfterBytes,
        };
      };
      const decided = requests.map(decide);
      if (accepted.length === 0) return decided;
      if (newBindings.length > 0) await tx.insert(classBoardClients).values(newBindings).onConflictDoNothing();
      await tx.insert(classBoardUpdates).values(accepted);
      await tx
        .update(classBoards)
        .set({ lastSeq, logBytes, logCount, updatedAt: sql`now()` })
        .where(eq(classBoards.classId, classId));
      return decided;
    });
    // Bound for good once committed.
    for (const { clientIds, userId } of bindings) remember(classId, clientIds, userId);
    return outcomes;
  }

  return {
    limits,

    /** Which of `people` are (still) teachers or students of the class: the others have been removed from it. */
    async stillOfClass(classId: string, people: BoardWriter[]): Promise<Set<string>> {
      const [teacherIds, studentIds] = [idsOf(people, true), idsOf(people, false)];
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

    /**
     * The stored board for a download (GET …/document): its snapshot (kept here once read) and
     * the updates after it, to apply in order. Nothing for a board never drawn on.
     */
    async download(classId: string): Promise<Uint8Array[]> {
      const known = kept.get(classId);
      const read = await db.transaction((tx) => readDownload(tx, classId, known), {
        isolationLevel: 'repeatable read',
      });
      keepSnapshot(classId, read.snapshot);
      return read.snapshot.snapshot ? [read.snapshot.snapshot, ...read.updates] : read.updates;
    },

    /** What an instance that has everything up to `afterSeq` lacks (a bus message it missed). */
    async since(classId: string, afterSeq: number): Promise<StoredBoard> {
      return db.transaction((tx) => readSince(tx, classId, afterSeq), { isolationLevel: 'repeatable read' });
    },

    /**
     * Appends one checked update (what was new to the document) under the board's lock: refused
     * when the writer has left the class, lacks the pen (or, for pages, is no teacher), uses a
     * Yjs client id someone else used first, or the board would outgrow its size (unless it only
     * deletes: a full board can always be erased). Updates of a
     * board arriving while one of its appends is in flight wait for it and go together in one
     * transaction (appendAll); the number each gets orders it after every update committed before.
     */
    append(classId: string, writer: BoardWriter, update: Uint8Array, change: BoardChange): Promise<AppendOutcome> {
      // The client ids whose structs it adds: each this writer's, or new (then bound to them).
      const clientIds = [...Y.parseUpdateMeta(update).to.keys()];
      const known = bound.get(classId);
      if (clientIds.some((clientId) => (known?.get(clientId) ?? writer.id) !== writer.id)) {
        return Promise.resolve({ refused: 'CLIENT_TAKEN' });
      }
      const unknown = clientIds.filter((clientId) => known?.get(clientId) !== writer.id);
      let batches = appendBatches.get(classId);
      if (!batches) {
        const made: AppendBatches = createBatches(
          (requests: readonly AppendRequest[]) => appendAll(classId, requests),
          {
            maxSize: APPEND_BATCH_MAX,
            onIdle: () => {
              if (appendBatches.get(classId) === made) appendBatches.delete(classId);
            },
          },
        );
        appendBatches.set(classId, made);
        batches = made;
      }
      return batches.add({ writer, update, change, unknown, deletesOnly: clientIds.length === 0 });
    },

    /**
     * Folds every update into one snapshot, in one transaction under the board's lock: the
     * document it makes is the same (deleted strokes keep only their place), the log is emptied.
     * Returns the board's stored size after it.
     */
    async compact(classId: string): Promise<number> {
      const made = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ lastSeq: classBoards.lastSeq, snapshotSeq: classBoards.snapshotSeq })
          .from(classBoards)
          .where(eq(classBoards.classId, classId))
          .for('update');
        if (!row) return undefined;
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
        return { seq: row.lastSeq, snapshot };
      });
      if (!made) return 0;
      // The next download here sends this snapshot without reading it back.
      keepSnapshot(classId, made);
      return made.snapshot.byteLength;
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
