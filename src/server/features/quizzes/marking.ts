import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { scoreAttempt } from '#shared/question-scoring';
import type { EssayMarkInput, EssayToMark, MarkingView } from '#shared/quiz-marking';
import type { Database } from '../../db/client.ts';
import type { ReadCache } from '../../cache/read-cache.ts';
import { teachesClass } from '../classes/records.ts';
import { quizAttempts, quizEssayMarks, quizzes, students, teachers, type StoredQuestion } from '../../db/schema.ts';
import { badRequest, conflict, fieldProblem, forbidden, notFound } from '../../errors.ts';
import { lockStudents, marksOfAttempt, recomputeAverages, scoresChangedTags } from './grading.ts';
import { toPage, type ListedPage, type Page, type Queryable } from './quiz-records.ts';

/**
 * Marking essays by hand (decision 046). Any teacher of the quiz's class lists its essays and
 * marks them; the token says who, the class's teachers say whether they may. A mark is one
 * transaction, in every writer's lock order (quizzes, students, attempts: grading.ts): the quiz
 * shared (an edit's regrade holds it for update), the student, the attempt, then the essay's row
 * by its version, so two teachers marking at once never lose a mark, and the attempt's total and
 * the student's averages are recomputed from every mark under those locks.
 */

type MarkedQuiz = { id: string; classId: string; questions: StoredQuestion[] };

/** The quiz if the teacher teaches its class: 404 without it, 403 for another class's teacher. */
async function requireMarkableQuiz(tx: Queryable, teacherId: string, quizId: string, lock: boolean) {
  const query = tx
    .select({ id: quizzes.id, classId: quizzes.classId, questions: quizzes.questions })
    .from(quizzes)
    .where(eq(quizzes.id, quizId));
  const [quiz]: MarkedQuiz[] = lock ? await query.for('share') : await query;
  if (!quiz) throw notFound('This quiz does not exist');
  if (!(await teachesClass(tx, teacherId, quiz.classId))) throw forbidden('You do not teach the class of this quiz');
  return quiz;
}

const essayColumns = {
  attemptId: quizEssayMarks.attemptId,
  questionId: quizEssayMarks.questionId,
  submittedAt: quizEssayMarks.submittedAt,
  points: quizEssayMarks.points,
  comment: quizEssayMarks.comment,
  markedAt: quizEssayMarks.markedAt,
  version: quizEssayMarks.version,
  markerName: teachers.name,
  studentId: students.id,
  studentName: students.name,
  rollNumber: students.rollNumber,
  // Only this essay's text leaves the attempt's answers, not the rest of them.
  text: sql<string>`coalesce(${quizAttempts.answers} ->> ${quizEssayMarks.questionId}, '')`,
};
type EssayRow = {
  attemptId: string;
  questionId: string;
  submittedAt: Date;
  points: number | null;
  comment: string | null;
  markedAt: Date | null;
  version: number;
  markerName: string | null;
  studentId: string;
  studentName: string;
  rollNumber: string;
  text: string;
};

function presentEssay(questions: StoredQuestion[], row: EssayRow): EssayToMark {
  const index = questions.findIndex((question) => question._id === row.questionId);
  const question = questions[index]!;
  const guidance = question.type === 'essay' ? question.guidance : undefined;
  return {
    attemptId: row.attemptId,
    question: {
      _id: question._id,
      number: index + 1,
      question_text: question.question_text,
      points: question.points,
      ...(guidance ? { guidance } : {}),
    },
    student: { _id: row.studentId, name: row.studentName, rollNumber: row.rollNumber },
    submittedAt: row.submittedAt.toISOString(),
    text: row.text,
    mark:
      row.points === null || row.markedAt === null
        ? null
        : {
            points: row.points,
            comment: row.comment ?? '',
            markedAt: row.markedAt.toISOString(),
            markedBy: row.markerName,
          },
    version: row.version,
  };
}

const essaysQuery = (tx: Queryable) =>
  tx
    .select(essayColumns)
    .from(quizEssayMarks)
    .innerJoin(quizAttempts, eq(quizAttempts.id, quizEssayMarks.attemptId))
    .innerJoin(students, eq(students.id, quizAttempts.studentId))
    .leftJoin(teachers, eq(teachers.id, quizEssayMarks.markedBy));

