import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StudentQuizDetail, TeacherQuizDetail } from '#shared/quizzes';
import { openDatabase, pgliteDirectory, type DatabaseHandle } from './db/client.ts';
import { buildNewQuiz, buildStudentRegistration, buildSchoolSetup } from './testing/factories.ts';
import { createScratchDatabase } from './testing/postgres-databases.ts';
import { callJson, startServerProcess, type ServerProcess } from './testing/server-process.ts';
import { patience } from './testing/patience.ts';

/**
 * Issue 9, durability: the real server process killed with SIGKILL in the middle of a
 * burst of quiz submissions, then started again on the same data. Every submission that
 * was answered 2xx must be there, scored, and counted once in its student's aggregates;
 * the others may be there or not, but whole. PGlite always; PostgreSQL with TEST_DATABASE_URL.
 */
const STUDENTS = 16;
const QUIZZES = 6;
const QUESTIONS = 5;
/** The kill comes right after this many submissions were answered 2xx (of STUDENTS × QUIZZES). */
const KILL_AFTER_ACKNOWLEDGED = 30;
/** Requests in flight at once while seeding: the server hashes a password per registration and login. */
const SEEDING_CONCURRENCY = 6;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Engine = {
  name: string;
  /** The server's environment for this engine, plus how to reach its database directly. */
  prepare(): Promise<{ environment: Record<string, string>; openDirectly(): Promise<DatabaseHandle> }>;
};

const temporaryDataDir = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-durability-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  return path.join(root, 'data');
};

