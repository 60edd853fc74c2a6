import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { unauthorized } from '../../errors.ts';

/**
 * The class of the token's student, read from the database (never from the
 * request): what every class-scoped feature checks against. 401 when the
 * account is gone. Works on the database or inside a transaction.
 */
export async function findStudentClass(db: Pick<Database, 'select'>, studentId: string): Promise<string> {
  const [student] = await db
    .select({ className: students.className })
    .from(students)
    .where(eq(students.id, studentId))
    .limit(1);
  if (!student) throw unauthorized('Your account no longer exists');
  return student.className;
}
