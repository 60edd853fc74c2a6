import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrationFrom } from '../testing/migrated-database.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migration 0017 (issue 20 point 3, decision 036) on a database of the version before it: a quiz
 * that existed closes where it closed before, at its deadline plus its time limit and the grace.
 * PGlite and PostgreSQL.
 */

const PREVIOUS = '0016_class-ids';

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_accommodations');

const TEACHER = '00000000-0000-4000-8000-0000000000a1';
const CLASS = '00000000-0000-4000-8000-0000000000d1';
const QUIZ = '00000000-0000-4000-8000-0000000000c1';

describe('migration 0017: accommodations', { timeout: patience(120_000) }, () => {
  it('gives an existing quiz its close: deadline, time limit and grace', async () => {
    const t = await migratedFromPrevious(async (handle) => {
      await handle.db.execute(sql`
        insert into teachers (id, name, email, email_key, subject, password_hash)
        values (${TEACHER}, 'Old Teacher', 'old@school.example', 'old@school.example', 'Maths', 'x')`);
      await handle.db.execute(sql`insert into classes (id, name, name_key) values (${CLASS}, '10A', '10a')`);
      await handle.db.execute(sql`
        insert into quizzes (id, title, subject, class_id, deadline, max_time_minutes,
                             created_by_teacher_id, background, questions, question_count)
        values (${QUIZ}, 'Old quiz', 'Maths', ${CLASS}, '2026-12-01T10:00:00Z', 25, ${TEACHER},
                '/images/quiz-templates/quiz1-template.png', '[]'::jsonb, 0)`);
    });
    const [row] = rowsOf<{ closes_at: string | Date }>(
      await t.database.db.execute(sql`select closes_at from quizzes where id = ${QUIZ}::uuid`),
    );
    expect(new Date(row!.closes_at).toISOString()).toBe('2026-12-01T10:25:30.000Z');
    const [accommodations] = rowsOf<{ count: number }>(
      await t.database.db.execute(sql`select count(*)::int as count from quiz_accommodations`),
    );
    expect(accommodations!.count).toBe(0);
  });
});
