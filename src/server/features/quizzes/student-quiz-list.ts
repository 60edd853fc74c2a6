import { eq, inArray, sql } from 'drizzle-orm';
import { QUIZ_LIMITS } from '#shared/quizzes';
import { cacheTags, type ExpiresBy, type ReadCache, type VersionSnapshot } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { classes, quizAccommodations, quizAttempts, quizzes, teachers } from '../../db/schema.ts';
import type { AttemptStateRow } from './presenters.ts';
import { quizSummaryColumns } from './quiz-records.ts';

/**
 * A student's quiz list in two parts (issue 36): the class's part, the same for every student
 * of the class and cached per class, and the student's own part (their attempts and
 * accommodations), read by the page's load in two small indexed statements. The page is
 * then filtered, sorted and cut in memory exactly as the one statement before did it
 * (`student-quiz-list.test.ts` compares them), so a class's 100 students no longer each run
 * the class's 500 quizzes through PostgreSQL once a second.
 *
 * Times are compared in microseconds, as PostgreSQL stores them (a JavaScript Date keeps
 * milliseconds: two quizzes created in the same millisecond would otherwise tie).
 */

export type StudentListView = 'online' | 'attempted' | undefined;

/** Microseconds since 1970 of a timestamp column, exactly (below 2^53 until the year 2255). */
const micros = (column: Parameters<typeof sql>[1]) => sql<number>`(extract(epoch from ${column}) * 1000000)::float8`;

const classPartColumns = {
  quiz: quizSummaryColumns,
  authorName: teachers.name,
  className: classes.name,
  createdAtUs: micros(quizzes.createdAt),
  deadlineUs: micros(quizzes.deadline),
};

const attemptColumns = {
  quizId: quizAttempts.quizId,
  id: quizAttempts.id,
  startedAt: quizAttempts.startedAt,
  endsAt: quizAttempts.endsAt,
  submittedAt: quizAttempts.submittedAt,
  endedBy: quizAttempts.endedBy,
  score: quizAttempts.score,
  accuracy: quizAttempts.accuracy,
  timeTakenSeconds: quizAttempts.timeTakenSeconds,
  essaysAwaiting: quizAttempts.essaysAwaiting,
  endsAtUs: micros(quizAttempts.endsAt),
  submittedAtUs: sql<number | null>`(extract(epoch from ${quizAttempts.submittedAt}) * 1000000)::float8`,
};

const accommodationColumns = {
  quizId: quizAccommodations.quizId,
  studentId: quizAccommodations.studentId,
  extraMinutes: quizAccommodations.extraMinutes,
  extraPercent: quizAccommodations.extraPercent,
  deadline: quizAccommodations.deadline,
  deadlineUs: sql<number | null>`(extract(epoch from ${quizAccommodations.deadline}) * 1000000)::float8`,
};

type ClassQuiz = {
  quiz: typeof quizzes.$inferSelect extends infer Row ? Omit<Row, 'questions'> : never;
  authorName: string;
  className: string;
  createdAtUs: number;
  deadlineUs: number;
};
type OwnAttempt = AttemptStateRow & { quizId: string; id: string; endsAtUs: number; submittedAtUs: number | null };
type OwnAccommodation = {
  quizId: string;
  studentId: string;
  extraMinutes: number | null;
  extraPercent: number | null;
  deadline: Date | null;
  deadlineUs: number | null;
};

/** One row of the page, as the one statement returned it: the quiz with the student's attempt and terms. */
export type StudentListRow = {
  quiz: ClassQuiz['quiz'];
  authorName: string;
  className: string;
  attempt: (AttemptStateRow & { id: string }) | null;
  accommodation: Omit<OwnAccommodation, 'quizId' | 'deadlineUs'> | null;
};

const GRACE_US = QUIZ_LIMITS.graceSeconds * 1_000_000;

