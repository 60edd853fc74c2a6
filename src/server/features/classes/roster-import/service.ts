import { randomUUID } from 'node:crypto';
import { eq, inArray, or } from 'drizzle-orm';
import {
  checkRosterRows,
  parseRosterCsv,
  type CheckedRow,
  type ImportCredential,
  type ImportStatus,
  type RosterCheck,
  type ValidRow,
} from '#shared/roster-csv';
import { cacheTags, type ReadCache } from '../../../cache/read-cache.ts';
import type { Database } from '../../../db/client.ts';
import { violatedUniqueConstraint } from '../../../db/errors.ts';
import { studentIdentityColumns } from '../../../db/identity-keys.ts';
import { classStudents, students, teachers } from '../../../db/schema.ts';
import { AppError, badRequest, forbidden, notFound } from '../../../errors.ts';
import { hashPassword } from '../../accounts/passwords.ts';
import { generateTemporaryPassword } from '../../accounts/temporary-passwords.ts';
import { requireTaughtClass } from '../records.ts';

/** An import is kept this long after it ends, for its teacher to read the outcome (decision 034). */
export const IMPORT_KEPT_MS = 15 * 60_000;
/** Rows per INSERT: well under PostgreSQL's 65,535 parameters (13 columns a row). */
const INSERT_BATCH = 500;

type Job = {
  id: string;
  teacherId: string;
  state: ImportStatus['state'];
  done: number;
  total: number;
  error?: string;
  imported?: number;
  /** The generated passwords until their one read; only their hashes are written. */
  credentials?: ImportCredential[];
  expiry?: NodeJS.Timeout;
};

class ImportStopped extends Error {}

const TAKEN_MESSAGES = {
  rollNumber: 'Roll number is taken by another student of the school',
  email: 'Email is taken by another student of the school',
} as const;

/**
 * Class lists from CSV (issue 19 point 6, decision 034): the check, and the import as a job
 * that hashes the passwords with its progress readable, then writes every row in one
 * transaction. Jobs live in this instance's memory.
 */
