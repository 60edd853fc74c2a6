import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import {
  checkRosterRows,
  parseRosterCsv,
  type CheckedRow,
  type RosterImportCredential,
  ROSTER_IMPORT_FAILURES,
  ROSTER_IMPORT_STATES,
  rosterImportFailureSchema,
  type RosterImportFailure,
  type RosterImportFailureCode,
  type RosterImportStatus,
  type RosterImportCheck,
  type ValidRow,
} from '#shared/roster-import';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { violatedUniqueConstraint } from '../../db/errors.ts';
import { studentIdentityColumns } from '../../db/identity-keys.ts';
import { classStudents, rosterImports, students, teachers } from '../../db/schema.ts';
import { AppError, badRequest, fieldProblem, forbidden, notFound } from '../../errors.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { generateTemporaryPassword } from '../accounts/temporary-passwords.ts';
import { requireTaughtClass } from '../classes/records.ts';
import { credentialSeal } from './sealed-credentials.ts';
import { fieldErrorMessage } from '../../field-error-messages.ts';

/** An import is kept this long after it ends, for its teacher to read the outcome (decision 034). */
export const IMPORT_KEPT_MS = 15 * 60_000;
/** Rows per INSERT: well under PostgreSQL's 65,535 parameters (13 columns a row). */
const INSERT_BATCH = 500;

/** A running import's instance writes its heartbeat this often; one silent for STALE_MS died with it. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;
/** Progress is written at most this often: hashing a row takes ~50 ms, a write per row would be most of the work. */
const PROGRESS_EVERY_MS = 400;

/** A failed import's reason as `roster_imports.error` keeps it: its code and parameters, and the English message. */
type StoredFailure = RosterImportFailure & { message: string };

const RESTARTED: StoredFailure = {
  code: 'SERVER_RESTARTED',
  message: 'The server restarted during the import. Nothing was imported: import the file again.',
};

/** The stored failure; an import failed before the codes were kept holds the English message alone. */
function readFailure(stored: string): StoredFailure {
  try {
    const { message, ...failure } = JSON.parse(stored) as StoredFailure;
    const parsed = rosterImportFailureSchema.safeParse(failure);
    if (parsed.success && typeof message === 'string') return { ...parsed.data, message };
  } catch {
    // Not JSON: the English message alone.
  }
  return { code: 'IMPORT_FAILED', message: stored };
}

class ImportStopped extends Error {}

const isRosterImportFailureCode = (code: string): code is RosterImportFailureCode =>
  Object.hasOwn(ROSTER_IMPORT_FAILURES, code);

/** The status's two sides of a failure: the English for logs and API users, the code for clients to word. */
const failureAnswer = ({ message, ...failure }: StoredFailure) => ({ error: message, failure });

const TAKEN_MESSAGES = {
  rollNumber: 'Roll number is taken by another student of the school',
  email: 'Email is taken by another student of the school',
} as const;

/**
 * Class lists from CSV (issue 19 point 6, decision 034): the check, and the import as a job
 * that hashes the passwords with its progress readable, then writes every row in one
 * transaction. The job is a row of `roster_imports`, so any instance answers its progress; the
 * instance that took the start does the work.
 */
