import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';
import { reviewOf } from '../features/quizzes/review-rules.ts';

/**
 * Answer keys in responses. A question's key may reach its quiz's author, and a student
 * only inside the review of their own submitted attempt, when the quiz's review options let it
 * out (reviewOf, decision 032: the same function the presenters ask). The check
 * is structural: any object of a response with an `answer` is a key for the question whose
 * `_id` it carries, and that question must be one the caller may see the key of.
 */

/**
 * Whether an object carries a piece of an answer key (issue 20): an option's or a true-false
 * question's `correct` flag, short-text `accepted` answers, a numeric `value` with its
 * `tolerance`, a matching prompt's `match`, SPEC §3's `answer` text, or what a question earned (issue 30 point 1). Only values of those types count: in the OpenAPI
 * document the same names hold schemas (objects), not keys.
 */
function carriesKey(record: Record<string, unknown>): boolean {
  return (
    typeof record.correct === 'boolean' ||
    // What a question earned, or whether it was right, is its key (a true-false question's points are its answer).
    typeof record.earnedPoints === 'number' ||
    typeof record.isCorrect === 'boolean' ||
    typeof record.answer === 'string' ||
    typeof record.tolerance === 'number' ||
    (Array.isArray(record.accepted) && record.accepted.every((item) => typeof item === 'string')) ||
    (typeof record.value === 'number' && typeof record.question_text === 'string') ||
    // A matching prompt's match (decision 045): the choice that belongs to it.
    (typeof record.match === 'string' && typeof record.text === 'string')
  );
}

/**
 * The question `_id` of every piece of a key in `body` (an option's key is its question's; a
 * key outside any question is reported as "?").
 */
export function answerKeysIn(body: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number, questionId: string | undefined) => {
    if (depth > 64 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((item) => visit(item, depth + 1, questionId));
    const record = value as Record<string, unknown>;
    const isQuestion = typeof record.question_text === 'string' && typeof record._id === 'string';
    const owner = isQuestion ? (record._id as string) : questionId;
    if (carriesKey(record)) found.add(owner ?? (typeof record._id === 'string' ? record._id : '?'));
    for (const item of Object.values(record)) visit(item, depth + 1, owner);
  };
  visit(body, 0, undefined);
  return [...found];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

type QuestionsRow = {
  questions: { _id: string }[];
  submitted_at: string | Date | null;
  closes_at: string | Date;
  review_answers: 'after-deadline' | 'after-submit' | 'never';
  review_score: 'after-submit' | 'after-deadline';
};

/** Question ids whose keys the caller may see now: of quizzes they wrote, or whose review shows the key. */
export async function visibleAnswerKeys(
  database: Pick<DatabaseHandle, 'db'>,
  caller: { id: string | null; role: 'teacher' | 'student' | null },
): Promise<Set<string>> {
  if (!caller.id || !caller.role) return new Set();
  if (caller.role === 'teacher') {
    const rows = rowsOf<{ id: string }>(
      await database.db.execute(sql`select jsonb_array_elements(questions) ->> '_id' as id
        from quizzes where created_by_teacher_id = ${caller.id}`),
    );
    return new Set(rows.map((row) => row.id));
  }
  const rows = rowsOf<QuestionsRow>(
    await database.db.execute(sql`select q.questions, a.submitted_at, q.closes_at,
        q.review_answers, q.review_score
      from quizzes q join quiz_attempts a on a.quiz_id = q.id
      where a.student_id = ${caller.id} and a.submitted_at is not null`),
  );
  const now = new Date();
  const visible = rows.filter((row) => {
    const quiz = {
      closesAt: new Date(row.closes_at),
      reviewAnswers: row.review_answers,
      reviewScore: row.review_score,
    };
    const attempt = { submittedAt: row.submitted_at === null ? null : new Date(row.submitted_at) };
    return reviewOf(quiz, attempt, now).showsAnswers;
  });
  return new Set(visible.flatMap((row) => row.questions.map((question) => question._id)));
}

/** Keys in `body` the caller may not see: empty when the response is clean. */
export async function foreignAnswerKeys(
  database: Pick<DatabaseHandle, 'db'>,
  caller: { id: string | null; role: 'teacher' | 'student' | null },
  body: unknown,
): Promise<string[]> {
  const keys = answerKeysIn(body);
  if (keys.length === 0) return [];
  const visible = await visibleAnswerKeys(database, caller);
  return keys.filter((questionId) => !visible.has(questionId));
}
