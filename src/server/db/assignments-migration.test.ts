import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrationFrom } from '../testing/migrated-database.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migration 0024 (issue 33, decision 058) on a database of the version before it: the school's
 * classes, teachers and students stay as they were, and the new tables take an assignment for
 * one of them and a hand-in whose state and times agree, refusing one whose do not.
 * PGlite and PostgreSQL.
 */

const PREVIOUS = '0023_languages';

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_assignments');

const TEACHER = '00000000-0000-4000-8000-0000000000a1';
const STUDENT = '00000000-0000-4000-8000-0000000000b1';
const CLASS = '00000000-0000-4000-8000-0000000000d1';
const ASSIGNMENT = '00000000-0000-4000-8000-0000000000e1';

describe('migration 0024: assignments', { timeout: patience(120_000) }, () => {
  it('keeps the school and takes assignments and hand-ins whose state and times agree', async () => {
    const t = await migratedFromPrevious(async (handle) => {
      await handle.db.execute(sql`
        insert into teachers (id, name, email, email_key, subject, password_hash)
        values (${TEACHER}, 'Old Teacher', 'old@school.example', 'old@school.example', 'Maths', 'x')`);
      await handle.db.execute(sql`
        insert into students (id, name, roll_number, roll_number_key, email, email_key, parent_name, parent_email, password_hash)
        values (${STUDENT}, 'Old Student', 'S1', 's1', 's1@school.example', 's1@school.example', 'P', 'p@school.example', 'x')`);
      await handle.db.execute(sql`insert into classes (id, name, name_key) values (${CLASS}, '10A', '10a')`);
      await handle.db.execute(sql`insert into class_students (class_id, student_id) values (${CLASS}, ${STUDENT})`);
    });
    const db = t.database.db;
    const [kept] = rowsOf<{ count: number }>(
      await db.execute(sql`select count(*)::int as count from class_students where class_id = ${CLASS}::uuid`),
    );
    expect(kept!.count).toBe(1);
    await db.execute(sql`
      insert into assignments (id, created_by_teacher_id, title, points, due_at)
      values (${ASSIGNMENT}, ${TEACHER}, 'Essay', 10, '2026-12-01T10:00:00Z')`);
    await db.execute(sql`insert into assignment_classes (assignment_id, class_id) values (${ASSIGNMENT}, ${CLASS})`);
    await db.execute(sql`
      insert into hand_ins (assignment_id, student_id, class_id, state, text, submitted_at, late)
      values (${ASSIGNMENT}, ${STUDENT}, ${CLASS}, 'handed-in', 'My essay', now(), true)`);
    const [handIn] = rowsOf<{ state: string; version: number; late: boolean }>(
      await db.execute(sql`select state, version, late from hand_ins where assignment_id = ${ASSIGNMENT}::uuid`),
    );
    expect(handIn).toEqual({ state: 'handed-in', version: 1, late: true });
    // A second hand-in of the same student, a draft with a submission time, an unknown state: refused.
    await expect(
      db.execute(sql`
        insert into hand_ins (assignment_id, student_id, class_id, state)
        values (${ASSIGNMENT}, ${STUDENT}, ${CLASS}, 'draft')`),
    ).rejects.toThrow();
    await db.execute(sql`delete from hand_ins`);
    for (const [state, submitted] of [
      ['draft', sql`now()`],
      ['handed-in', sql`null`],
      ['lost', sql`null`],
    ] as const) {
      await expect(
        db.execute(sql`
          insert into hand_ins (assignment_id, student_id, class_id, state, submitted_at)
          values (${ASSIGNMENT}, ${STUDENT}, ${CLASS}, ${state}, ${submitted})`),
        state,
      ).rejects.toThrow();
    }
  });
});
