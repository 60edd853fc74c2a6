import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { QUIZ_LIMITS } from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { preparedPerDatabase } from '../../db/prepared.ts';
import { isStudentOfClass } from '../classes/records.ts';
import {
  classes,
  quizAttempts,
  quizEssayMarks,
  quizzes,
  teachers,
  type QuizAttemptRow,
  type QuizRow,
  type StoredQuestion,
} from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { FileAccess } from '../resources/file-access.ts';
import { accommodationOf, timingFor } from './accommodations.ts';
import type { AttemptMarks, EssayMarkState, ImageSigner } from './presenters.ts';
import { presentQuizImage } from './quiz-images.ts';

/**
 * The quiz and attempt lookups every quiz module shares (authoring, attempts, reading, grading,
 * lifecycle): who may see a quiz, a student's attempt, a student's own timing. No rules of
 * their own beyond who sees what.
 */

/** Anything that can run queries: the database or an open transaction. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

export type Page = { offset: number; limit: number };
export type ListedPage<T> = { items: T[]; hasMore: boolean };

export const toPage = <T>(rows: T[], limit: number): ListedPage<T> => ({
  items: rows.slice(0, limit),
  hasMore: rows.length > limit,
});

/** The grace after an attempt's end, in SQL. */
export const GRACE = sql.raw(`interval '${QUIZ_LIMITS.graceSeconds} seconds'`);

// Lists never load the questions: a quiz's text can be hundreds of kilobytes.
const { questions: _questions, ...columnsButQuestions } = getTableColumns(quizzes);
export const quizSummaryColumns = columnsButQuestions;

/** Question and option images with addresses signed for `viewerId` (decision 009). */
export const imageSignerOf =
  (fileAccess: FileAccess) =>
  (viewerId: string): ImageSigner =>
  (image) =>
    presentQuizImage(fileAccess, image, viewerId);

// Read by every open, start and submit of an exam: prepared (db/prepared.ts).
const quizById = preparedPerDatabase('quizzes_quiz_by_id', (db) =>
  db
    .select({ quiz: quizzes, authorName: teachers.name, className: classes.name })
    .from(quizzes)
    .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
    .innerJoin(classes, eq(classes.id, quizzes.classId))
    .where(eq(quizzes.id, sql.placeholder('quizId')))
    .limit(1),
);
const attemptOfStudent = preparedPerDatabase('quizzes_attempt_of_student', (db) =>
  db
    .select()
    .from(quizAttempts)
    .where(
      and(eq(quizAttempts.quizId, sql.placeholder('quizId')), eq(quizAttempts.studentId, sql.placeholder('studentId'))),
    )
    .limit(1),
);

export async function findQuiz(tx: Queryable, quizId: string) {
  const [row] = await quizById(tx).execute({ quizId });
  if (!row) throw notFound('This quiz does not exist');
  return row;
}

export async function findAttempt(tx: Queryable, quizId: string, studentId: string): Promise<QuizAttemptRow | null> {
  const [attempt] = await attemptOfStudent(tx).execute({ quizId, studentId });
  return attempt ?? null;
}

/**
 * A student sees the quizzes of their classes, and those they attempted (a class they have
 * left keeps its attempts for review). An archived quiz only the students who attempted it
 * see (decision 036); to anyone else it does not exist.
 */
export async function findQuizForStudent(tx: Queryable, studentId: string, quizId: string) {
  const row = await findQuiz(tx, quizId);
  const attempted = async () => (await findAttempt(tx, quizId, studentId)) !== null;
  if (row.quiz.archivedAt && !(await attempted())) throw notFound('This quiz does not exist');
  if (!(await isStudentOfClass(tx, studentId, row.quiz.classId)) && !(await attempted()))
    throw forbidden('This quiz is for another class');
  return row;
}

/** The quiz as this student sees it: their own deadline and time limit (decision 036). */
export async function withOwnTiming<Row extends { quiz: QuizRow }>(
  tx: Queryable,
  row: Row,
  studentId: string,
): Promise<Row> {
  return { ...row, quiz: timingFor(row.quiz, await accommodationOf(tx, row.quiz.id, studentId)) };
}

/**
 * The essay marks of submitted attempts (decision 046), by attempt then question id: one query,
 * none for a quiz without essays.
 */
export async function essayMarksOf(
  tx: Queryable,
  questions: StoredQuestion[],
  attemptIds: string[],
): Promise<Map<string, AttemptMarks>> {
  const byAttempt = new Map<string, AttemptMarks>();
  if (attemptIds.length === 0 || !questions.some((question) => question.type === 'essay')) return byAttempt;
  const rows = await tx
    .select({
      attemptId: quizEssayMarks.attemptId,
      questionId: quizEssayMarks.questionId,
      points: quizEssayMarks.points,
      comment: quizEssayMarks.comment,
    })
    .from(quizEssayMarks)
    .where(inArray(quizEssayMarks.attemptId, attemptIds));
  for (const row of rows) {
    const marks = byAttempt.get(row.attemptId) ?? new Map<string, EssayMarkState>();
    marks.set(row.questionId, { points: row.points, comment: row.comment });
    byAttempt.set(row.attemptId, marks);
  }
  return byAttempt;
}

/** One attempt's essay marks, for the student's own view (none before it is submitted). */
export async function marksOfOwnAttempt(
  tx: Queryable,
  questions: StoredQuestion[],
  attempt: Pick<QuizAttemptRow, 'id' | 'submittedAt'> | null,
): Promise<AttemptMarks | undefined> {
  if (!attempt?.submittedAt) return undefined;
  return (await essayMarksOf(tx, questions, [attempt.id])).get(attempt.id);
}
