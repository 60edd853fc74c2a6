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
import { classes, classTeachers, students } from '../../db/schema.ts';
import { forbidden, notFound } from '../../errors.ts';
import { classNamesOf } from '../classes/records.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { insertUnique } from '../../db/unique-identities.ts';
import type { SessionVersions } from '../accounts/session-versions.ts';
import { generateTemporaryPassword } from '../accounts/temporary-passwords.ts';
import { presentStudentListEntry } from './presenters.ts';
import { byName } from '../../db/name-order.ts';

export type ListedStudents = { items: StudentListEntry[]; hasMore: boolean };

const NO_SUCH_STUDENT = 'This student does not exist';

// The SQL below is spelled out: drizzle leaves the columns of a select's fields and of an
// update unqualified, and these subqueries join tables beside the outer students row.

/**
 * The student is in one of the teacher's classes (or in `classId`, when given and taught): the
 * one condition of "a teacher's student" (issue 19 point 8), walking class_teachers_teacher_idx
 * and the class_students primary key.
 */
const taughtBy = (teacherId: string, classId?: string) =>
  sql`"students"."id" in (
    select cs.student_id from class_teachers ct
    join class_students cs on cs.class_id = ct.class_id
    where ct.teacher_id = ${teacherId}${classId === undefined ? sql`` : sql` and ct.class_id = ${classId}`}
  )`;

const listColumns = (teacherId: string) => ({
  id: students.id,
  name: students.name,
  rollNumber: students.rollNumber,
  email: students.email,
  // What the students screen shows as their class: only the caller's classes of theirs.
  className: classNamesOf(undefined, teacherId),
  parentName: students.parentName,
  parentEmail: students.parentEmail,
  averageScore: students.averageScore,
  averageAccuracy: students.averageAccuracy,
  quizzesAttempted: students.quizzesAttempted,
  createdAt: students.createdAt,
});

/**
 * The teacher's students screen: the students of the caller's classes with their contact
 * details, and a teacher's changes to one of them (decision 033). A student no class of the
 * caller holds is out of reach: 404 when there is no such student, 403 when there is (as
 * requireTaughtClass answers for a class).
 */
export function createStudentsService(
  db: Database,
  { sessions, cache }: { sessions: SessionVersions; cache: ReadCache },
) {
  /**
   * Why a change guarded by taughtBy() changed no row: 404 for no such student, 403 for one
   * none of the teacher's classes holds (the guard and the change are one statement).
   */
  async function refusal(teacherId: string, studentId: string) {
    const [found] = await db
      .select({ isTaught: sql<boolean>`${taughtBy(teacherId)}` })
      .from(students)
      .where(eq(students.id, studentId))
      .limit(1);
    // Taught now but not when the change ran: the student joined a class of the caller since.
    return found && !found.isTaught ? forbidden('This student is in none of your classes') : notFound(NO_SUCH_STUDENT);
  }

  return {
    /**
     * One page of the students of the caller's classes (or of one of them, by its id), by name
     * then id: one query, filtered, sorted and paged in SQL.
     */
    async listStudents(teacherId: string, query: StudentListQuery): Promise<ListedStudents> {
      const pattern = query.search === undefined ? undefined : containsPattern(query.search);
      const rows = await db
        .select(listColumns(teacherId))
        .from(students)
        .where(
          and(
            taughtBy(teacherId, query.classId),
            pattern === undefined
              ? undefined
              : or(
                  sql`${students.name} ilike ${pattern} escape '\\'`,
                  sql`${students.rollNumber} ilike ${pattern} escape '\\'`,
                ),
          ),
        )
        .orderBy(asc(byName(students.name)), asc(students.id))
        .limit(query.limit + 1)
        .offset(query.offset);
      return { items: rows.slice(0, query.limit).map(presentStudentListEntry), hasMore: rows.length > query.limit };
    },

    /** The caller's classes by name (archived ones too: their students stay listed): the filter's choices. */
    async listClasses(teacherId: string): Promise<ClassList> {
      const rows = await db
        .select({ name: classes.name })
        .from(classTeachers)
        .innerJoin(classes, eq(classes.id, classTeachers.classId))
        .where(eq(classTeachers.teacherId, teacherId))
        .orderBy(asc(classes.nameKey));
      return rows.map((row) => row.name);
    },

    /**
     * A student's details as a teacher corrects them: one statement, so a roll number or email
     * another student holds (by its key, decision 024) is a 409 and changes nothing.
     */
    async updateDetails(teacherId: string, studentId: string, details: StudentDetails): Promise<StudentListEntry> {
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
          .where(and(eq(students.id, studentId), taughtBy(teacherId)))
          .returning(listColumns(teacherId)),
      );
      if (!updated) throw await refusal(teacherId, studentId);
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
    async resetPassword(teacherId: string, studentId: string): Promise<TemporaryPassword & { rollNumber: string }> {
      const temporaryPassword = generateTemporaryPassword();
      const passwordHash = await hashPassword(temporaryPassword);
      const [updated] = await db
        .update(students)
        .set({ passwordHash, mustChangePassword: true, sessionVersion: sql`${students.sessionVersion} + 1` })
        .where(and(eq(students.id, studentId), taughtBy(teacherId)))
        .returning({ rollNumber: students.rollNumber });
      if (!updated) throw await refusal(teacherId, studentId);
      await sessions.changed({ role: 'student', id: studentId });
      // The account username too: the route lifts its sign-in lock-out (not part of the answer).
      return { temporaryPassword, rollNumber: updated.rollNumber };
    },
  };
}

export type StudentsService = ReturnType<typeof createStudentsService>;
