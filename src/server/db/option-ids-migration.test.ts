import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isChoiceQuestion, type AnswerValue, type StoredQuestion } from '#shared/question-types';
import { scoreAttempt } from '#shared/question-scoring';
import type { QuizQuestion } from '#shared/quizzes';
import { OPAQUE_ID } from '../testing/factories.ts';
import { migrationFrom } from '../testing/migrated-database.ts';
import { patience } from '../testing/patience.ts';
import { signSessionToken } from '../testing/session-tokens.ts';
import { bearer } from '../testing/test-app.ts';
import type { DatabaseHandle } from './client.ts';
import type { AttemptLayout } from './schema.ts';

/**
 * Migration 0021 (issue 30 point 2, decision 039) on the demo school that today's
 * `npm run seed` made, with attempts in progress added (fixtures/seed-0020.sql, see
 * fixtures/README.md): option ids o1…oN become random ones, and the attempts' layouts and saved
 * answers follow. Every attempt scores as before, each option was chosen as often as before,
 * every student still sees their options in their order, and an open attempt resumes, saves by
 * the new ids and is scored by the real closing. PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */

const FIXTURE = new URL('./fixtures/seed-0020.sql', import.meta.url);
const migratedFromSeed = migrationFrom('0020_quiz-lifecycle', 'studyhall_seed0020');

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

type QuizData = { id: string; version: number; questions: StoredQuestion[] };
type AttemptData = {
  quiz_id: string;
  student_id: string;
  layout: AttemptLayout;
  answers: Record<string, AnswerValue>;
  score: string | null;
  submitted_at: string | null;
};
type Snapshot = {
  quizzes: Map<string, QuizData>;
  attempts: AttemptData[];
  /** quiz|student → the score its saved answers earn, by the app's own scoring. */
  scores: Map<string, number>;
  /** quiz|question|option text → how many attempts chose it (what the analytics count). */
  chosen: Map<string, number>;
  /** quiz|student → the option texts in the order the student sees them. */
  shown: Map<string, string>;
};

async function snapshot(db: DatabaseHandle['db']): Promise<Snapshot> {
  const quizzes = new Map(
    rowsOf<QuizData>(await db.execute(sql`select id, version, questions from quizzes`)).map((quiz) => [quiz.id, quiz]),
  );
  const attempts = rowsOf<AttemptData>(
    await db.execute(sql`select quiz_id, student_id, layout, answers, score::text, submitted_at::text from quiz_attempts
      order by quiz_id, student_id`),
  );
  const scores = new Map<string, number>();
  const chosen = new Map<string, number>();
  const shown = new Map<string, string>();
  for (const attempt of attempts) {
    const key = `${attempt.quiz_id}|${attempt.student_id}`;
    const questions = quizzes.get(attempt.quiz_id)!.questions;
    scores.set(key, scoreAttempt(questions, attempt.answers).score);
    const byId = new Map(questions.map((question) => [question._id, question]));
    const textOf = (question: StoredQuestion, optionId: string) =>
      isChoiceQuestion(question) ? question.options.find((option) => option._id === optionId)?.text : undefined;
    for (const [questionId, value] of Object.entries(attempt.answers)) {
      const question = byId.get(questionId)!;
      for (const id of Array.isArray(value) ? value : [value]) {
        const label = typeof id === 'string' ? (textOf(question, id) ?? `typed:${id}`) : `value:${JSON.stringify(id)}`;
        const counted = `${attempt.quiz_id}|${questionId}|${label}`;
        chosen.set(counted, (chosen.get(counted) ?? 0) + 1);
      }
    }
    shown.set(
      key,
      attempt.layout
        .map(
          (entry) =>
            `${entry.questionId}:${entry.options.map((id) => textOf(byId.get(entry.questionId)!, id)).join(',')}`,
        )
        .join(' '),
    );
  }
  return { quizzes, attempts, scores, chosen, shown };
}

let before: Snapshot;

/** Loads the fixture at migration 0020, gives the attempts in progress time left, and reads what must stay. */
async function loadSeed(handle: DatabaseHandle) {
  const statements = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('INSERT '));
  for (const statement of statements) await handle.db.execute(sql.raw(statement));
  // The fixture was made on one day: its quizzes open and its open attempts running today.
  await handle.db.execute(sql`update quizzes set deadline = now() + interval '7 days',
    closes_at = now() + interval '7 days' + make_interval(mins => max_time_minutes) + interval '1 hour'`);
  await handle.db.execute(sql`update quiz_attempts set ends_at = now() + interval '1 hour' where submitted_at is null`);
  before = await snapshot(handle.db);
}

