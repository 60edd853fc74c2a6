import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { scoreAttempt, type EssayMarks } from '#shared/question-scoring';
import type { Database } from '../../db/client.ts';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import {
  liveAnswers,
  liveGames,
  livePlayers,
  quizAttempts,
  quizEssayMarks,
  quizzes,
  students,
  type QuizAttemptRow,
  type StoredQuestion,
} from '../../db/schema.ts';
import { closeAttempt, isPastGrace, type AttemptClosing, type ClosingRequest } from './attempt-rules.ts';
import { isScoreReleased } from './review-rules.ts';
import { findAttempt, GRACE, type Queryable } from './quiz-records.ts';

/**
 * Grading: scoring answers, closing attempts and keeping the students' stored averages true
 * after any score changes. The one place a submission, the timer, an edit's regrade, a live
 * game or a teacher's hand marking go through to score an attempt or move an average:
 *
 * - writeClosings: close these attempts and score them (inside the caller's transaction);
 * - rescoreSubmittedAttempts: score a quiz's submitted attempts again on new questions;
 * - lockStudents then recomputeAverages: after any change to submitted scores;
 * - scoresChangedTags: what the read cache must drop after such a change commits.
 *
 * Every writer takes the locks in one order, quizzes, then students, then attempts, each in
 * id order, so none can deadlock another (decision 036).
 */

/** How many expired attempts one sweep closes; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

/**
 * Closes attempts and refreshes their students' leaderboard aggregates, in four statements
 * whatever their number; call it inside a transaction. Returns what was closed here: an
 * attempt already closed by someone else (a racing submit or sweep) is left alone.
 *
 * The answers scored are read under the attempt's row lock, never before it. An answer save
 * is one UPDATE of the open attempt: one that committed first is read here; one that comes
 * after waits for the lock, then finds the attempt closed and changes nothing (409). So every
 * save that was acknowledged is in the scored attempt (issue 17).
 */
