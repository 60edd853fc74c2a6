import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { QuizQuestion } from '#shared/quizzes';
import { migrationFrom } from '../testing/migrated-database.ts';
import { signSessionToken } from '../testing/session-tokens.ts';
import { bearer } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migration 0011 (issue 19 point 9, decision 032) on a database of the version before it: a
 * quiz that existed keeps today's review (the key and the score right after submitting), and
 * its scores stay in the stored averages; a quiz created afterwards gets the new defaults.
 * PGlite and PostgreSQL.
 */

const PREVIOUS = '0010_school-and-staff';

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_review');

const TEACHER = '00000000-0000-4000-8000-0000000000a1';
const STUDENT = '00000000-0000-4000-8000-0000000000b1';
const QUIZ = '00000000-0000-4000-8000-0000000000c1';
const QUESTIONS = [
  { _id: 'q1', question_text: 'What is 2 + 2?', options: ['4', '5'], answer: '4' },
  { _id: 'q2', question_text: 'Capital of France?', options: ['Paris', 'Rome'], answer: 'Paris' },
];

// Each test migrates a database from nothing, which takes far longer than a request test on a
// busy CI machine.
describe('migration 0012: review options', { timeout: patience(120_000) }, () => {
  it('keeps the key and the score right after submitting for a quiz that existed, deadline still ahead', async () => {
    const t = await migratedFromPrevious(async (handle) => {
      await handle.db.execute(sql`
        insert into teachers (id, name, email, email_key, subject, password_hash)
        values (${TEACHER}, 'Old Teacher', 'old@school.example', 'old@school.example', 'Maths', 'x')`);
      await handle.db.execute(sql`
        insert into students (id, name, roll_number, roll_number_key, email, email_key, class, class_key,
                              parent_name, parent_email, password_hash, average_score, average_accuracy,
                              total_score, quizzes_attempted)
        values (${STUDENT}, 'Old Student', 'r1', 'r1', 'old.student@school.example', 'old.student@school.example',
                '10A', '10a', 'Parent', 'parent@family.example', 'x', 1, 50, 1, 1)`);
      await handle.db.execute(sql`
        insert into quizzes (id, title, subject, class, class_key, deadline, max_time_minutes,
                             created_by_teacher_id, background, questions, question_count)
        values (${QUIZ}, 'Old quiz', 'Maths', '10A', '10a', now() + interval '1 day', 10, ${TEACHER},
                '/images/quiz-templates/quiz1-template.png', ${JSON.stringify(QUESTIONS)}::jsonb, 2)`);
      await handle.db.execute(sql`
        insert into quiz_attempts (quiz_id, student_id, started_at, ends_at, layout, answers, submitted_at,
                                   ended_by, score, accuracy, time_taken_seconds)
        values (${QUIZ}, ${STUDENT}, now() - interval '5 minutes', now() + interval '5 minutes',
                ${JSON.stringify(QUESTIONS.map((q) => ({ questionId: q._id, options: q.options })))}::jsonb,
                '{"q1":"4","q2":"Rome"}'::jsonb, now() - interval '1 minute', 'submitted', 1, 50, 240)`);
    });

    const [row] = rowsOf<Record<string, unknown>>(
      await t.database.db.execute(
        sql`select review_answers, review_score, scores_released from quizzes where id = ${QUIZ}::uuid`,
      ),
    );
    expect(row).toEqual({ review_answers: 'after-submit', review_score: 'after-submit', scores_released: true });

    // The student's review still shows the key and the score, before the deadline as before.
    const token = await signSessionToken({ id: STUDENT, role: 'student' });
    const review = await t.call({ method: 'GET', url: `/api/quiz/${QUIZ}`, headers: bearer(token) });
    expect(review.status, review.raw).toBe(200);
    expect(review.body.data).toMatchObject({ reviewAnswers: 'after-submit', reviewScore: 'after-submit' });
    expect(review.body.data.attempt).toMatchObject({ status: 'submitted', score: 1, accuracy: '50' });
    expect(
      (review.body.data.quiz.questions as QuizQuestion[])
        .map((question) => question.options?.find((option) => option.correct)?.text)
        .sort(),
    ).toEqual(['4', 'Paris']);
    const statistics = await t.call({ method: 'GET', url: '/api/student/statistics', headers: bearer(token) });
    expect(statistics.body.data).toMatchObject({ quizzesAttempted: 1, averageScore: 1 });

    // A quiz created now gets the new defaults.
    await t.database.db.execute(sql`
      insert into quizzes (title, subject, class_id, deadline, max_time_minutes, closes_at,
                           created_by_teacher_id, background, questions, question_count, total_points)
      select 'New quiz', 'Maths', classes.id, now() + interval '1 day', 10,
             now() + interval '1 day 10 minutes 30 seconds', ${TEACHER},
             '/images/quiz-templates/quiz1-template.png', ${JSON.stringify(QUESTIONS)}::jsonb, 2, 2
      from classes where name_key = '10a'`);
    const [fresh] = rowsOf<Record<string, unknown>>(
      await t.database.db.execute(sql`select review_answers, review_score from quizzes where title = 'New quiz'`),
    );
    expect(fresh).toEqual({ review_answers: 'after-deadline', review_score: 'after-submit' });
  });
});