const engines: Engine[] = [
  {
    name: 'PGlite',
    async prepare() {
      const dataDir = temporaryDataDir();
      return {
        environment: { DATA_DIR: dataDir },
        openDirectly: () => openDatabase({ kind: 'pglite', dataDir: pgliteDirectory(dataDir), isMigrated: false }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    async prepare() {
      const database = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'studyhall_durability');
      cleanups.push(() => database.drop());
      return {
        // DATA_DIR keeps the generated JWT secret, so tokens survive the restart as they would in production.
        environment: { DATA_DIR: temporaryDataDir(), DATABASE_URL: database.url },
        openDirectly: () => openDatabase({ kind: 'postgres', url: database.url }),
      };
    },
  },
];

/** Runs `work` over `items` with at most `limit` at a time. */
async function inPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

type Submission = {
  studentIndex: number;
  quizId: string;
  token: string;
  body: { quiz: { _id: string; questions: { _id: string; selectedOption: string }[] } };
  expectedScore: number;
  expectedAccuracy: number;
};

/** A class (its own name, so nothing else counts), QUIZZES quizzes, STUDENTS students who started all of them. */
async function seedClass(
  server: ServerProcess,
): Promise<{ teacherToken: string; classId: string; submissions: Submission[] }> {
  const call = (method: string, url: string, options?: { token?: string; body?: unknown }) =>
    callJson(server.baseUrl, method, url, options);
  const className = `D${Date.now().toString(36)}`;
  const teacher = buildSchoolSetup(); // the school's first teacher (decision 030)
  expect((await call('POST', '/api/school/setup', { body: teacher })).status).toBe(201);
  const teacherToken = (await call('POST', '/api/teacher/login', { body: teacher })).body.data as string;
  const made = await call('POST', '/api/classes', { token: teacherToken, body: { name: className } });
  expect(made.status).toBe(201);
  const classCode = made.body.data.joinCode as string;

  const quizzes: TeacherQuizDetail[] = [];
  for (let index = 0; index < QUIZZES; index += 1) {
    const questions = Array.from({ length: QUESTIONS }, (_, number) => ({
      question_text: `Question ${number + 1} of quiz ${index + 1}`,
      options: ['right', 'wrong', 'also wrong'],
      answer: 'right',
    }));
    const created = await call('POST', '/api/teacher/add-quiz', {
      token: teacherToken,
      body: buildNewQuiz({
        classId: made.body.data._id as string,
        quiz: { background: buildNewQuiz().quiz.background, questions },
      }),
    });
    expect(created.status).toBe(201);
    quizzes.push((await call('GET', `/api/quiz/${created.body.data._id}`, { token: teacherToken })).body.data);
  }

  const studentTokens = await inPool(
    Array.from({ length: STUDENTS }, (_, index) => index),
    SEEDING_CONCURRENCY,
    async () => {
      const student = buildStudentRegistration({ classCode });
      expect((await call('POST', '/api/student/register', { body: student })).status).toBe(201);
      const login = await call('POST', '/api/student/login', { body: student });
      expect(login.status).toBe(200);
      return login.body.data as string;
    },
  );

  const submissions: Submission[] = [];
  studentTokens.forEach((token, studentIndex) => {
    quizzes.forEach((quiz, quizIndex) => {
      // A different, known number of right answers per (student, quiz): 0 to QUESTIONS.
      const rightAnswers = (studentIndex + quizIndex) % (QUESTIONS + 1);
      submissions.push({
        studentIndex,
        quizId: quiz._id,
        token,
        body: {
          quiz: {
            _id: quiz._id,
            questions: quiz.quiz.questions.map((question, number) => ({
              _id: question._id,
              selectedOption: number < rightAnswers ? question.options!.find((option) => option.correct)!._id : 'wrong',
            })),
          },
        },
        expectedScore: rightAnswers,
        expectedAccuracy: Math.round((rightAnswers * 10_000) / QUESTIONS) / 100,
      });
    });
  });
  await inPool(submissions, SEEDING_CONCURRENCY, async (submission) => {
    const started = await call('POST', `/api/quiz/${submission.quizId}/start`, { token: submission.token, body: {} });
    expect(started.status).toBe(200);
  });
  return { teacherToken, classId: made.body.data._id as string, submissions };
}

type BurstOutcome = { submission: Submission; status: number | undefined };

/** A connected socket to the server, idle until the burst writes its request. */
function connectTo(baseUrl: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Every submission at once; SIGKILL as soon as KILL_AFTER_ACKNOWLEDGED of them have been
 * answered 2xx. The connections are opened first and the requests written in one go, so
 * they all reach the server together and most are inside it, at every stage of the
 * submission, when the kill lands (with fetch they trickled in one by one and the server
 * had one or two at a time). A status counts as soon as its line arrives: the server
 * sends it only after the commit, so a 2xx whose body never came is still a promise kept.
 */
async function burstThenKill(server: ServerProcess, submissions: Submission[]): Promise<BurstOutcome[]> {
  const sockets = await Promise.all(submissions.map(() => connectTo(server.baseUrl)));
  let acknowledged = 0;
  const outcomes = submissions.map(
    (submission, index) =>
      new Promise<BurstOutcome>((resolve) => {
        const socket = sockets[index]!;
        let received = '';
        let status: number | undefined;
        socket.on('data', (chunk: Buffer) => {
          if (status !== undefined) return;
          received += chunk.toString('latin1');
          const statusLine = /^HTTP\/1\.1 (\d{3}) /.exec(received);
          if (!statusLine) return;
          status = Number(statusLine[1]);
          if (status < 300 && ++acknowledged === KILL_AFTER_ACKNOWLEDGED) server.kill();
        });
        socket.on('error', () => {}); // reset by the kill: the outcome is what arrived before
        socket.once('close', () => resolve({ submission, status }));
      }),
  );
  for (const [index, submission] of submissions.entries()) {
    const body = JSON.stringify(submission.body);
    sockets[index]!.write(
      `POST /api/student/update-student HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
        `Authorization: Bearer ${submission.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  const results = await Promise.all(outcomes);
  await server.exited;
  return results;
}

const roundedTo2 = (value: number) => Math.round(value * 100) / 100;

describe('a SIGKILL during a burst of quiz submissions', () => {
  for (const engine of engines) {
    const isAvailable = engine.name === 'PGlite' || !!process.env.TEST_DATABASE_URL;
    it.skipIf(!isAvailable)(
      `${engine.name}: after a restart every acknowledged submission is there, scored and counted once; nothing is half-written`,
      { timeout: patience(120_000) },
      async () => {
        const { environment, openDirectly } = await engine.prepare();
        const first = await startServerProcess(environment);
        cleanups.push(() => void first.kill());
        const { teacherToken, classId, submissions } = await seedClass(first);

        const outcomes = await burstThenKill(first, submissions);
        expect(first.child.signalCode).toBe('SIGKILL');
        const acknowledged = outcomes.filter((outcome) => outcome.status !== undefined && outcome.status < 300);
        const unanswered = outcomes.filter((outcome) => outcome.status === undefined);
        // Mid-burst: some were acknowledged, some never answered; and nothing was refused or failed.
        expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
        expect(unanswered.length).toBeGreaterThan(0);
        expect(acknowledged.length + unanswered.length).toBe(submissions.length);
        console.info(
          `${engine.name}: killed with ${acknowledged.length} of ${submissions.length} submissions acknowledged, ${unanswered.length} unanswered`,
        );

        const second = await startServerProcess(environment);
        cleanups.push(() => void second.kill());
        const call = (method: string, url: string, options?: { token?: string; body?: unknown }) =>
          callJson(second.baseUrl, method, url, options);

        // Through the API: each attempt is either submitted with its right score, or still open.
        const submittedScores = new Map<number, { score: number; accuracy: number }[]>();
        const isSubmitted = new Map<Submission, boolean>();
        for (const { submission } of outcomes) {
          const seen = await call('GET', `/api/quiz/${submission.quizId}`, { token: submission.token });
          expect(seen.status).toBe(200);
          const attempt = (seen.body.data as StudentQuizDetail).attempt!;
          if (attempt.status === 'submitted') {
            expect(attempt.score).toBe(submission.expectedScore);
            expect(Number(attempt.accuracy)).toBe(submission.expectedAccuracy);
            const scores = submittedScores.get(submission.studentIndex) ?? [];
            scores.push({ score: attempt.score!, accuracy: Number(attempt.accuracy) });
            submittedScores.set(submission.studentIndex, scores);
          } else {
            expect(attempt.status).toBe('in-progress');
          }
          isSubmitted.set(submission, attempt.status === 'submitted');
        }
        for (const { submission } of acknowledged) expect(isSubmitted.get(submission)).toBe(true);
        const committedUnanswered = unanswered.filter(({ submission }) => isSubmitted.get(submission)).length;
        console.info(`${engine.name}: after the restart, ${committedUnanswered} of the unanswered submissions were in`);

        // The leaderboard's aggregates equal what the attempts say: each counted exactly once.
        const leaderboard = await call('GET', `/api/get-students?classId=${classId}&limit=100`, {
          token: teacherToken,
        });
        expect(leaderboard.status).toBe(200);
        const studentIdOf = new Map<number, string>();
        for (const { submission } of outcomes) {
          const profile = await call('POST', '/api/student/get-student-by-id', { token: submission.token, body: {} });
          studentIdOf.set(submission.studentIndex, profile.body.data._id);
        }
        for (const [studentIndex, studentId] of studentIdOf) {
          const scores = submittedScores.get(studentIndex) ?? [];
          const row = (leaderboard.body.data as { _id: string; [key: string]: number | string }[]).find(
            (entry) => entry._id === studentId,
          );
          if (scores.length === 0) {
            expect(row).toBeUndefined(); // ranked only after a first attempt
            continue;
          }
          const total = scores.reduce((sum, entry) => sum + entry.score, 0);
          const accuracy = scores.reduce((sum, entry) => sum + entry.accuracy, 0);
          expect(row).toMatchObject({
            quizzesAttempted: scores.length,
            totalScore: total,
            averageScore: roundedTo2(total / scores.length),
            averageAccuracy: roundedTo2(accuracy / scores.length),
          });
        }

        // A client retrying what got no answer is told the truth: accepted once, or already submitted.
        for (const { submission } of unanswered) {
          const retried = await call('POST', '/api/student/update-student', {
            token: submission.token,
            body: submission.body,
          });
          expect(retried.status).toBe(isSubmitted.get(submission) ? 409 : 200);
        }
        expect(await second.stop()).toBe(0);

        // In the database itself: no attempt closed without its result, no aggregate off its attempts.
        const database = await openDirectly();
        cleanups.push(() => database.close());
        const rows = async (statement: string) =>
          ((await database.db.execute(statement)) as { rows: Record<string, unknown>[] }).rows;
        expect(
          await rows(`select id from quiz_attempts
            where (submitted_at is null) <> (score is null) or (submitted_at is null) <> (accuracy is null)
               or (submitted_at is null) <> (time_taken_seconds is null) or (submitted_at is null) <> (ended_by is null)`),
        ).toEqual([]);
        expect(
          await rows(`select s.id from students s
            left join (select student_id, count(*)::int as attempted, sum(score)::float8 as total,
                              round(avg(score), 2)::float8 as average_score, round(avg(accuracy), 2)::float8 as average_accuracy
                       from quiz_attempts where submitted_at is not null group by student_id) a on a.student_id = s.id
            where s.quizzes_attempted <> coalesce(a.attempted, 0) or s.total_score <> coalesce(a.total, 0)
               or s.average_score <> coalesce(a.average_score, 0) or s.average_accuracy <> coalesce(a.average_accuracy, 0)`),
        ).toEqual([]);
        const [{ submitted }] = (await rows(
          `select count(*)::int as submitted from quiz_attempts a join class_students cs on cs.student_id = a.student_id
           where cs.class_id = '${classId}' and a.submitted_at is not null`,
        )) as [{ submitted: number }];
        expect(submitted).toBe(submissions.length); // after the retries, every one exactly once
      },
    );
  }
});