export function createMarkingService(db: Database, cache: ReadCache) {
  return {
    /**
     * A quiz's essays, awaiting marking or marked: question by question in the quiz's order, then
     * by submission (oldest first), as quiz_essay_marks_awaiting_idx (or _quiz_idx) holds them.
     */
    async list(teacherId: string, quizId: string, view: MarkingView, page: Page): Promise<ListedPage<EssayToMark>> {
      const quiz = await requireMarkableQuiz(db, teacherId, quizId, false);
      const rows = await essaysQuery(db)
        .where(
          and(
            eq(quizEssayMarks.quizId, quizId),
            view === 'awaiting' ? isNull(quizEssayMarks.points) : isNotNull(quizEssayMarks.points),
          ),
        )
        .orderBy(
          asc(quizEssayMarks.quizId),
          asc(quizEssayMarks.position),
          asc(quizEssayMarks.submittedAt),
          asc(quizEssayMarks.attemptId),
        )
        .limit(page.limit + 1)
        .offset(page.offset);
      const listed = toPage(rows, page.limit);
      return { ...listed, items: listed.items.map((row) => presentEssay(quiz.questions, row)) };
    },

    /**
     * Gives an essay its points and comment (or changes them), in one transaction: refused with
     * 409 MARK_CHANGED when another teacher marked it since `version`, with 400 when the points
     * are above the question's; either way nothing changes. The attempt's score and its count of
     * essays awaiting follow, and the student's averages are recomputed (the attempt counts in
     * them once nothing awaits marking, decision 046).
     */
    async mark(
      teacherId: string,
      quizId: string,
      attemptId: string,
      questionId: string,
      input: Required<Pick<EssayMarkInput, 'points' | 'version'>> & { comment: string },
    ): Promise<EssayToMark> {
      const { studentId, essay, questions } = await db.transaction(async (tx) => {
        const quiz = await requireMarkableQuiz(tx, teacherId, quizId, true);
        const question = quiz.questions.find((candidate) => candidate._id === questionId);
        const [attempt] = await tx
          .select({ studentId: quizAttempts.studentId })
          .from(quizAttempts)
          .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.quizId, quizId)));
        if (!attempt || question?.type !== 'essay') throw notFound('This essay does not exist');
        if (input.points > question.points) {
          const message = `At most ${question.points} points: what the question is worth`;
          throw badRequest(
            `points: ${message}`,
            fieldProblem('points', 'TOO_BIG', message, { maximum: question.points, inclusive: true }),
          );
        }
        // Every writer's order: the quiz (shared, above), the student, then the attempt.
        await lockStudents(tx, [attempt.studentId]);
        const [locked] = await tx
          .select({ answers: quizAttempts.answers })
          .from(quizAttempts)
          .where(eq(quizAttempts.id, attemptId))
          .for('update');
        const marked = await tx
          .update(quizEssayMarks)
          .set({
            points: input.points,
            comment: input.comment === '' ? null : input.comment,
            markedBy: teacherId,
            markedAt: sql`now()`,
            version: sql`${quizEssayMarks.version} + 1`,
          })
          .where(
            and(
              eq(quizEssayMarks.attemptId, attemptId),
              eq(quizEssayMarks.questionId, questionId),
              eq(quizEssayMarks.version, input.version),
            ),
          )
          .returning({ version: quizEssayMarks.version });
        if (marked.length === 0) {
          const [exists] = await tx
            .select({ version: quizEssayMarks.version })
            .from(quizEssayMarks)
            .where(and(eq(quizEssayMarks.attemptId, attemptId), eq(quizEssayMarks.questionId, questionId)));
          if (!exists) throw notFound('This essay does not exist');
          throw conflict('MARK_CHANGED', 'Another teacher marked this essay since you opened it: nothing changed');
        }
        // The total from every mark, read under the attempt's lock: a mark of another essay of
        // the same attempt committed before it is counted, one after it waits for this one.
        const marks = await marksOfAttempt(tx, attemptId);
        const { score, accuracy } = scoreAttempt(quiz.questions, locked!.answers, marks);
        await tx
          .update(quizAttempts)
          .set({
            score,
            accuracy,
            essaysAwaiting: sql`(select count(*)::int from ${quizEssayMarks}
              where ${quizEssayMarks.attemptId} = ${attemptId} and ${quizEssayMarks.points} is null)`,
          })
          .where(eq(quizAttempts.id, attemptId));
        await recomputeAverages(tx, [attempt.studentId]);
        const [essay] = await essaysQuery(tx).where(
          and(eq(quizEssayMarks.attemptId, attemptId), eq(quizEssayMarks.questionId, questionId)),
        );
        return { studentId: attempt.studentId, essay: essay!, questions: quiz.questions };
      });
      await cache.changed(scoresChangedTags([studentId]));
      return presentEssay(questions, essay);
    },
  };
}

export type MarkingService = ReturnType<typeof createMarkingService>;
