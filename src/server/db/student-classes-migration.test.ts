import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailKey, identityKey } from '#shared/identity';
import { hashPassword } from '../features/accounts/passwords.ts';
import { migrationFrom } from '../testing/migrated-database.ts';
import { bearer } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migration 0016 (issue 19 points 3, 5, 8; decision 031) drops students.class and class_key: a
 * student keeps their memberships through it, and their profile's `class` is their classes'
 * names from then on. PGlite and PostgreSQL.
 */

const PREVIOUS = '0013_classes';
const PASSWORD = 'correct horse battery';
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_student_classes');

describe('migration 0016: a student’s classes', { timeout: patience(120_000) }, () => {
  it('keeps every membership and answers the classes’ names as the student’s class', async () => {
    const t = await migratedFromPrevious(async (handle) => {
      const db = handle.db;
      const passwordHash = await hashPassword(PASSWORD);
      await db.execute(sql`insert into classes (name, name_key) values ('10A', '10a'), ('Chess', 'chess')`);
      // The text column said 10A; the memberships (the truth since 0013) say 10A and Chess.
      await db.execute(sql`insert into students (name, roll_number, roll_number_key, email, email_key, class,
          class_key, parent_name, parent_email, password_hash)
        values ('Ada', 'ada-1', ${identityKey('ada-1')}, 'ada@school.example', ${emailKey('ada@school.example')},
          '10A', '10a', 'Parent', 'parent@school.example', ${passwordHash})`);
      await db.execute(sql`insert into class_students (class_id, student_id)
        select classes.id, students.id from classes, students`);
    });
    const db = t.database.db;
    const columns = rowsOf<{ column_name: string }>(
      await db.execute(sql`select column_name from information_schema.columns
        where table_name = 'students' and column_name in ('class', 'class_key')`),
    );
    expect(columns).toEqual([]);
    const memberships = rowsOf<{ name: string }>(
      await db.execute(sql`select classes.name from class_students join classes on classes.id = class_id
        order by classes.name`),
    );
    expect(memberships).toEqual([{ name: '10A' }, { name: 'Chess' }]);

    const login = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: 'ada-1', password: PASSWORD },
    });
    expect(login.status, login.raw).toBe(200);
    const profile = await t.call({
      method: 'POST',
      url: '/api/student/get-student-by-id',
      headers: bearer(login.body.data),
      payload: {},
    });
    expect(profile.body.data.class).toBe('10A, Chess');
  });
});
