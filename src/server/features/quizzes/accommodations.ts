import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { QUIZ_LIMITS } from '#shared/quizzes';
import { effectiveMinutes, type Accommodation, type AccommodationInput } from '#shared/quiz-accommodations';
import type { Database } from '../../db/client.ts';
import { preparedPerDatabase } from '../../db/prepared.ts';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import { isStudentOfClass, teachesClass } from '../classes/records.ts';
import {
  quizAccommodations,
  quizAttempts,
  quizzes,
  students,
  type QuizAccommodationRow,
  type QuizRow,
} from '../../db/schema.ts';
import { AppError, badRequest, fieldProblem, forbidden, notFound } from '../../errors.ts';
import { byName } from '../../db/name-order.ts';

/**
 * Accommodations (decision 036): one student's extra time (minutes, percent of the limit) and
 * later deadline on a quiz. Who gets what, the timer it gives a starting student, and the
 * quiz's close (quizzes.closes_at) that the answer key and after-the-deadline scores wait for.
 */

type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;
type AccommodationTerms = Pick<QuizAccommodationRow, 'extraMinutes' | 'extraPercent' | 'deadline'>;
type QuizTiming = Pick<QuizRow, 'deadline' | 'maxTimeMinutes'>;

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * What one student gets: the later of the quiz's deadline and their own, and their minutes.
 * The later, not simply theirs: a quiz whose deadline moves past theirs takes them along.
 */
export function timingFor<Quiz extends QuizTiming>(quiz: Quiz, accommodation: AccommodationTerms | null): Quiz {
  if (!accommodation) return quiz;
  const own = accommodation.deadline;
  return {
    ...quiz,
    deadline: own && own > quiz.deadline ? own : quiz.deadline,
    maxTimeMinutes: effectiveMinutes(quiz.maxTimeMinutes, accommodation),
  };
}

/** effectiveMinutes in SQL, for the quiz row `quiz` and the accommodation row `accommodation` (nulls: none). */
const effectiveMinutesSql = (quiz: string, accommodation: string) =>
  sql.raw(`(ceil(${quiz}.max_time_minutes * (100 + coalesce(${accommodation}.extra_percent, 0)) / 100.0)::int
    + coalesce(${accommodation}.extra_minutes, 0))`);

/** A student's effective deadline in SQL, with their accommodation joined (greatest ignores a null). */
export const effectiveDeadlineSql = sql<Date>`greatest(${quizzes.deadline}, ${quizAccommodations.deadline})`;

/**
 * Sets quizzes.closes_at to the moment the last student can still be answering, plus the grace:
 * the latest of the deadline plus the limit, each accommodated student's deadline plus their
 * minutes, and every open attempt's end (a started attempt whose accommodation was taken back
 * keeps running to its end). Call it in the transaction of any change to a quiz's deadline, its
 * limit or its accommodations, after locking the quiz row.
 */
export async function refreshClosesAt(tx: Pick<Database, 'execute'>, quizId: string): Promise<Date> {
  const [row] = rowsOf<{ closes_at: string | Date }>(
    await tx.execute(sql`
      update quizzes as q set closes_at = greatest(
        q.deadline + make_interval(mins => q.max_time_minutes),
        (select max(greatest(q.deadline, a.deadline) + make_interval(mins => ${effectiveMinutesSql('q', 'a')}))
          from quiz_accommodations as a where a.quiz_id = q.id),
        (select max(t.ends_at) from quiz_attempts as t where t.quiz_id = q.id and t.ended_by is null)
      ) + interval '${sql.raw(String(QUIZ_LIMITS.graceSeconds))} seconds'
      where q.id = ${quizId}
      returning q.closes_at`),
  );
  return new Date(row!.closes_at);
}

/**
 * A student's terms as a select reads them, for a left join too (the student's list) and the
 * lookup (the quiz page, the start), so all three hand timingFor the same thing. The key comes
 * first on purpose: drizzle reads a left-joined object as absent when its FIRST column is null,
 * and a later deadline or extra percent alone has no extra minutes (issue 30 point 3: the list
 * showed such a student the quiz's own deadline and time).
 */
export const accommodationTermsColumns = {
  studentId: quizAccommodations.studentId,
  extraMinutes: quizAccommodations.extraMinutes,
  extraPercent: quizAccommodations.extraPercent,
  deadline: quizAccommodations.deadline,
};

export async function accommodationOf(
  tx: Pick<Database, 'select'>,
  quizId: string,
  studentId: string,
): Promise<AccommodationTerms | null> {
  const [row] = await accommodationTerms(tx).execute({ quizId, studentId });
  return row ?? null;
}

/** Read by every open and start of a quiz (db/prepared.ts). */
const accommodationTerms = preparedPerDatabase('quizzes_accommodation_terms', (db) =>
  db
    .select(accommodationTermsColumns)
    .from(quizAccommodations)
    .where(
      and(
        eq(quizAccommodations.quizId, sql.placeholder('quizId')),
        eq(quizAccommodations.studentId, sql.placeholder('studentId')),
      ),
    )
    .limit(1),
);

type LockedQuiz = { id: string; classId: string; deadline: Date; maxTimeMinutes: number; closesAt: Date };