describe('migration 0021: option ids without order, on the demo seed', { timeout: patience(180_000) }, () => {
  it('gives every option a random id, keeps every score, count and order, and open attempts go on', async () => {
    const t = await migratedFromSeed(loadSeed);
    const db = t.database.db;
    // The fixture is what the issue describes: ids by position, attempts submitted and open.
    const optionsBefore = [...before.quizzes.values()].flatMap((quiz) =>
      quiz.questions.flatMap((question) => (isChoiceQuestion(question) ? question.options : [])),
    );
    expect(optionsBefore.length).toBeGreaterThan(50);
    expect(optionsBefore.every((option) => /^o\d+$/.test(option._id))).toBe(true);
    expect(before.attempts.filter((attempt) => attempt.submitted_at === null).length).toBe(7);
    expect(before.attempts.length).toBe(68);

    const after = await snapshot(db);
    expect([...after.quizzes.keys()].sort()).toEqual([...before.quizzes.keys()].sort());
    for (const [id, quiz] of after.quizzes) {
      const old = before.quizzes.get(id)!;
      // Only option ids changed; the version moved on, so an edit opened before is stale.
      expect(quiz.version).toBe(old.version + 1);
      expect(quiz.questions.length).toBe(old.questions.length);
      quiz.questions.forEach((question, index) => {
        const oldQuestion = old.questions[index]!;
        if (!isChoiceQuestion(question) || !isChoiceQuestion(oldQuestion)) {
          expect(question).toEqual(oldQuestion);
          return;
        }
        const ids = question.options.map((option) => option._id);
        for (const optionId of ids) {
          expect(optionId).toMatch(OPAQUE_ID);
          expect(optionId).not.toMatch(/^o\d+$/);
        }
        expect(new Set(ids).size).toBe(ids.length);
        expect(question.options.map(({ _id: _ignored, ...rest }) => rest)).toEqual(
          oldQuestion.options.map(({ _id: _ignored, ...rest }) => rest),
        );
        // Every layout of the quiz names exactly the question's new ids.
        for (const attempt of after.attempts.filter((row) => row.quiz_id === id)) {
          const entry = attempt.layout.find((shown) => shown.questionId === question._id)!;
          expect([...entry.options].sort()).toEqual([...ids].sort());
        }
      });
    }
    expect(after.attempts.map((attempt) => [attempt.quiz_id, attempt.student_id, attempt.score])).toEqual(
      before.attempts.map((attempt) => [attempt.quiz_id, attempt.student_id, attempt.score]),
    );
    // The saved answers score what they scored (and what was stored for the submitted ones).
    expect(after.scores).toEqual(before.scores);
    for (const attempt of after.attempts.filter((row) => row.score !== null))
      expect(after.scores.get(`${attempt.quiz_id}|${attempt.student_id}`)).toBe(Number(attempt.score));
    expect(after.chosen).toEqual(before.chosen);
    expect(after.chosen.size).toBeGreaterThan(20);
    expect(after.shown).toEqual(before.shown);

    // An open attempt of the all-or-nothing quiz resumes in its order with its answers, saves by the
    // new ids, and the real submission scores the saved answers as computed above.
    const open = after.attempts.find(
      (attempt) =>
        attempt.submitted_at === null &&
        after.quizzes.get(attempt.quiz_id)!.questions.some((question) => question.type === 'multiple'),
    )!;
    const student = bearer(await signSessionToken({ id: open.student_id, role: 'student' }));
    const resumed = await t.call({ method: 'GET', url: `/api/quiz/${open.quiz_id}`, headers: student });
    expect(resumed.status, resumed.raw).toBe(200);
    expect(resumed.body.data.attempt).toMatchObject({ status: 'in-progress' });
    const questions = resumed.body.data.quiz.questions as QuizQuestion[];
    expect(questions.map((question) => [question._id, question.response])).toEqual(
      open.layout.map((entry) => [entry.questionId, open.answers[entry.questionId] ?? null]),
    );
    const single = questions.find((question) => question.type === 'single')!;
    const changed = single.options!.find((option) => option._id !== single.response)!._id;
    const saved = await t.call({
      method: 'PUT',
      url: `/api/quiz/${open.quiz_id}/answers`,
      headers: student,
      payload: { answers: { [single._id]: changed } },
    });
    expect(saved.status, saved.raw).toBe(200);
    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: student,
      payload: { quiz: { _id: open.quiz_id, questions: [] } },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    const quiz = after.quizzes.get(open.quiz_id)!;
    expect(submitted.body.data.attempt.score).toBe(
      scoreAttempt(quiz.questions, { ...open.answers, [single._id]: changed }).score,
    );
  });
});
