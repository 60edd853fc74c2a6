import { and, asc, eq, or, sql } from 'drizzle-orm';
import { emailKey, identityKey } from '#shared/identity';
import type {
  ClassList,
  StudentDetails,
  StudentListEntry,
  StudentListQuery,
  TemporaryPassword,
} from '#shared/students';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { quizzes, resources, students } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { insertUnique } from '../accounts/service.ts';
import type { SessionVersions } from '../accounts/session-versions.ts';
import { generateTemporaryPassword } from '../accounts/temporary-passwords.ts';
import { presentStudentListEntry } from './presenters.ts';

export type ListedStudents = { items: StudentListEntry[]; hasMore: boolean };

const listColumns = {
  id: students.id,
  name: students.name,
  rollNumber: students.rollNumber,
  email: students.email,
  className: students.className,
  parentName: students.parentName,
  parentEmail: students.parentEmail,
  averageScore: students.averageScore,
  averageAccuracy: students.averageAccuracy,
  quizzesAttempted: students.quizzesAttempted,
  createdAt: students.createdAt,
};

const NO_SUCH_STUDENT = 'This student does not exist';

/**
 * The teacher's students screen: every student of the school (one instance serves one school),
 * and a teacher's changes to one of them (decision 033). Which students a teacher reaches is the
 * route's policy (`school-students`), not decided here.
 */
export function createStudentsService(
  db: Database,
  { sessions, cache }: { sessions: SessionVersions; cache: ReadCache },
) {
  return {
    /** One page, by class (its key: every spelling together) then name then id: one query, filtered, sorted and paged in SQL. */
    async listStudents(query: StudentListQuery): Promise<ListedStudents> {
      const pattern = query.search === undefined ? undefined : containsPattern(query.search);
      const rows = await db
        .select(listColumns)
        .from(students)
        .where(
          and(
            query.class === undefined ? undefined : eq(students.classKey, identityKey(query.class)),
            pattern === undefined
              ? undefined
              : or(
                  sql`${students.name} ilike ${pattern} escape '\\'`,
                  sql`${students.rollNumber} ilike ${pattern} escape '\\'`,
                ),
          ),
        )
        .orderBy(asc(students.classKey), asc(students.name), asc(students.id))
        .limit(query.limit + 1)
        .offset(query.offset);
      return { items: rows.slice(0, query.limit).map(presentStudentListEntry), hasMore: rows.length > query.limit };
    },

    /**
     * Every class that has a student, a quiz or a resource, once however it is spelled (by
     * its key, decision 024), sorted: one query. The students' classes are read by skipping
     * through students_class_name_idx one class key at a time (a loose index scan), so the
     * cost follows the number of classes, not of students. A class shows its first spelling
     * in sort order; filtering by any spelling finds them all.
     */
    async listClasses(): Promise<ClassList> {
      const result = await db.execute(sql`
        with recursive student_classes (class_key) as (
          (select ${students.classKey} from ${students} order by ${students.classKey} limit 1)
          union all
          select (
            select ${students.classKey} from ${students}
            where ${students.classKey} > student_classes.class_key
            order by ${students.classKey} limit 1
          )
          from student_classes where student_classes.class_key is not null
        ),
        spellings (class_key, class_name) as (
          select class_key, (
            select ${students.className} from ${students}
            where ${students.classKey} = student_classes.class_key
            order by ${students.classKey}, ${students.name} limit 1
          )
          from student_classes where class_key is not null
          union all
          select ${quizzes.classKey}, ${quizzes.className} from ${quizzes}
          union all
          select ${resources.classKey}, ${resources.className} from ${resources}
        )
        select min(class_name) as class_name from spellings group by class_key order by 1`);
      return (result as { rows: { class_name: string }[] }).rows.map((row) => row.class_name);
    },

    /**
     * A student's details as a teacher corrects them: one statement, so a roll number or email
     * another student holds (by its key, decision 024) is a 409 and changes nothing.
     */
    async updateDetails(studentId: string, details: StudentDetails): Promise<StudentListEntry> {
      const [updated] = await insertUnique(() =>
        db
          .update(students)
          .set({
            name: details.name,
            rollNumber: details.rollNumber,
            rollNumberKey: identityKey(details.rollNumber),
            email: details.email,
            emailKey: emailKey(details.email),
            parentName: details.parentName,
            parentEmail: details.parentEmail,
          })
          .where(eq(students.id, studentId))
          .returning(listColumns),
      );
      if (!updated) throw notFound(NO_SUCH_STUDENT);
      // Leaderboard pages show the name.
      await cache.changed([cacheTags.leaderboard]);
      return presentStudentListEntry(updated);
    },

    /**
     * A new temporary password for a student, answered once and kept only as its hash. The same
     * statement sets must_change_password and moves the session version, so every session of the
     * student ends (announced on every instance before the teacher hears back, decision 017) and
     * the next sign-in can only choose a new password.
     */
    async resetPassword(studentId: string): Promise<TemporaryPassword & { rollNumber: string }> {
      const temporaryPassword = generateTemporaryPassword();
      const passwordHash = await hashPassword(temporaryPassword);
      const [updated] = await db
        .update(students)
        .set({ passwordHash, mustChangePassword: true, sessionVersion: sql`${students.sessionVersion} + 1` })
        .where(eq(students.id, studentId))
        .returning({ rollNumber: students.rollNumber });
      if (!updated) throw notFound(NO_SUCH_STUDENT);
      await sessions.changed({ role: 'student', id: studentId });
      // The account username too: the route lifts its sign-in lock-out (not part of the answer).
      return { temporaryPassword, rollNumber: updated.rollNumber };
    },
  };
}

export type StudentsService = ReturnType<typeof createStudentsService>;
