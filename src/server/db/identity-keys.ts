import { sql } from 'drizzle-orm';
import { emailKey, identityKey } from '#shared/identity';
import type { MigrationExecutor } from './migrate.ts';

/**
 * The *_key columns (decision 024): which key function fills which column, in one place for
 * the services, the test factories, the benchmark's seed and the migration that filled the
 * columns of rows made before them.
 */

/** A class name as typed and its key. */

/** A teacher's email as typed and its key. */
export const teacherIdentityColumns = (email: string) => ({ email, emailKey: emailKey(email) });

/** A student's roll number and email as typed, and their keys (their classes are class_students rows). */
export const studentIdentityColumns = (student: { rollNumber: string; email: string }) => ({
  rollNumber: student.rollNumber,
  rollNumberKey: identityKey(student.rollNumber),
  email: student.email,
  emailKey: emailKey(student.email),
});

/**
 * The key of an account made before decision 024 whose identity turned out to be an older
 * account's (two spellings the old rule, lower(), told apart, such as 'Straße' and 'STRASSE').
 * No identityKey or emailKey holds a capital letter, so nothing typed ever reaches it: the
 * younger account keeps its data but cannot sign in with that identity until someone renames it.
 */
export const DUPLICATE_KEY_PREFIX = 'DUPLICATE:';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const BATCH = 1_000;

/** The key of each row, oldest first: the first row with a key keeps it, later ones get a DUPLICATE key. */
function keysByAge<Row extends { id: string }>(rows: Row[], keyOf: (row: Row) => string): string[] {
  const taken = new Set<string>();
  return rows.map((row) => {
    const key = keyOf(row);
    if (taken.has(key)) return `${DUPLICATE_KEY_PREFIX}${row.id}`;
    taken.add(key);
    return key;
  });
}

/** update table set column = v.column ... from (values ...) where the row's match column equals the value's. */
async function updateFromValues(
  tx: MigrationExecutor,
  table: string,
  match: { column: string; cast: string },
  columns: string[],
  values: string[][],
) {
  for (let start = 0; start < values.length; start += BATCH) {
    const rows = values.slice(start, start + BATCH).map(
      (row) =>
        sql`(${sql.join(
          row.map((value) => sql`${value}`),
          sql`, `,
        )})`,
    );
    const names = [match.column, ...columns].map((name) => sql.identifier(name));
    const assignments = columns.map((name) => sql`${sql.identifier(name)} = v.${sql.identifier(name)}`);
    await tx.execute(sql`update ${sql.identifier(table)} as t set ${sql.join(assignments, sql`, `)}
      from (values ${sql.join(rows, sql`, `)}) as v(${sql.join(names, sql`, `)})
      where t.${sql.identifier(match.column)} = v.${sql.identifier(match.column)}${sql.raw(match.cast)}`);
  }
}

/**
 * The JavaScript step of migration 0007: fills the key columns of every existing row with
 * exactly what the application computes (PostgreSQL's lower() and normalize() cannot match
 * it), before 0008 makes them NOT NULL and unique. Plain SQL naming only the columns it
 * needs, so later changes to schema.ts cannot break it.
 */
export async function fillIdentityKeys(tx: MigrationExecutor): Promise<void> {
  const teachers = rowsOf<{ id: string; email: string }>(
    await tx.execute(sql`select id, email from teachers order by created_at, id`),
  );
  const teacherKeys = keysByAge(teachers, (teacher) => emailKey(teacher.email));
  await updateFromValues(
    tx,
    'teachers',
    { column: 'id', cast: '::uuid' },
    ['email_key'],
    teachers.map((teacher, index) => [teacher.id, teacherKeys[index]!]),
  );

  const students = rowsOf<{ id: string; roll_number: string; email: string }>(
    await tx.execute(sql`select id, roll_number, email from students order by created_at, id`),
  );
  const rollNumberKeys = keysByAge(students, (student) => identityKey(student.roll_number));
  const studentEmailKeys = keysByAge(students, (student) => emailKey(student.email));
  await updateFromValues(
    tx,
    'students',
    { column: 'id', cast: '::uuid' },
    ['roll_number_key', 'email_key'],
    students.map((student, index) => [student.id, rollNumberKeys[index]!, studentEmailKeys[index]!]),
  );

  // Class names are not unique: every spelling of a class simply takes the class's key.
  for (const table of ['students', 'quizzes', 'resources']) {
    const classes = rowsOf<{ class: string }>(
      await tx.execute(sql`select distinct class from ${sql.identifier(table)}`),
    );
    await updateFromValues(
      tx,
      table,
      { column: 'class', cast: '' },
      ['class_key'],
      classes.map((row) => [row.class, identityKey(row.class)]),
    );
  }
}

/** An account left with a DUPLICATE key by the migration: its id, and which identity it lost. */
export type IdentityConflict = { role: 'teacher' | 'student'; field: 'email' | 'rollNumber'; id: string };

/** Every account with a DUPLICATE key (main.ts names them at each start until they are renamed). */
export async function findIdentityConflicts(db: MigrationExecutor): Promise<IdentityConflict[]> {
  const duplicate = `${DUPLICATE_KEY_PREFIX}%`;
  return rowsOf<IdentityConflict>(
    await db.execute(sql`
      select 'teacher' as role, 'email' as field, id from teachers where email_key like ${duplicate}
      union all
      select 'student', 'rollNumber', id from students where roll_number_key like ${duplicate}
      union all
      select 'student', 'email', id from students where email_key like ${duplicate}
      order by 1, 2, 3`),
  );
}

/** What an operator reads about a conflict: which account, and what it cannot do until renamed. */
export function describeIdentityConflict(conflict: IdentityConflict): string {
  const account = `The ${conflict.role} account ${conflict.id}`;
  if (conflict.field === 'rollNumber' || conflict.role === 'teacher') {
    const identity = conflict.field === 'email' ? 'email' : 'username';
    return `${account} has the ${identity} of an older account, spelled differently: it cannot sign in until it is renamed (docs/decisions/024-identity-normalisation.md)`;
  }
  return `${account} has the email of an older student, spelled differently: it still signs in with its username, but its email is not its own until it is renamed (docs/decisions/024-identity-normalisation.md)`;
}