export async function writeClosings(tx: Queryable, requests: ClosingRequest[]): Promise<AttemptClosing[]> {
  if (requests.length === 0) return [];
  // The quizzes first, shared (decision 036): an edit holds its quiz's row for update while it
  // changes the key and rescores, so a closing is scored on the questions before the edit or
  // after it, never on a copy read earlier. Every writer takes quizzes, then students, then
  // attempts, each in id order, so none can deadlock another.
  const quizRows = await tx
    .select({ id: quizzes.id, questions: quizzes.questions })
    .from(quizzes)
    .where(inArray(quizzes.id, [...new Set(requests.map((request) => request.quizId))].sort()))
    .orderBy(asc(quizzes.id))
    .for('share');
  const questionsOf = new Map(quizRows.map((row) => [row.id, row.questions]));
  // Then the students (in id order, so concurrent closings cannot deadlock): under READ
  // COMMITTED, a second closing for the same student then waits and recomputes from a
  // snapshot that includes the first one's attempt, instead of overwriting it with stale averages.
  await lockStudents(
    tx,
    requests.map((request) => request.studentId),
  );
  // Then the attempts, still open, in id order (answer saves lock only their own attempt).
  const open = await tx
    .select({
      id: quizAttempts.id,
      studentId: quizAttempts.studentId,
      startedAt: quizAttempts.startedAt,
      endsAt: quizAttempts.endsAt,
      answers: quizAttempts.answers,
    })
    .from(quizAttempts)
    .where(
      and(
        inArray(
          quizAttempts.id,
          requests.map((request) => request.attemptId),
        ),
        isNull(quizAttempts.endedBy),
      ),
    )
    .orderBy(asc(quizAttempts.id))
    .for('update');
  const requestOf = new Map(requests.map((request) => [request.attemptId, request]));
  const closings = open.flatMap((attempt) => {
    const request = requestOf.get(attempt.id)!;
    const questions = questionsOf.get(request.quizId);
    // Its quiz was deleted with its results meanwhile (the attempt went with it).
    if (!questions) return [];
    const answers = { ...attempt.answers, ...request.submitted };
    return [closeAttempt(attempt, questions, answers, request.endedBy, request.now, Object.keys(request.submitted))];
  });
  if (closings.length === 0) return [];
  const values = sql.join(
    closings.map(
      (closing) =>
        sql`(${closing.attemptId}::uuid, ${closing.submittedAt.toISOString()}::timestamptz, ${closing.endedBy},
          ${closing.score}::numeric, ${closing.accuracy}::numeric, ${closing.timeTakenSeconds}::int,
          ${JSON.stringify(closing.answers)}::jsonb, ${JSON.stringify(closing.answerTimes)}::jsonb,
          ${closing.essays.length}::smallint)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${quizAttempts} as a set
      submitted_at = v.submitted_at, ended_by = v.ended_by, score = v.score,
      accuracy = v.accuracy, time_taken_seconds = v.time_taken, answers = v.answers,
      -- A question first answered by the submission itself is timed at it; earlier saves keep theirs.
      answer_times = v.answer_times || a.answer_times, essays_awaiting = v.essays_awaiting
    from (values ${values}) as v(id, submitted_at, ended_by, score, accuracy, time_taken, answers, answer_times,
      essays_awaiting)
    where a.id = v.id`);
  // The answered essays wait for a teacher's mark (decision 046), in the closing's transaction.
  const essays = closings.flatMap((closing) =>
    closing.essays.map((essay) => ({
      attemptId: closing.attemptId,
      quizId: requestOf.get(closing.attemptId)!.quizId,
      questionId: essay.questionId,
      position: essay.position,
      submittedAt: closing.submittedAt,
    })),
  );
  if (essays.length > 0) await tx.insert(quizEssayMarks).values(essays).onConflictDoNothing();
  await recomputeAverages(
    tx,
    closings.map((closing) => closing.studentId),
  );
  return closings;
}

/** Locks students' rows for update, in id order (every writer's order: see writeClosings). */
export async function lockStudents(tx: Queryable, studentIds: string[]) {
  const sorted = [...new Set(studentIds)].sort();
  if (sorted.length === 0) return;
  await tx.execute(
    sql`select id from ${students} where id in (${sql.join(
      sorted.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) order by id for update`,
  );
}

/**
 * The results that count toward the leaderboards of the students in `ids` (a SQL list of uuids),
 * one row per result, (student_id, score, accuracy), on one scale:
 *
 * - each submitted attempt whose score is released (decision 032) and final (no essay awaiting
 *   its mark, decision 046): its score (points earned) and accuracy (percent of the points);
 * - each ended live game that counts toward the leaderboard (decision 068) for each of its players
 *   not removed who answered at least one question: the points the quiz's own scoring gives their
 *   answers (the fraction of each question's points, times those points) and their percent of the
 *   points of the questions they could answer (those played from the one after they joined).
 *
 * A student's games are found by live_players_student_idx, each game by its key, each answer
 * by live_answers' key: never a scan of the games.
 */
function countedResults(ids: SQL) {
  return sql`
    select a.student_id, a.score::numeric as score, a.accuracy::numeric as accuracy
    from ${quizAttempts} as a
    join ${quizzes} as q on q.id = a.quiz_id and q.scores_released
    where a.submitted_at is not null and a.essays_awaiting = 0 and a.student_id in (${ids})
    union all
    select p.student_id, round(r.earned::numeric, 2) as score,
           case when r.possible > 0 then round(round(r.earned::numeric, 2) * 100 / r.possible::numeric, 2)
                else 0 end as accuracy
    from ${livePlayers} as p
    join ${liveGames} as g on g.id = p.game_id and g.state = 'ended' and g.counts_toward_leaderboard
    cross join lateral (
      select sum(coalesce(la.fraction, 0) * (question.value ->> 'points')::float8) as earned,
             sum((question.value ->> 'points')::float8) as possible,
             count(la.student_id) as answered
      from jsonb_array_elements(g.questions) with ordinality as question(value, position)
      left join ${liveAnswers} as la on la.game_id = p.game_id and la.student_id = p.student_id
        and la.question_id = question.value ->> '_id'
      -- The questions played (up to the last one opened) from the player's first.
      where question.position - 1 between p.first_index and g.current_index
    ) as r
    where p.student_id in (${ids}) and not p.removed and r.answered > 0`;
}

/**
 * The students' stored averages, recomputed from their results rather than incremented:
 * always equal to the truth. Only released scores count (decision 032): a score the student
 * may not see yet must not move their average, rank or totals. An ended live game that counts
 * is one more result (decision 068; countedResults). The caller holds the students' row locks.
 */
export async function recomputeAverages(tx: Queryable, affected: string[], options: { resultsRemoved?: boolean } = {}) {
  const studentIds = [...new Set(affected)];
  if (studentIds.length === 0) return;
  const ids = sql.join(
    studentIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${students} as s set
      average_score = agg.average_score, average_accuracy = agg.average_accuracy,
      total_score = agg.total_score, quizzes_attempted = agg.attempted
    from (
      -- Rounded once here (2 decimals, half up), so every screen shows the same figure.
      select student_id, round(avg(score), 2)::float8 as average_score,
             round(avg(accuracy), 2)::float8 as average_accuracy,
             sum(score)::float8 as total_score, count(*)::int as attempted
      from (${countedResults(ids)}) as counted
      group by student_id
    ) as agg
    where s.id = agg.student_id`);
  // Only a deletion or a game no longer counting takes results away (decisions 036, 068): a
  // student left with none goes back to zero. Closings and releases only add, so they skip this.
  if (options.resultsRemoved) {
    await tx.execute(sql`
      update ${students} as s set average_score = 0, average_accuracy = 0, total_score = 0, quizzes_attempted = 0
      where s.id in (${ids}) and s.quizzes_attempted <> 0
        and s.id not in (select student_id from (${countedResults(ids)}) as counted)`);
  }
}

/**
 * After a change to which ended live games count (decision 068): locks the players (not removed)
 * of `gameIds`, in the students' order, and recomputes their averages; returns them. The caller
 * holds the games' rows (every writer's order: games, then students), so no player joins or
 * leaves meanwhile; `resultsRemoved` when a game stops counting or goes.
 */
export async function recomputeGamePlayers(
  tx: Queryable,
  gameIds: string[],
  options: { resultsRemoved?: boolean } = {},
): Promise<string[]> {
  if (gameIds.length === 0) return [];
  const players = await tx
    .select({ studentId: livePlayers.studentId })
    .from(livePlayers)
    .where(and(inArray(livePlayers.gameId, gameIds), eq(livePlayers.removed, false)));
  const studentIds = [...new Set(players.map((player) => player.studentId))];
  await lockStudents(tx, studentIds);
  await recomputeAverages(tx, studentIds, options);
  return studentIds;
}

/**
 * Rescores every submitted attempt of a quiz on `questions`, writes those whose score changed
 * and returns their students (for recomputeAverages, after lockStudents). The caller holds the
 * quiz's row for update, so no attempt closes meanwhile; answers name options by id, so they
 * stand as they are.
 */
export async function rescoreSubmittedAttempts(
  tx: Queryable,
  quizId: string,
  questions: StoredQuestion[],
): Promise<{ changedStudents: string[]; attemptsChanged: number }> {
  const attempters = await tx
    .select({ studentId: quizAttempts.studentId })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.submittedAt)));
  await lockStudents(
    tx,
    attempters.map((row) => row.studentId),
  );
  const attempts = await tx
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.submittedAt)))
    .orderBy(asc(quizAttempts.id))
    .for('update');
  // Teachers' marks are kept (decision 046); one above an essay's new points comes down to them.
  const marks = await capAndReadMarks(tx, quizId, questions);
  const changed = attempts.flatMap((attempt) => {
    const { score, accuracy } = scoreAttempt(questions, attempt.answers, marks.get(attempt.id));
    const same = score === Number(attempt.score) && Number(accuracy) === Number(attempt.accuracy);
    return same ? [] : [{ attempt, score, accuracy }];
  });
  if (changed.length > 0) {
    const values = sql.join(
      changed.map((entry) => sql`(${entry.attempt.id}::uuid, ${entry.score}::numeric, ${entry.accuracy}::numeric)`),
      sql`, `,
    );
    await tx.execute(sql`
      update ${quizAttempts} as a set score = v.score, accuracy = v.accuracy
      from (values ${values}) as v(id, score, accuracy)
      where a.id = v.id`);
  }
  return {
    changedStudents: changed.map((entry) => entry.attempt.studentId),
    attemptsChanged: changed.length,
  };
}

/**
 * The marks of a quiz's essays by attempt (question id → points), after bringing any mark above
 * its essay's points down to them (an edit may lower the points; the teacher's mark stays
 * otherwise). The caller holds the quiz's row for update.
 */
async function capAndReadMarks(tx: Queryable, quizId: string, questions: StoredQuestion[]) {
  const essays = questions.filter((question) => question.type === 'essay');
  const byAttempt = new Map<string, EssayMarks>();
  if (essays.length === 0) return byAttempt;
  for (const essay of essays) {
    await tx
      .update(quizEssayMarks)
      .set({ points: essay.points, version: sql`${quizEssayMarks.version} + 1` })
      .where(
        and(
          eq(quizEssayMarks.quizId, quizId),
          eq(quizEssayMarks.questionId, essay._id),
          gt(quizEssayMarks.points, essay.points),
        ),
      );
  }
  const rows = await tx
    .select({
      attemptId: quizEssayMarks.attemptId,
      questionId: quizEssayMarks.questionId,
      points: quizEssayMarks.points,
    })
    .from(quizEssayMarks)
    .where(and(eq(quizEssayMarks.quizId, quizId), isNotNull(quizEssayMarks.points)));
  for (const row of rows) {
    const marks = byAttempt.get(row.attemptId) ?? {};
    marks[row.questionId] = row.points!;
    byAttempt.set(row.attemptId, marks);
  }
  return byAttempt;
}

/** An attempt's essay marks (question id → points; unmarked essays absent), read inside the caller's transaction. */
export async function marksOfAttempt(tx: Queryable, attemptId: string): Promise<EssayMarks> {
  const rows = await tx
    .select({ questionId: quizEssayMarks.questionId, points: quizEssayMarks.points })
    .from(quizEssayMarks)
    .where(and(eq(quizEssayMarks.attemptId, attemptId), isNotNull(quizEssayMarks.points)));
  return Object.fromEntries(rows.map((row) => [row.questionId, row.points!]));
}

/** What the read cache drops once a change to these students' submitted scores has committed. */
export const scoresChangedTags = (studentIds: string[]) => [
  cacheTags.leaderboard,
  ...[...new Set(studentIds)].map(cacheTags.studentAttempts),
];

/** The timer ends an attempt with its saved answers (the sweep, or a late request). */
const timeUp = (attempt: Pick<QuizAttemptRow, 'id' | 'studentId' | 'quizId'>, moment: Date): ClosingRequest => ({
  attemptId: attempt.id,
  studentId: attempt.studentId,
  quizId: attempt.quizId,
  submitted: {},
  endedBy: 'time-up',
  now: moment,
});

/** Closing attempts in their own transactions, the sweep's work, and the read cache told after each commit. */
export function createQuizGrading(db: Database, cache: ReadCache) {
  const now = () => new Date();

  /**
   * writeClosings in its own transaction, then the read cache is told (after the commit, so
   * no reader can keep the old state under the new versions): the students' quiz lists and
   * every leaderboard. Returns the attempts closed here, by id.
   */
  async function commitClosings(requests: ClosingRequest[]): Promise<Map<string, AttemptClosing>> {
    const closed = await db.transaction((tx) => writeClosings(tx, requests));
    if (closed.length > 0) await cache.changed(scoresChangedTags(closed.map((closing) => closing.studentId)));
    return new Map(closed.map((closing) => [closing.attemptId, closing]));
  }

  /** The open attempts whose time and grace have run out, of everyone or of one student or quiz. */
  const expiredAttemptsQuery = (scope: 'studentId' | 'quizId' | undefined) =>
    db
      .select({ attempt: quizAttempts })
      .from(quizAttempts)
      .where(
        and(
          // The sweep reads the partial index of open attempts; a student's or a quiz's own
          // attempts are found by their index (ended_by: see the answer save in attempts.ts).
          scope === undefined ? isNull(quizAttempts.submittedAt) : isNull(quizAttempts.endedBy),
          lte(sql`${quizAttempts.endsAt} + ${GRACE}`, sql.placeholder('now')),
          scope === undefined ? undefined : eq(quizAttempts[scope], sql.placeholder('scopeId')),
        ),
      )
      .limit(SWEEP_BATCH);
  // Every quiz list asks for its student's (prepared: parsed and planned once per connection).
  const expiredAttemptsOfStudent = expiredAttemptsQuery('studentId').prepare('quizzes_expired_attempts_of_student');

  /**
   * Closes, with their saved answers, the open attempts whose time and grace have
   * run out (all of them, or those of one student or quiz), in one transaction.
   */
  async function closeExpiredAttempts(scope?: { studentId: string } | { quizId: string }): Promise<number> {
    // Looked for outside the transaction: usually there is none, and writeClosings leaves
    // alone an attempt someone else closed in between.
    const expired =
      scope === undefined
        ? await expiredAttemptsQuery(undefined).execute({ now: now() })
        : 'studentId' in scope
          ? await expiredAttemptsOfStudent.execute({ now: now(), scopeId: scope.studentId })
          : await expiredAttemptsQuery('quizId').execute({ now: now(), scopeId: scope.quizId });
    if (expired.length === 0) return 0;
    const moment = now();
    const requests = expired.map(({ attempt }) => timeUp(attempt, moment));
    return (await commitClosings(requests)).size;
  }

  /** The attempt as it stands now: one whose time ran out is closed (and committed) before anyone sees it. */
  async function currentAttempt(quizId: string, studentId: string) {
    const attempt = await findAttempt(db, quizId, studentId);
    if (!attempt || attempt.submittedAt || !isPastGrace(attempt, now())) return attempt;
    await commitClosings([timeUp(attempt, now())]);
    return findAttempt(db, quizId, studentId);
  }

  /**
   * Releases the scores of quizzes whose review_score waited for the deadline and whose
   * close has passed: their students' stored averages then count them (decision 032). One
   * transaction; the students are locked before the flag changes (writeClosings' order), so
   * a closing either recomputes after the release and sees the flag, or before it and is
   * recomputed here. Every attempt's student is listed, open ones included, for that reason.
   */
  async function releaseScores(): Promise<number> {
    const moment = now();
    const released = await db.transaction(async (tx) => {
      const waiting = await tx
        .select({
          id: quizzes.id,
          closesAt: quizzes.closesAt,
          reviewAnswers: quizzes.reviewAnswers,
          reviewScore: quizzes.reviewScore,
        })
        .from(quizzes)
        .where(
          and(
            eq(quizzes.reviewScore, 'after-deadline'),
            eq(quizzes.scoresReleased, false),
            // Only those past their close, accommodations included (decision 036): a batch of
            // quizzes still waiting must not hold back the ones that are due.
            lte(quizzes.closesAt, moment),
          ),
        )
        .orderBy(asc(quizzes.closesAt))
        .limit(SWEEP_BATCH);
      const due = waiting.filter((quiz) => isScoreReleased(quiz, moment)).map((quiz) => quiz.id);
      if (due.length === 0) return [];
      // The quizzes before the students: every writer's order (writeClosings).
      await tx
        .select({ id: quizzes.id })
        .from(quizzes)
        .where(inArray(quizzes.id, due.sort()))
        .orderBy(asc(quizzes.id))
        .for('update');
      const attempters = await tx
        .selectDistinct({ studentId: quizAttempts.studentId })
        .from(quizAttempts)
        .where(inArray(quizAttempts.quizId, due));
      const studentIds = attempters.map((row) => row.studentId);
      await lockStudents(tx, studentIds);
      // The close is tested again under the row's lock: an accommodation that moved it later
      // since the read above (it locks the row too) keeps the scores waiting.
      const releasedIds = await tx
        .update(quizzes)
        .set({ scoresReleased: true })
        .where(and(inArray(quizzes.id, due), lte(quizzes.closesAt, moment)))
        .returning({ id: quizzes.id });
      await recomputeAverages(tx, studentIds);
      return releasedIds;
    });
    if (released.length > 0) await cache.changed([cacheTags.leaderboard]);
    return released.length;
  }

  return { commitClosings, closeExpiredAttempts, currentAttempt, releaseScores };
}

export type QuizGrading = ReturnType<typeof createQuizGrading>;
