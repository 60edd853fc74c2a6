import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { QuizQuestion } from '#shared/quizzes';
import { OPAQUE_ID } from '../testing/factories.ts';
import { migrationFrom } from '../testing/migrated-database.ts';
import { signSessionToken } from '../testing/session-tokens.ts';
import { bearer } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migration 0019 (issue 20, decision 036) on a database of the version before it: every stored
 * question becomes a 1-point single choice whose options carry ids (by position, which
 * migration 0021 then makes random, decision 039), attempts' layouts and
 * answers move from option text to option ids (an answer naming no option is dropped), scores
 * and accuracies and the students' averages stay what they were, and an attempt in progress
 * resumes and is scored on the new shape. PGlite and PostgreSQL.
 */

const PREVIOUS = '0016_class-ids';

/** Both drivers answer a raw statement with { rows }. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_question_types');

const TEACHER = '00000000-0000-4000-8000-0000000000a1';
const DONE = '00000000-0000-4000-8000-0000000000b1';
const RUNNING = '00000000-0000-4000-8000-0000000000b2';
const QUIZ = '00000000-0000-4000-8000-0000000000c1';
const QUESTIONS = [
  { _id: 'q1', question_text: 'What is 2 + 2?', options: ['4', '5'], answer: '4' },
  { _id: 'q2', question_text: 'Capital of France?', options: ['Paris', 'Rome'], answer: 'Paris' },
  { _id: 'q3', question_text: 'A prime?', options: ['7', '8', '9'], answer: '7' },
];
const LAYOUT = [
  { questionId: 'q3', options: ['9', '7', '8'] },
  { questionId: 'q1', options: ['5', '4'] },
  { questionId: 'q2', options: ['Rome', 'Paris'] },
];

async function seedOldSchool(handle: { db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> } }) {
  const { db } = handle;
  await db.execute(sql`insert into teachers (id, name, email, email_key, subject, password_hash)
    values (${TEACHER}, 'Old Teacher', 'old@school.example', 'old@school.example', 'Maths', 'x')`);
  await db.execute(sql`insert into classes (name, name_key) values ('10A', '10a')`);
  for (const [id, name] of [
    [DONE, 'done'],
    [RUNNING, 'running'],
  ] as const) {
    // The finished student's stored averages: 1 of 3 right.
    const stats = id === DONE ? sql`1, 33.33, 1, 1` : sql`0, 0, 0, 0`;
    await db.execute(sql`insert into students (id, name, roll_number, roll_number_key, email, email_key,
        parent_name, parent_email, password_hash, average_score, average_accuracy, total_score, quizzes_attempted)
      values (${id}, ${name}, ${name}, ${name}, ${`${name}@school.example`}, ${`${name}@school.example`},
        'Parent', 'parent@family.example', 'x', ${stats})`);
  }
  await db.execute(
    sql`insert into class_students (class_id, student_id) select classes.id, students.id from classes, students`,
  );
  await db.execute(sql`insert into quizzes (id, title, subject, class_id, deadline, max_time_minutes,
      created_by_teacher_id, background, questions, question_count, review_answers, review_score, scores_released)
    select ${QUIZ}, 'Old quiz', 'Maths', classes.id, now() + interval '1 day', 10, ${TEACHER},
      '/images/quiz-templates/quiz1-template.png', ${JSON.stringify(QUESTIONS)}::jsonb, 3,
      'after-submit', 'after-submit', true
    from classes`);
  // Submitted: q1 right, q2 wrong, q3 an answer no option has (from a bug long ago): 1 of 3.
  await db.execute(sql`insert into quiz_attempts (quiz_id, student_id, started_at, ends_at, layout, answers,
      submitted_at, ended_by, score, accuracy, time_taken_seconds)
    values (${QUIZ}, ${DONE}, now() - interval '20 minutes', now() - interval '10 minutes',
      ${JSON.stringify(LAYOUT)}::jsonb, '{"q1":"4","q2":"Rome","q3":"gone"}'::jsonb,
      now() - interval '15 minutes', 'submitted', 1, 33.33, 300)`);
  // In progress: q1 answered wrong so far.
  await db.execute(sql`insert into quiz_attempts (quiz_id, student_id, started_at, ends_at, layout, answers)
    values (${QUIZ}, ${RUNNING}, now() - interval '1 minute', now() + interval '9 minutes',
      ${JSON.stringify(LAYOUT)}::jsonb, '{"q1":"5"}'::jsonb)`);
}

describe('migration 0019: question types', { timeout: patience(120_000) }, () => {
  it('turns questions into single choice with option ids, maps attempts to ids, and keeps every score', async () => {
    const t = await migratedFromPrevious(seedOldSchool);
    const db = t.database.db;

    const [quiz] = rowsOf<{ questions: unknown; total_points: string }>(
      await db.execute(sql`select questions, total_points from quizzes where id = ${QUIZ}::uuid`),
    );
    expect(quiz!.questions).toEqual([
      {
        _id: 'q1',
        type: 'single',
        question_text: 'What is 2 + 2?',
        points: 1,
        options: [
          { _id: expect.stringMatching(OPAQUE_ID), text: '4', correct: true },
          { _id: expect.stringMatching(OPAQUE_ID), text: '5', correct: false },
        ],
      },
      {
        _id: 'q2',
        type: 'single',
        question_text: 'Capital of France?',
        points: 1,
        options: [
          { _id: expect.stringMatching(OPAQUE_ID), text: 'Paris', correct: true },
          { _id: expect.stringMatching(OPAQUE_ID), text: 'Rome', correct: false },
        ],
      },
      {
        _id: 'q3',
        type: 'single',
        question_text: 'A prime?',
        points: 1,
        options: [
          { _id: expect.stringMatching(OPAQUE_ID), text: '7', correct: true },
          { _id: expect.stringMatching(OPAQUE_ID), text: '8', correct: false },
          { _id: expect.stringMatching(OPAQUE_ID), text: '9', correct: false },
        ],
      },
    ]);
    expect(Number(quiz!.total_points)).toBe(3);
    /** The id an option of a question has now, by its text. */
    const stored = quiz!.questions as { _id: string; options: { _id: string; text: string }[] }[];
    const id = (questionId: string, text: string) =>
      stored.find((question) => question._id === questionId)!.options.find((option) => option.text === text)!._id;

    const attempts = rowsOf<{
      student_id: string;
      layout: unknown;
      answers: unknown;
      score: string | null;
      accuracy: string | null;
    }>(
      await db.execute(sql`select student_id, layout, answers, score, accuracy from quiz_attempts order by student_id`),
    );
    const idLayout = LAYOUT.map((entry) => ({
      questionId: entry.questionId,
      options: entry.options.map((text) => id(entry.questionId, text)),
    }));
    expect(attempts[0]).toMatchObject({
      student_id: DONE,
      layout: idLayout,
      answers: { q1: id('q1', '4'), q2: id('q2', 'Rome') },
    });
    expect([Number(attempts[0]!.score), Number(attempts[0]!.accuracy)]).toEqual([1, 33.33]);
    expect(attempts[1]).toMatchObject({
      student_id: RUNNING,
      layout: idLayout,
      answers: { q1: id('q1', '5') },
      score: null,
    });

    // The finished student's review and averages are what they were.
    const done = bearer(await signSessionToken({ id: DONE, role: 'student' }));
    const review = await t.call({ method: 'GET', url: `/api/quiz/${QUIZ}`, headers: done });
    expect(review.status, review.raw).toBe(200);
    expect(review.body.data).toMatchObject({
      totalPoints: 3,
      attempt: { status: 'submitted', score: 1, accuracy: '33.33' },
    });
    const reviewed = review.body.data.quiz.questions as QuizQuestion[];
    expect(reviewed.map((question) => [question._id, question.response, question.earnedPoints])).toEqual([
      ['q3', null, 0],
      ['q1', id('q1', '4'), 1],
      ['q2', id('q2', 'Rome'), 0],
    ]);
    const statistics = await t.call({ method: 'GET', url: '/api/student/statistics', headers: done });
    expect(statistics.body.data).toMatchObject({ quizzesAttempted: 1, averageScore: 1, averageAccuracy: 33.33 });

    // The running attempt resumes in its order with its answer, takes more, and is scored by points.
    const running = bearer(await signSessionToken({ id: RUNNING, role: 'student' }));
    const resumed = await t.call({ method: 'GET', url: `/api/quiz/${QUIZ}`, headers: running });
    expect(resumed.body.data.attempt).toMatchObject({ status: 'in-progress' });
    const shown = resumed.body.data.quiz.questions as QuizQuestion[];
    expect(
      shown.map((question) => [question._id, question.options!.map((option) => option.text), question.response]),
    ).toEqual([
      ['q3', ['9', '7', '8'], null],
      ['q1', ['5', '4'], id('q1', '5')],
      ['q2', ['Rome', 'Paris'], null],
    ]);
    expect(resumed.raw).not.toContain('"correct"');
    const saved = await t.call({
      method: 'PUT',
      url: `/api/quiz/${QUIZ}/answers`,
      headers: running,
      payload: { answers: { q3: id('q3', '7') } },
    });
    expect(saved.status, saved.raw).toBe(200);
    // A SPEC §7 client still submits by option text.
    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: running,
      payload: { quiz: { _id: QUIZ, questions: [{ _id: 'q2', selectedOption: 'Paris' }] } },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    expect(submitted.body.data.attempt).toMatchObject({ score: 2, accuracy: '66.67' });
    const runningStatistics = await t.call({ method: 'GET', url: '/api/student/statistics', headers: running });
    expect(runningStatistics.body.data).toMatchObject({ quizzesAttempted: 1, averageScore: 2, averageAccuracy: 66.67 });
  });
});
