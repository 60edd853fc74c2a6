import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { StudentQuizDetail, StudentQuizSummary, TeacherQuizDetail, TeacherQuizSummary } from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { cacheTags, type ReadCache, type VersionSnapshot } from '../../cache/read-cache.ts';
import { cachedStudentClassIds } from '../accounts/lookups.ts';
import { classes, quizAttempts, quizRegrades, quizzes, students, teachers } from '../../db/schema.ts';
import { forbidden } from '../../errors.ts';
import type { FileAccess } from '../resources/file-access.ts';
import { timingFor } from './accommodations.ts';
import { createStudentQuizList } from './student-quiz-list.ts';
import type { QuizGrading } from './grading.ts';
import {
  presentStudentDetail,
  presentStudentSummary,
  presentTeacherDetail,
  presentTeacherSummary,
} from './presenters.ts';
import {
  essayMarksOf,
  findQuiz,
  findQuizForStudent,
  marksOfOwnAttempt,
  imageSignerOf,
  quizSummaryColumns,
  toPage,
  withOwnTiming,
  type ListedPage,
  type Page,
} from './quiz-records.ts';

/**
 * Reading quizzes: the lists (a teacher's own, a student's class quizzes with their attempt)
 * and one quiz as its teacher (analytics, with the key) or a student (their own view) sees it.
 * An attempt whose time ran out is closed before anyone reads it (grading).
 */

const submittedCount = sql<number>`(select count(*)::int from ${quizAttempts}
  where ${quizAttempts.quizId} = ${quizzes.id} and ${quizAttempts.submittedAt} is not null)`;

export function createQuizReading(db: Database, cache: ReadCache, fileAccess: FileAccess, grading: QuizGrading) {
  const imagesFor = imageSignerOf(fileAccess);
  const now = () => new Date();
  const { closeExpiredAttempts, currentAttempt } = grading;

  const studentList = createStudentQuizList(db, cache);

  return {
    /** The teacher's own quizzes, newest first: one query. */
    async listForTeacher(teacherId: string, page: Page): Promise<ListedPage<TeacherQuizSummary>> {
      const rows = await db
        .select({
          quiz: quizSummaryColumns,
          authorName: teachers.name,
          className: classes.name,
          attemptCount: submittedCount,
        })
        .from(quizzes)
        .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
        .innerJoin(classes, eq(classes.id, quizzes.classId))
        .where(eq(quizzes.createdByTeacherId, teacherId))
        .orderBy(desc(quizzes.createdAt), desc(quizzes.id))
        .limit(page.limit + 1)
        .offset(page.offset);
      const listed = toPage(rows, page.limit);
      return { ...listed, items: listed.items.map((row) => presentTeacherSummary(row, row.attemptCount)) };
    },

    /**
     * The quizzes of the student's class with the student's own attempt:
     * online = can be taken or resumed now; attempted = submitted. Kept a second by the read
     * cache, and only while neither the class's quizzes nor the student's attempts change.
     */
    async listForStudent(
      studentId: string,
      view: 'online' | 'attempted' | undefined,
      page: Page,
      snapshot?: VersionSnapshot,
    ): Promise<ListedPage<StudentQuizSummary>> {
      const classIds = await cachedStudentClassIds(cache, db, studentId, snapshot);
      const key = `quiz-list:${studentId}:${view ?? 'all'}:${page.offset}:${page.limit}`;
      const tags = [
        ...classIds.map(cacheTags.classQuizzes),
        cacheTags.studentClasses(studentId),
        cacheTags.studentAttempts(studentId),
      ];
      return cache.read(
        key,
        tags,
        async (expiresBy) => {
          await closeExpiredAttempts({ studentId });
          const moment = now();
          // The class's quizzes from the class's entry, the student's attempts and terms read now.
          const rows = await studentList.rows(
            { studentId, classIds, view, now: moment },
            { offset: page.offset, limit: page.limit + 1 },
            expiresBy,
            snapshot,
          );
          const listed = toPage(rows, page.limit);
          return {
            ...listed,
            items: listed.items.map((row) =>
              presentStudentSummary({ ...row, quiz: timingFor(row.quiz, row.accommodation) }, row.attempt, moment),
            ),
          };
        },
        { snapshot },
      );
    },

    /** Analytics: the quiz with its key and every submitted attempt. Own quizzes only. */
    async getForTeacher(teacherId: string, quizId: string): Promise<TeacherQuizDetail> {
      const row = await findQuiz(db, quizId);
      if (row.quiz.createdByTeacherId !== teacherId)
        throw forbidden('Only the teacher who created this quiz can see it');
      await closeExpiredAttempts({ quizId });
      const attempts = await db
        .select({ attempt: quizAttempts, name: students.name, rollNumber: students.rollNumber })
        .from(quizAttempts)
        .innerJoin(students, eq(students.id, quizAttempts.studentId))
        .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.submittedAt)))
        .orderBy(asc(quizAttempts.submittedAt), asc(quizAttempts.id));
      const [started] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(quizAttempts)
        .where(eq(quizAttempts.quizId, quizId));
      const regrades = await db
        .select({
          regradedAt: quizRegrades.regradedAt,
          attemptsChanged: quizRegrades.attemptsChanged,
          teacherName: teachers.name,
        })
        .from(quizRegrades)
        .leftJoin(teachers, eq(teachers.id, quizRegrades.teacherId))
        .where(eq(quizRegrades.quizId, quizId))
        .orderBy(asc(quizRegrades.regradedAt), asc(quizRegrades.id));
      const marks = await essayMarksOf(
        db,
        row.quiz.questions,
        attempts.map(({ attempt }) => attempt.id),
      );
      return presentTeacherDetail(
        row,
        attempts,
        imagesFor(teacherId),
        { attemptsStarted: started?.count ?? 0, regrades },
        marks,
      );
    },

    async getForStudent(studentId: string, quizId: string): Promise<StudentQuizDetail> {
      const row = await findQuizForStudent(db, studentId, quizId);
      const attempt = await currentAttempt(quizId, studentId);
      return presentStudentDetail(
        await withOwnTiming(db, row, studentId),
        imagesFor(studentId),
        attempt,
        now(),
        await marksOfOwnAttempt(db, row.quiz.questions, attempt),
      );
    },
  };
}

export type QuizReading = ReturnType<typeof createQuizReading>;
