import { eq, sql, type SQL } from 'drizzle-orm';
import type { UserRole } from '#shared/constants';
import type { LeaderboardEntry, StudentStatistics } from '#shared/progress';
import type { Database } from '../../db/client.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { quizAttempts, quizzes, students } from '../../db/schema.ts';
import { forbidden, unauthorized } from '../../errors.ts';
import {
  presentLeaderboardEntry,
  presentStudentStatistics,
  type LeaderboardRow,
  type StatisticsRow,
} from './presenters.ts';

export type Page = { offset: number; limit: number };
export type ListedPage<T> = { items: T[]; hasMore: boolean };

/** Which leaderboard to read (one class or all) and which of its rows to show. */
export type LeaderboardFilter = { className?: string | undefined; search?: string | undefined };

/** Both drivers (node-postgres, PGlite) answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const LEADERBOARD_ORDER = sql`${students.averageScore} desc nulls last, ${students.id}`;

/**
 * The leaderboard statement, exported so a test can EXPLAIN exactly what runs.
 *
 * Ranked students only (quizzes_attempted > 0: the partial indexes' predicate),
 * best average first, ties by id so pages never overlap. The ORDER BY spells
 * the indexes' own order (average_score DESC NULLS LAST, id), so PostgreSQL
 * walks students_leaderboard_idx or students_class_leaderboard_idx.
 *
 * Without a search, the LIMIT sits right on the ranked scan, so it stops after
 * offset + limit + 1 index entries.
 *
 * A search must not renumber: a match keeps its place in the (class or all-classes)
 * leaderboard. The page of matches is found first (students_name_trgm_idx for a rare
 * name, the ranked walk for a common one), then ranks are counted only down to the
 * lowest average on that page: an index-only walk of the leaderboard's head, with no
 * sort. Ranking the whole leaderboard before filtering, as it once did, sorted all
 * 100,000 students (on disk) for every keystroke of the search box.
 */
export function leaderboardStatement(filter: LeaderboardFilter, page: Page): SQL {
  const inClass = filter.className === undefined ? sql`` : sql`and ${students.className} = ${filter.className}`;
  const columns = sql`${students.id} as id, ${students.name} as name, ${students.className} as class_name,
           ${students.averageScore} as average_score, ${students.averageAccuracy} as average_accuracy,
           ${students.totalScore} as total_score, ${students.quizzesAttempted} as quizzes_attempted`;
  const window = sql`limit ${page.limit + 1} offset ${page.offset}`;
  const pageRows =
    filter.search === undefined
      ? sql`
    select ${columns}, row_number() over (order by ${LEADERBOARD_ORDER})::int as rank
    from ${students}
    where ${students.quizzesAttempted} > 0 ${inClass}
    order by ${LEADERBOARD_ORDER} ${window}`
      : sql`
    with matches as (
      select ${columns} from ${students}
      where ${students.quizzesAttempted} > 0 ${inClass}
        and ${students.name} ilike ${containsPattern(filter.search)} escape '\\'
      order by ${LEADERBOARD_ORDER} ${window}
    )
    select matches.*, ranks.rank
    from matches
    join (
      select ${students.id} as id, row_number() over (order by ${LEADERBOARD_ORDER})::int as rank
      from ${students}
      where ${students.quizzesAttempted} > 0 ${inClass}
        and ${students.averageScore} >= (select min(average_score) from matches)
    ) as ranks on ranks.id = matches.id`;
  // Rounding and renaming happen only for the rows of the page.
  return sql`
    select ranked.id, ranked.name, ranked.class_name as "className",
           round(ranked.average_score::numeric, 2)::float8 as "averageScore",
           round(ranked.average_accuracy::numeric, 2)::float8 as "averageAccuracy",
           round(ranked.total_score::numeric, 2)::float8 as "totalScore",
           ranked.quizzes_attempted as "quizzesAttempted", ranked.rank
    from (${pageRows}) as ranked
    order by ranked.rank`;
}

export function createProgressService(db: Database) {
  async function findStudent(studentId: string) {
    const [student] = await db
      .select({ name: students.name, className: students.className })
      .from(students)
      .where(eq(students.id, studentId))
      .limit(1);
    if (!student) throw unauthorized('Your account no longer exists');
    return student;
  }

  /**
   * Whose leaderboard the caller may read: a teacher any class or all of them;
   * a student only their own class, whatever they ask for.
   */
  async function scopeFor(user: { id: string; role: UserRole }, requestedClass: string | undefined) {
    if (user.role === 'teacher') return requestedClass;
    const { className } = await findStudent(user.id);
    if (requestedClass !== undefined && requestedClass !== className)
      throw forbidden('Students can only see the leaderboard of their own class');
    return className;
  }

  return {
    /** get-students: one page of a leaderboard, in one query (two for a student, who needs their class). */
    async listLeaderboard(
      user: { id: string; role: UserRole },
      filter: LeaderboardFilter,
      page: Page,
    ): Promise<ListedPage<LeaderboardEntry>> {
      const className = await scopeFor(user, filter.className);
      const rows = rowsOf<LeaderboardRow>(await db.execute(leaderboardStatement({ ...filter, className }, page)));
      return {
        items: rows.slice(0, page.limit).map(presentLeaderboardEntry),
        hasMore: rows.length > page.limit,
      };
    },

    /**
     * The caller's analytics from their submitted attempts, per subject of the
     * quiz and overall (the empty grouping set), in one grouped query.
     * quizzes.subject is NOT NULL, so the row whose subject is null is the overall one.
     */
    async statisticsFor(studentId: string): Promise<StudentStatistics> {
      const { name } = await findStudent(studentId);
      const rows = rowsOf<StatisticsRow>(
        await db.execute(sql`
          select ${quizzes.subject} as subject,
                 round(avg(${quizAttempts.score})::numeric, 2)::float8 as "averageScore",
                 round(avg(${quizAttempts.accuracy}), 2)::float8 as "averageAccuracy",
                 count(*)::int as attempts,
                 round(avg(${quizAttempts.timeTakenSeconds})::numeric / 60, 2)::float8 as "averageTimeMinutes"
          from ${quizAttempts}
          inner join ${quizzes} on ${quizzes.id} = ${quizAttempts.quizId}
          where ${quizAttempts.studentId} = ${studentId} and ${quizAttempts.submittedAt} is not null
          group by grouping sets ((${quizzes.subject}), ())`),
      );
      return presentStudentStatistics(name, rows);
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