export function createRosterImports(
  db: Database,
  cache: ReadCache,
  options: { secret: string; keptMs?: number; staleMs?: number; heartbeatMs?: number },
) {
  const keptMs = options.keptMs ?? IMPORT_KEPT_MS;
  const staleMs = options.staleMs ?? STALE_MS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const credentials = credentialSeal(options.secret);
  const running = new Set<Promise<void>>();
  let isClosing = false;
  // One import hashes at a time on this instance: argon2 for 2,000 rows is a minute of one
  // core, and the other core stays free for sign-ins and everything else.
  let hashingTurn: Promise<void> = Promise.resolve();

  /** Every row of the file with its problems, the school's taken identities included (one read for all keys). */
  async function checkFile(csv: string): Promise<{ check: RosterImportCheck; valid: ValidRow[] }> {
    const parsed = parseRosterCsv(csv);
    // The body schema refused these already; a second guard costs nothing.
    if (!parsed.ok) throw badRequest(parsed.message, fieldProblem('csv', parsed.code, parsed.message, parsed.params));
    const { rows, valid } = checkRosterRows(parsed.rows, fieldErrorMessage);
    const taken =
      valid.length === 0
        ? []
        : await db
            .select({ rollNumberKey: students.rollNumberKey, emailKey: students.emailKey })
            .from(students)
            .where(
              or(
                inArray(
                  students.rollNumberKey,
                  valid.map((row) => row.rollNumberKey),
                ),
                inArray(
                  students.emailKey,
                  valid.map((row) => row.emailKey),
                ),
              ),
            );
    const takenKeys = {
      rollNumber: new Set(taken.map((row) => row.rollNumberKey)),
      email: new Set(taken.map((row) => row.emailKey)),
    };
    const rowByNumber = new Map(rows.map((row) => [row.row, row]));
    const stillValid = valid.filter((row) => {
      const checked = rowByNumber.get(row.row)!;
      if (takenKeys.rollNumber.has(row.rollNumberKey))
        checked.problems.push({ field: 'rollNumber', code: 'TAKEN', message: TAKEN_MESSAGES.rollNumber });
      if (takenKeys.email.has(row.emailKey))
        checked.problems.push({ field: 'email', code: 'TAKEN', message: TAKEN_MESSAGES.email });
      return checked.problems.length === 0;
    });
    return {
      check: {
        rows,
        ignoredColumns: parsed.ignoredColumns,
        rowsWithProblems: rows.filter((row) => row.problems.length > 0).length,
      },
      valid: stillValid,
    };
  }

  const rowsInvalid = (rows: CheckedRow[]) =>
    new AppError('ROSTER_ROWS_INVALID', 'Rows of the file have problems: nothing was imported. Check the file again.', {
      errors: rows.flatMap((row) =>
        row.problems.map((problem) => ({
          field: `rows.${row.row}${problem.field ? `.${problem.field}` : ''}`,
          code: problem.code,
          params: { ...problem.params, row: row.row },
          message: `Row ${row.row}: ${problem.message}`,
        })),
      ),
    });

  /** Why an import wrote nothing: its code for clients to word, and English words a teacher can act on. */
  function failureOf(error: unknown): StoredFailure {
    const constraint = violatedUniqueConstraint(error);
    if (constraint === 'students_roll_number_key_unique' || constraint === 'students_email_key_unique') {
      const isEmail = constraint === 'students_email_key_unique';
      return {
        code: 'TAKEN_DURING_IMPORT',
        params: { field: isEmail ? 'email' : 'rollNumber' },
        message: `${isEmail ? 'An email' : 'A roll number'} of the file was given to another student while the import ran. Nothing was imported: check the file again.`,
      };
    }
    if (error instanceof ImportStopped) return RESTARTED;
    if (error instanceof AppError) {
      const message = `${error.message.replace(/\.$/, '')}. Nothing was imported.`;
      return isRosterImportFailureCode(error.code) ? { code: error.code, message } : { code: 'IMPORT_FAILED', message };
    }
    return { code: 'IMPORT_FAILED', message: 'The import failed on our side. Nothing was imported: try again.' };
  }

  const isRunningState = sql`${rosterImports.state} in ('hashing', 'writing')`;
  const isStale = sql`${rosterImports.updatedAt} < now() - make_interval(secs => ${staleMs / 1000})`;

  /** Ends what an instance that stopped left running, and forgets imports ended long enough ago. */
  async function tidy(teacherId?: string) {
    await db
      .update(rosterImports)
      .set({ state: 'failed', error: JSON.stringify(RESTARTED), updatedAt: sql`now()` })
      .where(
        and(isRunningState, isStale, teacherId === undefined ? undefined : eq(rosterImports.teacherId, teacherId)),
      );
    await db
      .delete(rosterImports)
      .where(
        and(
          sql`not (${isRunningState})`,
          lt(rosterImports.updatedAt, sql`now() - make_interval(secs => ${keptMs / 1000})`),
        ),
      );
  }

  const importRunning = () =>
    new AppError('IMPORT_RUNNING', 'Your previous import is still running: wait for it to finish');

  async function hashRows(importId: string, rows: ValidRow[]) {
    const hashed: { row: ValidRow; passwordHash: string; generated?: string }[] = [];
    let written = Date.now();
    for (const row of rows) {
      if (isClosing) throw new ImportStopped();
      const generated = row.value.password === undefined ? generateTemporaryPassword() : undefined;
      hashed.push({ row, generated, passwordHash: await hashPassword(row.value.password ?? generated!) });
      if (Date.now() - written >= PROGRESS_EVERY_MS) {
        written = Date.now();
        await db
          .update(rosterImports)
          .set({ done: hashed.length, updatedAt: sql`now()` })
          .where(eq(rosterImports.id, importId));
      }
    }
    return hashed;
  }

  async function run(importId: string, teacherId: string, classId: string, rows: ValidRow[]) {
    const previousTurn = hashingTurn;
    let endTurn!: () => void;
    hashingTurn = new Promise((resolve) => (endTurn = resolve));
    let hashed;
    try {
      await previousTurn;
      hashed = await hashRows(importId, rows);
    } finally {
      endTurn();
    }
    await db
      .update(rosterImports)
      .set({ state: 'writing', done: hashed.length, updatedAt: sql`now()` })
      .where(eq(rosterImports.id, importId));
    await db.transaction(async (tx) => {
      // The class may have been archived, or the teacher removed from it, while the passwords were hashed.
      await requireTaughtClass(tx, teacherId, classId, { mustBeActive: true, forUpdate: true });
      const [teacher] = await tx.select({ id: teachers.id }).from(teachers).where(eq(teachers.id, teacherId)).limit(1);
      if (!teacher) throw new AppError('ACCOUNT_REMOVED', 'Your account no longer exists');
      for (let start = 0; start < hashed.length; start += INSERT_BATCH) {
        const batch = hashed.slice(start, start + INSERT_BATCH);
        const inserted = await tx
          .insert(students)
          .values(
            batch.map(({ row, passwordHash, generated }) => ({
              name: row.value.name,
              ...studentIdentityColumns(row.value),
              parentName: row.value.parentName,
              parentEmail: row.value.parentEmail,
              passwordHash,
              createdByTeacherId: teacherId,
              // A generated password is the teacher's, read off a sheet: the student chooses their own (decision 033).
              mustChangePassword: generated !== undefined,
            })),
          )
          .returning({ id: students.id });
        await tx.insert(classStudents).values(inserted.map(({ id }) => ({ classId, studentId: id })));
      }
      const generated = hashed.flatMap(({ row, generated }) =>
        generated === undefined
          ? []
          : [{ row: row.row, name: row.value.name, rollNumber: row.value.rollNumber, password: generated }],
      );
      // Done in the same transaction as the students: the job never says done for rows not written.
      await tx
        .update(rosterImports)
        .set({
          state: 'done',
          imported: hashed.length,
          sealedCredentials: generated.length === 0 ? null : credentials.seal(generated),
          updatedAt: sql`now()`,
        })
        .where(eq(rosterImports.id, importId));
    });
    await cache.changed([cacheTags.classMemberships]);
  }

  return {
    /** Every row with its problems; writes nothing. */
    async check(teacherId: string, classId: string, csv: string): Promise<RosterImportCheck> {
      await requireTaughtClass(db, teacherId, classId, { mustBeActive: true });
      return (await checkFile(csv)).check;
    },

    /** Checks again and, with no problem, starts the import: all rows in one transaction, or none. */
    async start(teacherId: string, classId: string, csv: string, log: { error(data: object, message: string): void }) {
      await requireTaughtClass(db, teacherId, classId, { mustBeActive: true });
      await tidy(teacherId);
      const [already] = await db
        .select({ id: rosterImports.id })
        .from(rosterImports)
        .where(and(eq(rosterImports.teacherId, teacherId), isRunningState))
        .limit(1);
      if (already) throw importRunning();
      const { check, valid } = await checkFile(csv);
      if (check.rowsWithProblems > 0) throw rowsInvalid(check.rows);
      // The partial unique index decides between two starts sent at once, on any instances.
      let importId: string;
      try {
        const [created] = await db
          .insert(rosterImports)
          .values({ teacherId, classId, state: 'hashing', total: valid.length })
          .returning({ id: rosterImports.id });
        importId = created!.id;
      } catch (error) {
        if (violatedUniqueConstraint(error) === 'roster_imports_one_running') throw importRunning();
        throw error;
      }
      const heartbeat = setInterval(() => {
        db.update(rosterImports)
          .set({ updatedAt: sql`now()` })
          .where(and(eq(rosterImports.id, importId), isRunningState))
          .catch((error: unknown) => log.error({ err: error, importId }, 'roster import heartbeat failed'));
      }, heartbeatMs);
      heartbeat.unref();
      const work = run(importId, teacherId, classId, valid)
        .catch(async (error: unknown) => {
          if (
            !(error instanceof AppError) &&
            violatedUniqueConstraint(error) === undefined &&
            !(error instanceof ImportStopped)
          )
            log.error({ err: error, importId }, 'roster import failed');
          await db
            .update(rosterImports)
            .set({ state: 'failed', error: JSON.stringify(failureOf(error)), updatedAt: sql`now()` })
            .where(eq(rosterImports.id, importId))
            .catch((failure: unknown) =>
              log.error({ err: failure, importId }, 'roster import: cannot record its failure'),
            );
        })
        .finally(() => clearInterval(heartbeat));
      running.add(work);
      void work.finally(() => running.delete(work));
      return { importId };
    },

    /** The import's progress for the teacher who started it; its generated passwords on the first read after it is done. */
    async status(teacherId: string, importId: string, options: { isHead?: boolean } = {}): Promise<RosterImportStatus> {
      // A poll comes every 700 ms: it reads its own job only; the tidying of the others waits for a start.
      const [row] = await db
        .select({
          job: rosterImports,
          isExpired: sql<boolean>`not (${isRunningState}) and ${rosterImports.updatedAt} < now() - make_interval(secs => ${keptMs / 1000})`,
          isStale: sql<boolean>`${isRunningState} and ${isStale}`,
        })
        .from(rosterImports)
        .where(eq(rosterImports.id, importId))
        .limit(1);
      if (!row || row.isExpired) throw notFound('No such import: it ended more than 15 minutes ago');
      const job = row.isStale ? { ...row.job, state: 'failed', error: JSON.stringify(RESTARTED) } : row.job;
      if (job.teacherId !== teacherId) throw forbidden('This import was started by another teacher');
      let answered: RosterImportCredential[] | undefined;
      // A HEAD request sends no body: it must not use up the one answer that carries them.
      if (job.sealedCredentials !== null && !options.isHead) {
        // Answered once, to whichever read clears them first: the sheet is the teacher's from now on.
        const [taken] = await db
          .update(rosterImports)
          .set({ sealedCredentials: null })
          .where(and(eq(rosterImports.id, importId), sql`${rosterImports.sealedCredentials} is not null`))
          .returning({ id: rosterImports.id });
        if (taken) answered = credentials.open(job.sealedCredentials);
      }
      const state = ROSTER_IMPORT_STATES.find((known) => known === job.state) ?? 'failed';
      return {
        state,
        done: job.done,
        total: job.total,
        ...(job.error === null ? {} : failureAnswer(readFailure(job.error))),
        ...(job.imported === null ? {} : { imported: job.imported }),
        ...(answered === undefined ? {} : { credentials: answered }),
      };
    },

    /** Stops hashing and lets a running write end; the stopped imports are recorded as failed. */
    async close() {
      isClosing = true;
      await Promise.allSettled([...running]);
    },
  };
}

export type RosterImports = ReturnType<typeof createRosterImports>;
