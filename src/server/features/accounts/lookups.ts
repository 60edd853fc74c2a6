import { eq, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { ReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { accountRemoved } from '../../errors.ts';

const studentClassQuery = (db: Pick<Database, 'select'>) =>
  db
    .select({ classKey: students.classKey })
    .from(students)
    .where(eq(students.id, sql.placeholder('studentId')))
    .limit(1);

/**
 * Asked by nearly every student request, so prepared once per database (PostgreSQL then
 * parses and plans it once per connection); a transaction runs the plain statement.
 */
const preparedByDatabase = new WeakMap<object, ReturnType<ReturnType<typeof studentClassQuery>['prepare']>>();

/**
 * The class key of the token's student (identityKey of the class, decision 024), read from
 * the database (never from the request): what every class-scoped feature compares with the
 * class_key of quizzes and resources. 401 when the account is gone. Works on the database or
 * inside a transaction.
 */
export async function findStudentClassKey(db: Pick<Database, 'select'>, studentId: string): Promise<string> {
  let query;
  if (db instanceof PgTransaction) query = studentClassQuery(db);
  else {
    query = preparedByDatabase.get(db) ?? studentClassQuery(db).prepare('accounts_student_class_key');
    preparedByDatabase.set(db, query);
  }
  const [student] = await query.execute({ studentId });
  if (!student) throw accountRemoved();
  return student.classKey;
}

/** How long a read keeps a student's class: no endpoint moves a student to another class. */
const STUDENT_CLASS_TTL_MS = 10 * 60_000;

/**
 * findStudentClassKey for the reads every page sends, kept by the read cache: the lists and
 * leaderboards then answer from memory. Writes and access checks on a single resource
 * still read the database. (An endpoint that moved a student would have to tag this entry
 * and announce the move.)
 */
export function cachedStudentClassKey(cache: ReadCache, db: Database, studentId: string): Promise<string> {
  return cache.read(`student-class-key:${studentId}`, [], () => findStudentClassKey(db, studentId), {
    ttlMs: STUDENT_CLASS_TTL_MS,
  });
}