export function createStudentQuizList(db: Database, cache: ReadCache) {
  const classPart = db
    .select(classPartColumns)
    .from(quizzes)
    .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
    .innerJoin(classes, eq(classes.id, quizzes.classId))
    .where(eq(quizzes.classId, sql.placeholder('classId')))
    .prepare('quizzes_class_part');
  const ownAttempts = db
    .select(attemptColumns)
    .from(quizAttempts)
    .where(eq(quizAttempts.studentId, sql.placeholder('studentId')))
    .prepare('quizzes_own_attempts');
  const ownAccommodations = db
    .select(accommodationColumns)
    .from(quizAccommodations)
    .where(eq(quizAccommodations.studentId, sql.placeholder('studentId')))
    .prepare('quizzes_own_accommodations');

  /** Every quiz of a class, archived ones included (they stay with those who attempted them). */
  function quizzesOfClass(classId: string, expiresBy: ExpiresBy, snapshot: VersionSnapshot | undefined) {
    return cache.read(
      `class-quiz-part:${classId}`,
      [cacheTags.classQuizzes(classId)],
      async () => (await classPart.execute({ classId })) as ClassQuiz[],
      { snapshot, partOf: expiresBy },
    );
  }

  /** Quizzes attempted in a class the student has left (decision 031): by id, when there are any. */
  async function quizzesById(ids: string[]): Promise<ClassQuiz[]> {
    if (ids.length === 0) return [];
    return db
      .select(classPartColumns)
      .from(quizzes)
      .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
      .innerJoin(classes, eq(classes.id, quizzes.classId))
      .where(inArray(quizzes.id, ids));
  }

  /**
   * The rows of one page (limit + 1 of them, from offset), as the statement of before ordered
   * them: online by the student's own deadline, attempted by submission (newest first), all
   * by creation (newest first); ties by id.
   */
  async function rows(
    input: { studentId: string; classIds: readonly string[]; view: StudentListView; now: Date },
    window: { offset: number; limit: number },
    expiresBy: ExpiresBy,
    snapshot: VersionSnapshot | undefined,
  ): Promise<StudentListRow[]> {
    const [parts, attempts, accommodations] = await Promise.all([
      Promise.all(input.classIds.map((classId) => quizzesOfClass(classId, expiresBy, snapshot))),
      ownAttempts.execute({ studentId: input.studentId }) as Promise<OwnAttempt[]>,
      ownAccommodations.execute({ studentId: input.studentId }) as Promise<OwnAccommodation[]>,
    ]);
    const attemptOf = new Map(attempts.map((attempt) => [attempt.quizId, attempt]));
    const termsOf = new Map(accommodations.map((terms) => [terms.quizId, terms]));
    const listed = new Map<string, ClassQuiz>();
    for (const part of parts) for (const row of part) listed.set(row.quiz.id, row);
    const elsewhere = attempts.filter((attempt) => !listed.has(attempt.quizId)).map((attempt) => attempt.quizId);
    for (const row of await quizzesById(elsewhere)) listed.set(row.quiz.id, row);

    const nowUs = input.now.getTime() * 1000;
    type Candidate = { row: ClassQuiz; attempt: OwnAttempt | undefined; terms: OwnAccommodation | undefined };
    const candidates: Candidate[] = [];
    for (const row of listed.values()) {
      const attempt = attemptOf.get(row.quiz.id);
      // An archived quiz stays only with the students who attempted it (decision 036).
      if (row.quiz.archivedAt !== null && !attempt) continue;
      const terms = termsOf.get(row.quiz.id);
      if (input.view === 'attempted' && attempt?.submittedAtUs == null) continue;
      if (input.view === 'online') {
        if (attempt?.submittedAtUs != null) continue;
        const isOpen = attempt ? attempt.endsAtUs + GRACE_US > nowUs : deadlineUs(row, terms) > nowUs;
        if (!isOpen) continue;
      }
      candidates.push({ row, attempt, terms });
    }
    const byId = (a: Candidate, b: Candidate) =>
      a.row.quiz.id < b.row.quiz.id ? -1 : a.row.quiz.id > b.row.quiz.id ? 1 : 0;
    candidates.sort(
      input.view === 'online'
        ? (a, b) => deadlineUs(a.row, a.terms) - deadlineUs(b.row, b.terms) || byId(a, b)
        : input.view === 'attempted'
          ? (a, b) => b.attempt!.submittedAtUs! - a.attempt!.submittedAtUs! || byId(a, b)
          : (a, b) => b.row.createdAtUs - a.row.createdAtUs || byId(b, a),
    );
    return candidates.slice(window.offset, window.offset + window.limit).map(({ row, attempt, terms }) => ({
      quiz: row.quiz,
      authorName: row.authorName,
      className: row.className,
      attempt: attempt ? attemptState(attempt) : null,
      accommodation: terms
        ? {
            studentId: terms.studentId,
            extraMinutes: terms.extraMinutes,
            extraPercent: terms.extraPercent,
            deadline: terms.deadline,
          }
        : null,
    }));
  }

  return { rows };
}

/** greatest(quiz deadline, own deadline): the student's deadline (decision 036). */
function deadlineUs(row: ClassQuiz, terms: OwnAccommodation | undefined): number {
  const own = terms?.deadlineUs;
  return own != null && own > row.deadlineUs ? own : row.deadlineUs;
}

function attemptState(attempt: OwnAttempt): AttemptStateRow & { id: string } {
  return {
    id: attempt.id,
    startedAt: attempt.startedAt,
    endsAt: attempt.endsAt,
    submittedAt: attempt.submittedAt,
    endedBy: attempt.endedBy,
    score: attempt.score,
    accuracy: attempt.accuracy,
    timeTakenSeconds: attempt.timeTakenSeconds,
    essaysAwaiting: attempt.essaysAwaiting,
  };
}
