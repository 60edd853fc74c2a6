import { rosterToCsv, type RosterImportCheck, type RosterImportStatus } from '#shared/roster-import';
import { summariseLatencies, type LatencySummary } from './load.ts';

/**
 * A teacher imports a class list of new students (decision 034) the way the client's import
 * dialog does it (roster-import-steps.tsx, use-roster-import-progress.ts):
 *
 *   check   POST /api/classes/:id/import/check   every row with its problems; nothing written
 *   start   POST /api/classes/:id/import         202 { importId }: hashing goes on after the answer
 *   poll    GET  /api/imports/:id                every 700 ms until done or failed; the read that
 *                                                sees done carries the generated passwords, once
 *
 * The file has no password column (a school's export never has one), so every row gets a
 * generated password: the import hashes one per row and answers all of them on that read.
 */

/** use-roster-import-progress.ts's IMPORT_POLL_MS (a client module: it imports the lingui macro). */
const IMPORT_POLL_MS = 700;

export type RosterImportFigures = {
  rows: number;
  /** From the check's request to the poll that read done (or failed): what the teacher waits. */
  seconds: number;
  /** From the check's request to the first poll that read `writing` (the hashing behind it). */
  secondsToWriting?: number;
  /** The check's own answer and the start's (the start checks the file again). */
  checkMs: number;
  startMs: number;
  polls: LatencySummary;
  state: RosterImportStatus['state'] | 'not started';
  imported: number;
  credentials: number;
  /** Failed calls, a failed import, and a count of students or passwords that is not the file's. */
  errors: number;
  errorSamples: string[];
};

/** A class list of `count` new students, as a school's export writes it: the roster's own headers. */
export function newStudentsCsv(count: number, prefix: string): string {
  return rosterToCsv(
    Array.from({ length: count }, (_, index) => {
      const roll = `${prefix}${String(index + 1).padStart(5, '0')}`;
      return {
        name: `New Student ${index + 1}`,
        rollNumber: roll,
        email: `${roll}@students.school.test`,
        parentName: `Parent of ${roll}`,
        parentEmail: `parent.${roll}@family.test`,
      };
    }),
  );
}

type Envelope<T> = { data: T; message: string };

export async function runRosterImport(options: {
  baseUrl: string;
  teacherToken: string;
  classId: string;
  csv: string;
  rows: number;
}): Promise<RosterImportFigures> {
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (text: string) => {
    errors += 1;
    if (errorSamples.length < 8) errorSamples.push(text);
  };
  /** One call; the envelope's data, or undefined (counted as an error) on anything but a 2xx. */
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown) => {
    const sent = performance.now();
    try {
      const response = await fetch(`${options.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.teacherToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await response.json()) as Envelope<T>;
      const ms = performance.now() - sent;
      if (!response.ok) fail(`${method} ${path}: ${response.status} ${json.message}`);
      return { ms, data: response.ok ? json.data : undefined };
    } catch (error) {
      fail(`${method} ${path}: ${(error as Error).message}`);
      return { ms: performance.now() - sent, data: undefined };
    }
  };

  const began = performance.now();
  const since = () => Math.round(performance.now() - began) / 1000;
  const classPath = `/api/classes/${options.classId}/import`;
  const check = await call<RosterImportCheck>('POST', `${classPath}/check`, { csv: options.csv });
  const figures: RosterImportFigures = {
    rows: options.rows,
    seconds: 0,
    checkMs: Math.round(check.ms),
    startMs: 0,
    polls: summariseLatencies([]),
    state: 'not started',
    imported: 0,
    credentials: 0,
    errors: 0,
    errorSamples,
  };
  const finish = () => ({ ...figures, seconds: since(), errors });
  if (!check.data) return finish();
  if (check.data.rowsWithProblems > 0 || check.data.rows.length !== options.rows) {
    fail(`check: ${check.data.rowsWithProblems} of ${check.data.rows.length} rows have problems`);
    return finish();
  }

  const started = await call<{ importId: string }>('POST', classPath, { csv: options.csv });
  figures.startMs = Math.round(started.ms);
  if (!started.data) return finish();

  const pollMs: number[] = [];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    const poll = await call<RosterImportStatus>('GET', `/api/imports/${started.data.importId}`);
    pollMs.push(poll.ms);
    figures.polls = summariseLatencies(pollMs);
    if (!poll.data) return finish();
    figures.state = poll.data.state;
    if (poll.data.state === 'writing' || poll.data.state === 'done') figures.secondsToWriting ??= since();
    if (poll.data.state === 'failed') {
      fail(`import failed: ${poll.data.error ?? 'no reason given'}`);
      return finish();
    }
    if (poll.data.state === 'done') {
      figures.imported = poll.data.imported ?? 0;
      figures.credentials = poll.data.credentials?.length ?? 0;
      if (figures.imported !== options.rows || figures.credentials !== options.rows)
        fail(`done with ${figures.imported} students and ${figures.credentials} passwords of ${options.rows} rows`);
      return finish();
    }
  }
}
