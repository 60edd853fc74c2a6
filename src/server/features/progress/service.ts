import { and, eq, inArray, isNotNull, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { UserRole } from '#shared/constants';
import type { LeaderboardEntry, StudentStatistics } from '#shared/progress';
import { cacheTags, type ReadCache, type VersionSnapshot } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { cachedStudentClassIds } from '../accounts/lookups.ts';
import { classNamesOf, inClassStudents } from '../classes/records.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { quizAttempts, quizzes, students } from '../../db/schema.ts';
import { accountRemoved, forbidden } from '../../errors.ts';
import { reviewOf } from '../quizzes/review-rules.ts';
import {
  presentLeaderboardEntry,
  presentStudentStatistics,
  type LeaderboardRow,
  type StatisticsRow,
} from './presenters.ts';

export type Page = { offset: number; limit: number };
export type ListedPage<T> = { items: T[]; hasMore: boolean };

/** Which leaderboard to read (one class, by its id, or all) and which of its rows to show. */
export type LeaderboardFilter = { classId?: string | undefined; search?: string | undefined };

/** Both drivers (node-postgres, PGlite) answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Best average first; equal averages by name, then id, so pages never overlap (decision 027).
 * The leaderboard indexes are in this order. Of the students table, or of a subquery of its rows.
 */
const leaderboardOrder = (row: { averageScore: SQLWrapper; name: SQLWrapper; id: SQLWrapper }) =>
  sql`${row.averageScore} desc nulls last, ${row.name}, ${row.id}`;
const LEADERBOARD_ORDER = leaderboardOrder(students);

/**
 * Standard competition ranking (1, 1, 3): equal averages share a rank, the next rank counts
 * everyone above, so it is counted right over any head of the board in LEADERBOARD_ORDER.
 */
const leaderboardRank = (averageScore: SQLWrapper) =>
  sql<number>`rank() over (order by ${averageScore} desc nulls last)::int`;
const LEADERBOARD_RANK = leaderboardRank(students.averageScore);

/** What a leaderboard row shows, rounded to 2 decimals once here so every screen agrees. */
const rounded = (column: SQLWrapper) => sql<number>`round(${column}::numeric, 2)::float8`;

/**
 * One page of the leaderboard without a search: ranked students only (quizzes_attempted > 0,
 * the partial indexes' predicate, written as a literal so a prepared plan can use them), best
 * average first, ties by name then id so pages never overlap.
 *
 * The head of the leaderboard down to the page's end (`end` = offset + rows) is walked from
 * students_leaderboard_idx in its own order (average_score DESC NULLS LAST, name, id) and cut by
 * its LIMIT; the ranks are counted over that head (everyone above a student is in it, so a rank
 * counted there is the rank in the whole board), then the offset drops the rows before the page,
 * and only the page's rows get their class names and rounding. Ranking in the same statement as
 * the walk made PostgreSQL sort every tie group the page reaches by name and id after the window
 * (its rows are known sorted by the window's key only): with 3,093 students tied at the top of
 * 100,000, every first page sorted 3,093 rows (10 ms instead of 0.5). Values or placeholders (the
 * service prepares it).
 */
function leaderboardPageQuery(
  db: Database,
  scope: {
    classId?: string | Placeholder | undefined;
    end: number | Placeholder;
    offset: number | Placeholder;
  },
) {
  const head = db
    .select({
      id: students.id,
      name: students.name,
      averageScore: students.averageScore,
      averageAccuracy: students.averageAccuracy,
      totalScore: students.totalScore,
      quizzesAttempted: students.quizzesAttempted,
    })
    .from(students)
    .where(
      and(
        sql`${students.quizzesAttempted} > 0`,
        // The class's members today (decision 031): a semi-join on class_students' primary key.
        scope.classId === undefined ? undefined : inClassStudents(students.id, scope.classId),
      ),
    )
    .orderBy(LEADERBOARD_ORDER)
    .limit(scope.end)
    .as('head');
  const ranked = db
    .select({
      id: head.id,
      name: head.name,
      averageScore: head.averageScore,
      averageAccuracy: head.averageAccuracy,
      totalScore: head.totalScore,
      quizzesAttempted: head.quizzesAttempted,
      rank: leaderboardRank(head.averageScore).as('rank'),
    })
    .from(head)
    .orderBy(leaderboardOrder(head))
    .offset(scope.offset)
    .as('ranked');
  return db
    .select({
      id: ranked.id,
      name: ranked.name,
      // The names of the student's classes (decision 031), for the page's rows only.
      className: classNamesOf(sql`${ranked.id}`),
      averageScore: rounded(ranked.averageScore),
      averageAccuracy: rounded(ranked.averageAccuracy),
      totalScore: rounded(ranked.totalScore),
      quizzesAttempted: ranked.quizzesAttempted,
      rank: ranked.rank,
    })
    .from(ranked)
    .orderBy(leaderboardOrder(ranked));
}

/**
 * The leaderboard statement, exported so a test can EXPLAIN exactly what runs.
 *
 * Without a search: leaderboardPageQuery.
 *
 * A search must not renumber: a match keeps its place in the (class or all-classes)
 * leaderboard. The page of matches is found first (students_name_trgm_idx for a rare
 * name, the ranked walk for a common one), then ranks are counted only down to the
 * lowest average on that page: an index-only walk of the leaderboard's head, with no
 * sort. Ranking the whole leaderboard before filtering, as it once did, sorted all
 * 100,000 students (on disk) for every keystroke of the search box. Not prepared: the
 * best plan depends on the text searched.
 */
export function leaderboardStatement(db: Database, filter: LeaderboardFilter, page: Page): SQL {
  if (filter.search === undefined) {
    return leaderboardPageQuery(db, {
      classId: filter.classId,
      end: page.offset + page.limit + 1,
      offset: page.offset,
    }).getSQL();
  }
  const inClass = filter.classId === undefined ? sql`` : sql`and ${inClassStudents(students.id, filter.classId)}`;
  return sql`
    with matches as (
      select ${students.id} as id, ${students.name} as name,
             ${students.averageScore} as average_score, ${students.averageAccuracy} as average_accuracy,
             ${students.totalScore} as total_score, ${students.quizzesAttempted} as quizzes_attempted
      from ${students}
      where ${students.quizzesAttempted} > 0 ${inClass}
        and ${students.name} ilike ${containsPattern(filter.search)} escape '\\'
      order by ${LEADERBOARD_ORDER} limit ${page.limit + 1} offset ${page.offset}
    )
    select matches.id, matches.name, ${classNamesOf(sql`matches.id`)} as "className",
           ${rounded(sql`matches.average_score`)} as "averageScore",
           ${rounded(sql`matches.average_accuracy`)} as "averageAccuracy",
           ${rounded(sql`matches.total_score`)} as "totalScore",
           matches.quizzes_attempted as "quizzesAttempted", ranks.rank
    from matches
    join (
      select ${students.id} as id, ${LEADERBOARD_RANK} as rank
      from ${students}
      where ${students.quizzesAttempted} > 0 ${inClass}
        and ${students.averageScore} >= (select min(average_score) from matches)
    ) as ranks on ranks.id = matches.id
    order by ${leaderboardOrder({ averageScore: sql`matches.average_score`, name: sql`matches.name`, id: sql`matches.id` })}`;
}

export function createProgressService(db: Database, cache: ReadCache) {
  // Every student leaderboard asks first (prepared: planned once per connection).
  const studentById = db
    .select({ name: students.name })
    .from(students)
    .where(eq(students.id, sql.placeholder('studentId')))
    .limit(1)
    .prepare('progress_student_by_id');

  // The page everyone opens, prepared for all classes and for one class (planned once per connection).
  const placeholders = { end: sql.placeholder('end'), offset: sql.placeholder('offset') };
  const allClassesPage = leaderboardPageQuery(db, placeholders).prepare('progress_leaderboard_page');
  const classPage = leaderboardPageQuery(db, { ...placeholders, classId: sql.placeholder('classId') }).prepare(
    'progress_class_leaderboard_page',
  );

  async function findStudent(studentId: string) {
    const [student] = await studentById.execute({ studentId });
    if (!student) throw accountRemoved();
    return student;
  }

  /**
   * Whose leaderboard the caller may read, as a class id (null: an empty one): a teacher any
   * class of the school or all of them (undefined; ranking fields only; an id no class has is
   * an empty board); a student one of their classes, the first by name unless they ask for
   * another of theirs by id (another class is refused).
   */
  async function classIdFor(user: { id: string; role: UserRole }, requestedClassId: string | undefined) {
    if (user.role === 'teacher') return requestedClassId;
    const own = await cachedStudentClassIds(cache, db, user.id);
    if (requestedClassId === undefined) return own[0] ?? null;
    if (!own.includes(requestedClassId)) throw forbidden('Students can only see the leaderboards of their own classes');
    return requestedClassId;
  }

  return {
    /**
     * get-students: one page of a leaderboard, in one query, kept a second by the read cache
     * (any closed attempt or membership change makes it stale). Which class it is, is decided
     * inside the cached read, so a page kept answers without a query.
     */
    async listLeaderboard(
      user: { id: string; role: UserRole },
      requested: { classId?: string | undefined; search?: string | undefined },
      page: Page,
      snapshot?: VersionSnapshot,
    ): Promise<ListedPage<LeaderboardEntry>> {
      const asked = requested.classId ?? null;
      // A student's default class is theirs alone; a named class is the same page for everyone allowed.
      const whose = user.role === 'student' ? user.id : 'teacher';
      const key = `leaderboard:${JSON.stringify([whose, asked, requested.search ?? null, page.offset, page.limit])}`;
      const tags = [
        cacheTags.leaderboard,
        cacheTags.classMemberships,
        ...(user.role === 'student' ? [cacheTags.studentClasses(user.id)] : []),
      ];
      return cache.read(
        key,
        tags,
        async () => {
          const classId = await classIdFor(user, requested.classId);
          if (classId === null) return { items: [], hasMore: false };
          const filter: LeaderboardFilter = { classId, search: requested.search };
          // One row past the page says whether there is more.
          const window = { end: page.offset + page.limit + 1, offset: page.offset };
          const rows: LeaderboardRow[] =
            filter.search !== undefined
              ? rowsOf<LeaderboardRow>(await db.execute(leaderboardStatement(db, filter, page)))
              : classId === undefined
                ? await allClassesPage.execute(window)
                : await classPage.execute({ ...window, classId });
          return {
            items: rows.slice(0, page.limit).map(presentLeaderboardEntry),
            hasMore: rows.length > page.limit,
          };
        },
        { snapshot },
      );
    },

    /**
     * The caller's analytics from their submitted attempts, per subject of the quiz and
     * overall (the empty grouping set), in one grouped query; quizzes.subject is NOT NULL, so
     * the row whose subject is null is the overall one. Only attempts whose score the student
     * may see now count (decision 032): a hidden score cannot be read off an average.
     */
    async statisticsFor(studentId: string): Promise<StudentStatistics> {
      const { name } = await findStudent(studentId);
      const moment = new Date();
      const submitted = await db
        .select({
          id: quizAttempts.id,
          submittedAt: quizAttempts.submittedAt,
          essaysAwaiting: quizAttempts.essaysAwaiting,
          closesAt: quizzes.closesAt,
          reviewAnswers: quizzes.reviewAnswers,
          reviewScore: quizzes.reviewScore,
        })
        .from(quizAttempts)
        .innerJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
        .where(and(eq(quizAttempts.studentId, studentId), isNotNull(quizAttempts.submittedAt)));
      // Final scores only: an attempt whose essays await marking waits too (decision 046).
      const shown = submitted.filter((row) => reviewOf(row, row, moment).showsFinalScore).map((row) => row.id);
      // Run even when nothing is shown (inArray of none is false): one number of statements whatever the data.
      const rows = rowsOf<StatisticsRow>(
        await db.execute(sql`
          select ${quizzes.subject} as subject,
                 round(avg(${quizAttempts.score})::numeric, 2)::float8 as "averageScore",
                 round(avg(${quizAttempts.accuracy}), 2)::float8 as "averageAccuracy",
                 count(*)::int as attempts,
                 round(avg(${quizAttempts.timeTakenSeconds})::numeric / 60, 2)::float8 as "averageTimeMinutes"
          from ${quizAttempts}
          inner join ${quizzes} on ${quizzes.id} = ${quizAttempts.quizId}
          where ${inArray(quizAttempts.id, shown)}
          group by grouping sets ((${quizzes.subject}), ())`),
      );
      return presentStudentStatistics(name, rows);
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
