import { eq } from 'drizzle-orm';
import { DEFAULT_QUIZ_SUBJECT } from '#shared/constants';
import { imageKeysOf, questionCountOf, toStoredQuestions } from '#shared/question-types';
import { totalPointsOf } from '#shared/question-scoring';
import type { NewQuiz, TeacherQuizSummary } from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import { requireTaughtClass } from '../classes/records.ts';
import { quizzes, teachers, type QuizRow, type StoredQuestion } from '../../db/schema.ts';
import { accountRemoved } from '../../errors.ts';
import { notify } from '../notifications/notify.ts';
import { newOpaqueIds } from './attempt-rules.ts';
import { presentTeacherSummary } from './presenters.ts';
import { assertQuizImagesExist } from './quiz-images.ts';
import { quizSummaryColumns, type Queryable } from './quiz-records.ts';
import { isScoreReleased, newQuizTiming } from './review-rules.ts';

/**
 * Authoring: a new quiz, written once here whether a teacher creates it or duplicates one
 * (lifecycle.ts). Its edit, regrade and deletion are in lifecycle.ts.
 */

export type NewQuizRow = {
  title: string;
  teacher: { id: string; subject: string };
  classId: string;
  /** The class's name, as its students' notification shows it. */
  className: string;
  deadline: Date;
  maxTimeMinutes: number;
  review: Pick<QuizRow, 'reviewAnswers' | 'reviewScore'>;
  background: QuizRow['background'];
  questions: StoredQuestion[];
};

/**
 * Inserts a new quiz (created or duplicated) and returns it without its questions (reading back
 * what was just written cost a large quiz more than its insert). A new quiz has no
 * accommodation yet: it closes with its own time (decision 036). Its class's students are
 * notified in the same transaction (decision 059): no quiz, no notification.
 */
export async function insertQuiz(tx: Queryable, row: NewQuizRow): Promise<Omit<QuizRow, 'questions'>> {
  const timing = newQuizTiming(row.deadline, row.maxTimeMinutes);
  const [quiz] = await tx
    .insert(quizzes)
    .values({
      title: row.title,
      subject: row.teacher.subject.trim() || DEFAULT_QUIZ_SUBJECT,
      classId: row.classId,
      ...timing,
      ...row.review,
      // A score shown after submitting counts in the averages at once; otherwise the sweep releases it.
      scoresReleased: isScoreReleased({ ...timing, ...row.review }, new Date()),
      createdByTeacherId: row.teacher.id,
      background: row.background,
      questions: row.questions,
      questionCount: questionCountOf(row.questions),
      totalPoints: totalPointsOf(row.questions),
    })
    .returning(quizSummaryColumns);
  await notify(tx, { studentsOfClass: row.classId }, 'QUIZ_PUBLISHED', {
    quizId: quiz!.id,
    title: row.title,
    className: row.className,
    deadline: row.deadline.toISOString(),
  });
  return quiz!;
}

export function createQuizAuthoring(db: Database, cache: ReadCache) {
  return {
    async createQuiz(teacherId: string, input: NewQuiz): Promise<TeacherQuizSummary> {
      const [teacher] = await db
        .select({ name: teachers.name, subject: teachers.subject })
        .from(teachers)
        .where(eq(teachers.id, teacherId))
        .limit(1);
      if (!teacher) throw accountRemoved();
      // A new quiz's questions and options all get ids drawn here (an id sent with one is an
      // edit's, not a creation's; toStoredQuestions keeps no option id on a creation).
      const questions = toStoredQuestions(
        input.quiz.questions.map(({ _id: _ignored, ...question }) => question),
        newOpaqueIds,
      );
      const { quiz, target } = await db.transaction(async (tx) => {
        // One of the teacher's active classes, checked in the write's own transaction (decision 031).
        const target = await requireTaughtClass(tx, teacherId, input.classId, { mustBeActive: true });
        await assertQuizImagesExist(tx, imageKeysOf(questions));
        const quiz = await insertQuiz(tx, {
          title: input.title,
          teacher: { id: teacherId, subject: teacher.subject },
          classId: target.id,
          className: target.name,
          deadline: new Date(input.deadline),
          maxTimeMinutes: input.maxTime,
          review: { reviewAnswers: input.reviewAnswers, reviewScore: input.reviewScore },
          background: input.quiz.background,
          questions,
        });
        return { quiz, target };
      });
      await cache.changed([cacheTags.classQuizzes(target.id)]);
      return presentTeacherSummary({ quiz, authorName: teacher.name, className: target.name }, 0);
    },
  };
}

export type QuizAuthoring = ReturnType<typeof createQuizAuthoring>;
