import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.ts';
import { reviewOf } from '../features/quizzes/review-rules.ts';

/**
 * Answer keys in responses. A question's key may reach its quiz's author, and a student
 * only inside the review of their own submitted attempt, when the quiz's review options let it
 * out (reviewOf, decision 032: the same function the presenters ask). An essay's marking
 * guidance (decision 046) may reach the teachers of the quiz's class, who mark it, and never a
 * student. The check is structural: any object of a response with an `answer` is a key for the
 * question whose `_id` it carries, and that question must be one the caller may see the key of.
 */

/**
 * Whether an object carries a piece of an answer key (issue 20): an option's or a true-false
 * question's `correct` flag, an option's Moodle `weight` (decision 043), short-text `accepted`
 * answers and their `wildcards` flag (decision 049), a numeric `value` with its `tolerance`,
 * short and number answers worth part or all of the points (`partial`, decision 043), a
 * matching prompt's `match` or a pair as the editor writes it (decision 045), SPEC §3's
 * `answer` text, or what a question earned (issue 30 point 1). Only values of those types
 * count: in the OpenAPI document the same names hold schemas (objects), not keys.
 */
function carriesKey(record: Record<string, unknown>): boolean {
  return (
    typeof record.correct === 'boolean' ||
    // What a question earned, or whether it was right, is its key (a true-false question's points are its answer).
    typeof record.earnedPoints === 'number' ||
    typeof record.isCorrect === 'boolean' ||
    typeof record.answer === 'string' ||
    typeof record.tolerance === 'number' ||
    // A Moodle weight tells the right options from the wrong ones as well as `correct` does.
    typeof record.weight === 'number' ||
    (Array.isArray(record.accepted) && record.accepted.every((item) => typeof item === 'string')) ||
    // Whether the accepted answers' stars are wildcards belongs with them.
    typeof record.wildcards === 'boolean' ||
    (Array.isArray(record.partial) && record.partial.length > 0) ||
    (typeof record.value === 'number' && typeof record.question_text === 'string') ||
    // A matching prompt's match (decision 045): the choice that belongs to it; a pair, prompt and match together.
    (typeof record.match === 'string' && (typeof record.text === 'string' || typeof record.prompt === 'string')) ||
    (Array.isArray(record.pairs) && record.pairs.length > 0)
  );
}

/** An essay's marking guidance (decision 046): for whoever marks it, never for a student. */
const carriesGuidance = (record: Record<string, unknown>) => typeof record.guidance === 'string';

/** Question ids of `body`'s keys and of its marking guidance (a key outside any question is "?"). */
function keysAndGuidanceIn(body: unknown): { keys: Set<string>; guidance: Set<string> } {
  const keys = new Set<string>();
  const guidance = new Set<string>();
  const visit = (value: unknown, depth: number, questionId: string | undefined) => {
    if (depth > 64 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach((item) => visit(item, depth + 1, questionId));
    const record = value as Record<string, unknown>;
    // A field error speaks of the request (its `params`, e.g. a file type's `accepted` types): no key.
    if (typeof record.field === 'string' && typeof record.code === 'string' && typeof record.message === 'string')
      return;
    const isQuestion = typeof record.question_text === 'string' && typeof record._id === 'string';
    const owner = isQuestion ? (record._id as string) : questionId;
    const id = owner ?? (typeof record._id === 'string' ? record._id : '?');
    if (carriesKey(record)) keys.add(id);
    if (carriesGuidance(record)) guidance.add(id);
    for (const item of Object.values(record)) visit(item, depth + 1, owner);
  };
  visit(body, 0, undefined);
  return { keys, guidance };
}

/**
 * The question `_id` of every piece of a key or of marking guidance in `body` (an option's key
 * is its question's; a key outside any question is reported as "?").
 */
export function answerKeysIn(body: unknown): string[] {
  const { keys, guidance } = keysAndGuidanceIn(body);
  return [...new Set([...keys, ...guidance])];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

type QuestionsRow = {
  questions: { _id: string }[];
  submitted_at: string | Date | null;
  closes_at: string | Date;
  review_answers: 'after-deadline' | 'after-submit' | 'never';
  review_score: 'after-submit' | 'after-deadline';
};

/**
 * Question ids whose keys the caller may see now: of quizzes they wrote, or whose review shows
 * the key; and whose marking guidance they may see: of quizzes of the classes they teach.
 */
export async function visibleAnswerKeys(
  database: Pick<DatabaseHandle, 'db'>,
  caller: { id: string | null; role: 'teacher' | 'student' | null },
): Promise<{ keys: Set<string>; guidance: Set<string> }> {
  if (!caller.id || !caller.role) return { keys: new Set(), guidance: new Set() };
  if (caller.role === 'teacher') {
    const rows = rowsOf<{ id: string; own: boolean }>(
      await database.db.execute(sql`select jsonb_array_elements(q.questions) ->> '_id' as id,
          q.created_by_teacher_id = ${caller.id} as own
        from quizzes q
        where q.created_by_teacher_id = ${caller.id}
          or exists (select 1 from class_teachers ct where ct.class_id = q.class_id and ct.teacher_id = ${caller.id})`),
    );
    return {
      keys: new Set(rows.filter((row) => row.own).map((row) => row.id)),
      guidance: new Set(rows.map((row) => row.id)),
    };
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
  return {
    keys: new Set(visible.flatMap((row) => row.questions.map((question) => question._id))),
    guidance: new Set(),
  };
}

/** Keys (and marking guidance) in `body` the caller may not see: empty when the response is clean. */
export async function foreignAnswerKeys(
  database: Pick<DatabaseHandle, 'db'>,
  caller: { id: string | null; role: 'teacher' | 'student' | null },
  body: unknown,
): Promise<string[]> {
  const { keys, guidance } = keysAndGuidanceIn(body);
  if (keys.size === 0 && guidance.size === 0) return [];
  const visible = await visibleAnswerKeys(database, caller);
  return [
    ...[...keys].filter((questionId) => !visible.keys.has(questionId)),
    ...[...guidance].filter((questionId) => !visible.guidance.has(questionId)).map((id) => `${id} (guidance)`),
  ];
}