function present(
  quiz: QuizTiming,
  row: QuizAccommodationRow,
  student: { name: string; rollNumber: string },
): Accommodation {
  const timing = timingFor(quiz, row);
  return {
    student: { _id: row.studentId, name: student.name, rollNumber: student.rollNumber },
    extraMinutes: row.extraMinutes,
    extraPercent: row.extraPercent,
    deadline: row.deadline?.toISOString() ?? null,
    effectiveMaxTime: timing.maxTimeMinutes,
    effectiveDeadline: timing.deadline.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createAccommodationsService(db: Database, cache: ReadCache) {
  /** The quiz if the teacher teaches its class: 404 without it, 403 for another class's teacher. */
  async function requireTaughtQuiz(tx: Queryable, teacherId: string, quizId: string, lock: boolean) {
    const query = tx
      .select({
        id: quizzes.id,
        classId: quizzes.classId,
        deadline: quizzes.deadline,
        maxTimeMinutes: quizzes.maxTimeMinutes,
        closesAt: quizzes.closesAt,
      })
      .from(quizzes)
      .where(eq(quizzes.id, quizId));
    const [quiz]: LockedQuiz[] = lock ? await query.for('update') : await query;
    if (!quiz) throw notFound('This quiz does not exist');
    if (!(await teachesClass(tx, teacherId, quiz.classId))) throw forbidden('You do not teach the class of this quiz');
    return quiz;
  }

  /**
   * The rest of a change, in its transaction: the student's open attempt ends at its start
   * plus their minutes now, and the quiz's close follows. The read cache is told after the commit.
   */
  async function applyChange(tx: Queryable, quiz: LockedQuiz, studentId: string, terms: AccommodationTerms | null) {
    const minutes = timingFor(quiz, terms).maxTimeMinutes;
    await tx
      .update(quizAttempts)
      .set({ endsAt: sql`${quizAttempts.startedAt} + make_interval(mins => ${minutes}::int)` })
      .where(
        and(eq(quizAttempts.quizId, quiz.id), eq(quizAttempts.studentId, studentId), isNull(quizAttempts.endedBy)),
      );
    await refreshClosesAt(tx, quiz.id);
  }

  // The student's lists show their deadline and time; every list of the class shows when the key comes.
  const changed = (quiz: LockedQuiz, studentId: string) =>
    cache.changed([cacheTags.classQuizzes(quiz.classId), cacheTags.studentAttempts(studentId)]);

  return {
    async list(teacherId: string, quizId: string): Promise<Accommodation[]> {
      const quiz = await requireTaughtQuiz(db, teacherId, quizId, false);
      const rows = await db
        .select({ row: quizAccommodations, name: students.name, rollNumber: students.rollNumber })
        .from(quizAccommodations)
        .innerJoin(students, eq(students.id, quizAccommodations.studentId))
        .where(eq(quizAccommodations.quizId, quizId))
        .orderBy(asc(byName(students.name)), asc(students.id));
      return rows.map(({ row, name, rollNumber }) => present(quiz, row, { name, rollNumber }));
    },

    async set(teacherId: string, quizId: string, studentId: string, input: AccommodationInput): Promise<Accommodation> {
      await requireTaughtQuiz(db, teacherId, quizId, false);
      const { quiz, row, student } = await db.transaction(async (tx) => {
        // Locked: a start reads the quiz and the accommodation under a share lock (startAttempt).
        const quiz = await requireTaughtQuiz(tx, teacherId, quizId, true);
        if (quiz.closesAt <= new Date()) {
          throw new AppError(
            'ACCOMMODATION_TOO_LATE',
            'This quiz has closed and its answers may have been shown: accommodations can no longer change',
          );
        }
        const [student] = await tx
          .select({ name: students.name, rollNumber: students.rollNumber })
          .from(students)
          .where(eq(students.id, studentId))
          .limit(1);
        if (!student || !(await isStudentOfClass(tx, studentId, quiz.classId)))
          throw notFound('This student is not in the class of this quiz');
        const deadline = input.deadline === null ? null : new Date(input.deadline);
        if (deadline && deadline <= quiz.deadline) {
          const message = 'The deadline must be later than the quiz’s own';
          throw badRequest(`deadline: ${message}`, fieldProblem('deadline', 'DEADLINE_BEFORE_QUIZ', message));
        }
        const terms = { extraMinutes: input.extraMinutes, extraPercent: input.extraPercent, deadline };
        const [row] = await tx
          .insert(quizAccommodations)
          .values({ quizId, studentId, ...terms })
          .onConflictDoUpdate({
            target: [quizAccommodations.quizId, quizAccommodations.studentId],
            set: { ...terms, updatedAt: sql`now()` },
          })
          .returning();
        await applyChange(tx, quiz, studentId, terms);
        return { quiz, row: row!, student };
      });
      await changed(quiz, studentId);
      return present(quiz, row, student);
    },

    async remove(teacherId: string, quizId: string, studentId: string): Promise<{ studentId: string }> {
      await requireTaughtQuiz(db, teacherId, quizId, false);
      const quiz = await db.transaction(async (tx) => {
        const quiz = await requireTaughtQuiz(tx, teacherId, quizId, true);
        const removed = await tx
          .delete(quizAccommodations)
          .where(and(eq(quizAccommodations.quizId, quizId), eq(quizAccommodations.studentId, studentId)))
          .returning({ studentId: quizAccommodations.studentId });
        if (removed.length === 0) throw notFound('This student has no accommodation on this quiz');
        await applyChange(tx, quiz, studentId, null);
        return quiz;
      });
      await changed(quiz, studentId);
      return { studentId };
    },
  };
}

export type AccommodationsService = ReturnType<typeof createAccommodationsService>;