export function createRosterImports(db: Database, cache: ReadCache, options: { keptMs?: number } = {}) {
  const keptMs = options.keptMs ?? IMPORT_KEPT_MS;
  const jobs = new Map<string, Job>();
  const running = new Set<Promise<void>>();
  let isClosing = false;
  // One import hashes at a time on this instance: argon2 for 2,000 rows is a minute of one
  // core, and the other core stays free for sign-ins and everything else.
  let hashingTurn: Promise<void> = Promise.resolve();

  /** Every row of the file with its problems, the school's taken identities included (one read for all keys). */
  async function checkFile(csv: string): Promise<{ check: RosterCheck; valid: ValidRow[] }> {
    const parsed = parseRosterCsv(csv);
    // The body schema refused these already; a second guard costs nothing.
    if (!parsed.ok) throw badRequest(parsed.message, [{ field: 'csv', message: parsed.message }]);
    const { rows, valid } = checkRosterRows(parsed.rows);
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
        checked.problems.push({ field: 'rollNumber', message: TAKEN_MESSAGES.rollNumber });
      if (takenKeys.email.has(row.emailKey)) checked.problems.push({ field: 'email', message: TAKEN_MESSAGES.email });
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
          message: `Row ${row.row}: ${problem.message}`,
        })),
      ),
    });

  function finish(job: Job, outcome: Pick<Job, 'state' | 'error' | 'imported' | 'credentials'>) {
    Object.assign(job, outcome);
    // Kept for its teacher to read, then forgotten with any password not yet read.
    job.expiry = setTimeout(() => jobs.delete(job.id), keptMs);
    job.expiry.unref();
  }

  async function hashRows(job: Job, rows: ValidRow[]) {
    const hashed: { row: ValidRow; passwordHash: string; generated?: string }[] = [];
    for (const row of rows) {
      if (isClosing) throw new ImportStopped();
      const generated = row.value.password === undefined ? generateTemporaryPassword() : undefined;
      hashed.push({ row, generated, passwordHash: await hashPassword(row.value.password ?? generated!) });
      job.done += 1;
    }
    return hashed;
  }

  async function run(job: Job, classId: string, rows: ValidRow[]) {
    const previousTurn = hashingTurn;
    let endTurn!: () => void;
    hashingTurn = new Promise((resolve) => (endTurn = resolve));
    let hashed;
    try {
      await previousTurn;
      hashed = await hashRows(job, rows);
    } finally {
      endTurn();
    }
    job.state = 'writing';
    await db.transaction(async (tx) => {
      // The class may have been archived, or the teacher removed from it, while the passwords were hashed.
      await requireTaughtClass(tx, job.teacherId, classId, { mustBeActive: true, forUpdate: true });
      const [teacher] = await tx
        .select({ id: teachers.id })
        .from(teachers)
        .where(eq(teachers.id, job.teacherId))
        .limit(1);
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
              createdByTeacherId: job.teacherId,
              // A generated password is the teacher's, read off a sheet: the student chooses their own (decision 033).
              mustChangePassword: generated !== undefined,
            })),
          )
          .returning({ id: students.id });
        await tx.insert(classStudents).values(inserted.map(({ id }) => ({ classId, studentId: id })));
      }
    });
    await cache.changed([cacheTags.classMemberships]);
    finish(job, {
      state: 'done',
      imported: hashed.length,
      credentials: hashed.flatMap(({ row, generated }) =>
        generated === undefined
          ? []
          : [{ row: row.row, name: row.value.name, rollNumber: row.value.rollNumber, password: generated }],
      ),
    });
  }

  /** Why an import wrote nothing, in words a teacher can act on. */
  function failureOf(error: unknown): string {
    const constraint = violatedUniqueConstraint(error);
    if (constraint === 'students_roll_number_key_unique' || constraint === 'students_email_key_unique')
      return `${constraint === 'students_email_key_unique' ? 'An email' : 'A roll number'} of the file was given to another student while the import ran. Nothing was imported: check the file again.`;
    if (error instanceof ImportStopped)
      return 'The server restarted during the import. Nothing was imported: import the file again.';
    if (error instanceof AppError) return `${error.message.replace(/\.$/, '')}. Nothing was imported.`;
    return 'The import failed on our side. Nothing was imported: try again.';
  }

  return {
    /** Every row with its problems; writes nothing. */
    async check(teacherId: string, classId: string, csv: string): Promise<RosterCheck> {
      await requireTaughtClass(db, teacherId, classId, { mustBeActive: true });
      return (await checkFile(csv)).check;
    },

    /** Checks again and, with no problem, starts the import: all rows in one transaction, or none. */
    async start(teacherId: string, classId: string, csv: string, log: { error(data: object, message: string): void }) {
      await requireTaughtClass(db, teacherId, classId, { mustBeActive: true });
      const refuseWhileRunning = () => {
        const isRunning = [...jobs.values()].some(
          (job) => job.teacherId === teacherId && (job.state === 'hashing' || job.state === 'writing'),
        );
        if (isRunning)
          throw new AppError('IMPORT_RUNNING', 'Your previous import is still running: wait for it to finish');
      };
      refuseWhileRunning();
      const { check, valid } = await checkFile(csv);
      if (check.rowsWithProblems > 0) throw rowsInvalid(check.rows);
      // Again, with no await before the job is recorded: two starts sent at once both passed the first.
      refuseWhileRunning();
      const job: Job = { id: randomUUID(), teacherId, state: 'hashing', done: 0, total: valid.length };
      jobs.set(job.id, job);
      const work = run(job, classId, valid).catch((error: unknown) => {
        if (
          !(error instanceof AppError) &&
          violatedUniqueConstraint(error) === undefined &&
          !(error instanceof ImportStopped)
        )
          log.error({ err: error, importId: job.id }, 'roster import failed');
        finish(job, { state: 'failed', error: failureOf(error) });
      });
      running.add(work);
      void work.finally(() => running.delete(work));
      return { importId: job.id };
    },

    /** The import's progress for the teacher who started it; its generated passwords on the first read after it is done. */
    status(teacherId: string, importId: string, options: { isHead?: boolean } = {}): ImportStatus {
      const job = jobs.get(importId);
      if (!job) throw notFound('No such import: it ended more than 15 minutes ago, or on another server');
      if (job.teacherId !== teacherId) throw forbidden('This import was started by another teacher');
      // A HEAD request sends no body: it must not use up the one answer that carries them.
      const credentials = options.isHead ? undefined : job.credentials;
      // Answered once: the sheet is the teacher's from now on, and the server keeps only hashes.
      if (credentials) delete job.credentials;
      return {
        state: job.state,
        done: job.done,
        total: job.total,
        ...(job.error === undefined ? {} : { error: job.error }),
        ...(job.imported === undefined ? {} : { imported: job.imported }),
        ...(credentials === undefined ? {} : { credentials }),
      };
    },

    /** Stops hashing, lets a running write end, and forgets every job. */
    async close() {
      isClosing = true;
      await Promise.allSettled([...running]);
      for (const job of jobs.values()) clearTimeout(job.expiry);
      jobs.clear();
    },
  };
}

export type RosterImports = ReturnType<typeof createRosterImports>;
