import { and, asc, desc, eq, gt, isNotNull, isNull, or, sql, type Placeholder } from 'drizzle-orm';
import type { StudentQuizDetail, StudentQuizSummary, TeacherQuizDetail, TeacherQuizSummary } from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { cacheTags, type ReadCache, type VersionSnapshot } from '../../cache/read-cache.ts';
import { cachedStudentClassIds } from '../accounts/lookups.ts';
import { inStudentClasses } from '../classes/records.ts';
import {
  classes,
  quizAccommodations,
  quizAttempts,
  quizRegrades,
  quizzes,
  students,
  teachers,
} from '../../db/schema.ts';
import { forbidden } from '../../errors.ts';
import type { FileAccess } from '../resources/file-access.ts';
import { accommodationTermsColumns, effectiveDeadlineSql, timingFor } from './accommodations.ts';
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
  GRACE,
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

// A list shows each attempt's state, never its questions or answers (JSON the list would parse for nothing).
const attemptStateColumns = {
  id: quizAttempts.id,
  startedAt: quizAttempts.startedAt,
  endsAt: quizAttempts.endsAt,
  submittedAt: quizAttempts.submittedAt,
  endedBy: quizAttempts.endedBy,
  score: quizAttempts.score,
  accuracy: quizAttempts.accuracy,
  timeTakenSeconds: quizAttempts.timeTakenSeconds,
  essaysAwaiting: quizAttempts.essaysAwaiting,
};

/** The ids of the quizzes of the student's classes and of those the student attempted (may repeat). */
const studentQuizIds = (studentId: Placeholder) =>
  sql`(select ${quizzes.id} from ${quizzes} where ${inStudentClasses(quizzes.classId, studentId)}
    union all
    select ${quizAttempts.quizId} from ${quizAttempts} where ${quizAttempts.studentId} = ${studentId})`;

type StudentListView = 'online' | 'attempted' | undefined;

export function createQuizReading(db: Database, cache: ReadCache, fileAccess: FileAccess, grading: QuizGrading) {
  const imagesFor = imageSignerOf(fileAccess);
  const now = () => new Date();
  const { closeExpiredAttempts, currentAttempt } = grading;

  /**
   * A class's quizzes with the student's own attempt: online = can be taken or resumed now;
   * attempted = submitted. Prepared per view: the statement is long (drizzle spent ~15 % of
   * the request's CPU building it, node --cpu-prof) and PostgreSQL plans it once per connection.
   */
  const studentListQuery = (view: StudentListView) => {
    const moment = sql.placeholder('now');
    const isOnline = and(
      isNull(quizAttempts.submittedAt),
      or(
        and(isNull(quizAttempts.id), gt(effectiveDeadlineSql, moment)),
        gt(sql`${quizAttempts.endsAt} + ${GRACE}`, moment),
      ),
    );
    const filter =
      view === 'online' ? isOnline : view === 'attempted' ? isNotNull(quizAttempts.submittedAt) : undefined;
    // An archived quiz stays only with the students who attempted it (decision 036).
    const visible = or(isNull(quizzes.archivedAt), isNotNull(quizAttempts.id));
    const order =
      view === 'online'
        ? [asc(effectiveDeadlineSql), asc(quizzes.id)]
        : view === 'attempted'
          ? [desc(quizAttempts.submittedAt), asc(quizzes.id)]
          : [desc(quizzes.createdAt), desc(quizzes.id)];
    return (
      db
        .select({
          quiz: quizSummaryColumns,
          authorName: teachers.name,
          className: classes.name,
          attempt: attemptStateColumns,
          accommodation: accommodationTermsColumns,
        })
        .from(quizzes)
        .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
        .innerJoin(classes, eq(classes.id, quizzes.classId))
        .leftJoin(
          quizAttempts,
          and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.studentId, sql.placeholder('studentId'))),
        )
        // The student's own deadline and time (decision 036), by its primary key.
        .leftJoin(
          quizAccommodations,
          and(
            eq(quizAccommodations.quizId, quizzes.id),
            eq(quizAccommodations.studentId, sql.placeholder('studentId')),
          ),
        )
        // The quizzes of the student's classes, and any they attempted: past attempts stay with
        // the student when they leave a class (decision 031). Two indexed reads joined by UNION ALL
        // (quizzes_class_id_deadline_idx per class, quiz_attempts_student_idx), read first as an
        // array so the quizzes are then fetched by id: an OR of the two (and even an IN of the
        // union) made PostgreSQL scan every quiz of the school (EXPLAIN at 20,000 quizzes:
        // 23.7 ms, 20,000 rows read; now 6 ms, the student's 100 by quizzes_pkey).
        .where(and(sql`${quizzes.id} = any(array${studentQuizIds(sql.placeholder('studentId'))})`, visible, filter))
        .orderBy(...order)
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(`quizzes_student_list_${view ?? 'all'}`)
    );
  };
  const studentLists = new Map<StudentListView, ReturnType<typeof studentListQuery>>(
    (['online', 'attempted', undefined] as const).map((view) => [view, studentListQuery(view)]),
  );

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
        async () => {
          await closeExpiredAttempts({ studentId });
          const moment = now();
          const rows = await studentLists.get(view)!.execute({
            studentId,
            now: moment,
            limit: page.limit + 1,
            offset: page.offset,
          });
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
