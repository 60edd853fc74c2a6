import { asc, eq, sql } from 'drizzle-orm';
import { cacheTags, type ReadCache, type VersionSnapshot } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { preparedPerDatabase } from '../../db/prepared.ts';
import { classes, classStudents, students } from '../../db/schema.ts';
import { accountRemoved } from '../../errors.ts';

// The student (so a removed account is told apart from one in no class) and their classes by name.
const studentClassesQuery = (db: Pick<Database, 'select'>) =>
  db
    .select({ studentId: students.id, classId: classStudents.classId })
    .from(students)
    .leftJoin(classStudents, eq(classStudents.studentId, students.id))
    .leftJoin(classes, eq(classes.id, classStudents.classId))
    .where(eq(students.id, sql.placeholder('studentId')))
    .orderBy(asc(classes.nameKey));

/** Asked by nearly every student request. */
const studentClasses = preparedPerDatabase('accounts_student_class_ids', studentClassesQuery);

/**
 * The ids of the token's student's classes, by class name (decision 031), read from the
 * database (never from the request): what every class-scoped read of a student is scoped by.
 * Possibly none. 401 when the account is gone. Works on the database or inside a transaction.
 */
export async function findStudentClassIds(db: Pick<Database, 'select'>, studentId: string): Promise<string[]> {
  const rows = await studentClasses(db).execute({ studentId });
  if (rows.length === 0) throw accountRemoved();
  return rows.flatMap((row) => (row.classId === null ? [] : [row.classId]));
}

/** Memberships change only through writes that announce it: kept as long as a tagged read may be. */
const STUDENT_CLASSES_TTL_MS = 60_000;

/**
 * findStudentClassIds for the reads every page sends, kept by the read cache until the
 * student joins or leaves a class (cacheTags.studentClasses, announced by those writes).
 */
export function cachedStudentClassIds(
  cache: ReadCache,
  db: Database,
  studentId: string,
  snapshot?: VersionSnapshot,
): Promise<string[]> {
  return cache.read(
    `student-class-ids:${studentId}`,
    [cacheTags.studentClasses(studentId)],
    () => findStudentClassIds(db, studentId),
    { ttlMs: STUDENT_CLASSES_TTL_MS, snapshot },
  );
}
