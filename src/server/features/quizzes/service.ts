import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import { DEFAULT_QUIZ_SUBJECT } from '#shared/constants';
import {
  imageKeysOf,
  isChoiceQuestion,
  toStoredQuestions,
  totalPointsOf,
  type AnswerValue,
} from '#shared/question-types';
import {
  QUIZ_LIMITS,
  totalTextOf,
  type NewQuiz,
  type SaveAnswers,
  type StudentQuizDetail,
  type StudentQuizSummary,
  type SubmitAttempt,
  type TeacherQuizDetail,
  type TeacherQuizSummary,
} from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { cacheTags, readsUncached, type ReadCache } from '../../cache/read-cache.ts';
import { cachedStudentClassIds } from '../accounts/lookups.ts';
import { inStudentClasses, isStudentOfClass, requireTaughtClass } from '../classes/records.ts';
import {
  classes,
  quizAccommodations,
  quizAttempts,
  quizRegrades,
  quizzes,
  students,
  teachers,
  type QuizAttemptRow,
  type QuizRow,
  type StoredQuestion,
} from '../../db/schema.ts';
import { accountRemoved, AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import {
  chosenAnswers,
  clearedAnswers,
  closeAttempt,
  invalidAnswer,
  isPastGrace,
  newQuestionIds,
  shuffleLayout,
  type AttemptClosing,
  type ClosingRequest,
} from './attempt-rules.ts';
import { accommodationOf, effectiveDeadlineSql, timingFor } from './accommodations.ts';
import { isScoreReleased, newQuizTiming } from './review-rules.ts';
import {
  presentStudentDetail,
  presentStudentSummary,
  presentTeacherDetail,
  presentTeacherSummary,
  type ImageSigner,
} from './presenters.ts';
import { assertQuizImagesExist, presentQuizImage } from './quiz-images.ts';
import { createFileAccess, type FileAccess } from '../resources/file-access.ts';

/** Anything that can run queries: the database or an open transaction. */
export type Queryable = Pick<Database, 'select' | 'insert' | 'update' | 'execute'>;

export type Page = { offset: number; limit: number };
export type ListedPage<T> = { items: T[]; hasMore: boolean };

const GRACE = sql.raw(`interval '${QUIZ_LIMITS.graceSeconds} seconds'`);
/** How many expired attempts one sweep closes; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

const submittedCount = sql<number>`(select count(*)::int from ${quizAttempts}
  where ${quizAttempts.quizId} = ${quizzes.id} and ${quizAttempts.submittedAt} is not null)`;

// Lists never load the questions: a quiz's text can be hundreds of kilobytes.
const { questions: _questions, ...quizSummaryColumns } = getTableColumns(quizzes);

// A list shows each attempt's state, never its questions or answers (JSON the list would parse for nothing).
const attemptStateColumns = {
  id: quizAttempts.id,
  startedAt: quizAttempts.startedAt,
  endsAt: quizAttempts.endsAt,
  submittedAt: quizAttempts.submittedAt,
  endedBy: quizAttempts.endedBy,
  score: quizAttempts.score,
  accuracy: quizAttempts.accuracy,
  timeTakenSeconds: quizAttempts.timeTakenSeconds,
};

const toPage = <T>(rows: T[], limit: number): ListedPage<T> => ({
  items: rows.slice(0, limit),
  hasMore: rows.length > limit,
});

/** Merged in SQL, so two quick saves from the same attempt never overwrite each other. */
const mergedAnswers = (cleared: SQL | Placeholder, chosen: string | Placeholder) =>
  sql`(${quizAttempts.answers} - ${cleared}::text[]) || ${chosen}::jsonb`;

/** A list of question ids as SQL text[] (the careful path; the prepared one takes a parameter). */
const textArray = (ids: string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]`;

/**
 * The answer times merged in SQL: each newly answered question gets the seconds since the
 * attempt started, and a question already timed keeps its first time (the right side of ||
 * wins, so the old object goes there). Same statement as the answers: no extra round trip.
 */
const mergedAnswerTimes = (chosen: string | Placeholder, moment: string | Placeholder) =>
  sql`coalesce((select jsonb_object_agg(question_id,
        greatest(0, round(extract(epoch from (${moment}::timestamptz - ${quizAttempts.startedAt}))))::int)
      from jsonb_object_keys(${chosen}::jsonb) as question_id), '{}'::jsonb) || ${quizAttempts.answerTimes}`;

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
async function writeClosings(tx: Queryable, requests: ClosingRequest[]): Promise<AttemptClosing[]> {
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
          ${JSON.stringify(closing.answers)}::jsonb, ${JSON.stringify(closing.answerTimes)}::jsonb)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${quizAttempts} as a set
      submitted_at = v.submitted_at, ended_by = v.ended_by, score = v.score,
      accuracy = v.accuracy, time_taken_seconds = v.time_taken, answers = v.answers,
      -- A question first answered by the submission itself is timed at it; earlier saves keep theirs.
      answer_times = v.answer_times || a.answer_times
    from (values ${values}) as v(id, submitted_at, ended_by, score, accuracy, time_taken, answers, answer_times)
    where a.id = v.id`);
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
 * The students' stored averages, recomputed from their attempts rather than incremented:
 * always equal to the truth. Only released scores count (decision 032): a score the student
 * may not see yet must not move their average, rank or totals. The caller holds the students'
 * row locks.
 */
export async function recomputeAverages(
  tx: Queryable,
  affected: string[],
  options: { attemptsRemoved?: boolean } = {},
) {
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
      from ${quizAttempts} as a
      join ${quizzes} as q on q.id = a.quiz_id and q.scores_released
      where a.submitted_at is not null and a.student_id in (${ids})
      group by student_id
    ) as agg
    where s.id = agg.student_id`);
  // Only a deletion takes counted attempts away (decision 036): a student left with none goes
  // back to zero. Closings and releases only add, so they skip this statement.
  if (options.attemptsRemoved) {
    await tx.execute(sql`
      update ${students} as s set average_score = 0, average_accuracy = 0, total_score = 0, quizzes_attempted = 0
      where s.id in (${ids}) and s.quizzes_attempted <> 0 and not exists (
        select 1 from ${quizAttempts} as a join ${quizzes} as q on q.id = a.quiz_id and q.scores_released
        where a.student_id = s.id and a.submitted_at is not null)`);
  }
}

/**
 * The questions of recently answered quizzes, with the version they were read at (an edit
 * bumps quizzes.version, decision 036), so the answer saves of an exam validate choices
 * without reading 20 questions of JSON each time. Bounded by the characters held, oldest
 * first out.
 *
 * Only the answer saves read it, and only to validate the choice before the one UPDATE of an
 * open attempt. That is safe with a copy another instance's edit has outdated only because
 * the structure is frozen once an attempt exists (the edit refuses to add, remove or reorder
 * questions or options then, and to change an option's text while an attempt is open, see
 * lifecycle.ts): every open attempt's quiz has the questions and options the copy has.
 * Scoring (the closings) and starts (the layout) never use it: they read the quiz under its
 * share lock. A save that the copy refuses takes the careful path, which reads the quiz and
 * replaces the copy with the newer version.
 */
function createQuestionsCache(maxCharacters = 4_000_000) {
  const entries = new Map<string, { questions: StoredQuestion[]; version: number; size: number }>();
  let held = 0;
  return {
    get(quizId: string): StoredQuestion[] | undefined {
      const entry = entries.get(quizId);
      if (!entry) return undefined;
      entries.delete(quizId); // most recently used last
      entries.set(quizId, entry);
      return entry.questions;
    },
    set(quizId: string, version: number, questions: StoredQuestion[]) {
      // The texts, and JSON keys, ids and numbers around each question and option.
      const options = questions.reduce(
        (count, question) => count + (isChoiceQuestion(question) ? question.options.length : 0),
        0,
      );
      const size = totalTextOf(questions) + questions.length * 128 + options * 48;
      const existing = entries.get(quizId);
      if (size > maxCharacters || (existing && existing.version >= version)) return;
      if (existing) {
        entries.delete(quizId);
        held -= existing.size;
      }
      entries.set(quizId, { questions, version, size });
      held += size;
      for (const [oldest, entry] of entries) {
        if (held <= maxCharacters) break;
        entries.delete(oldest);
        held -= entry.size;
      }
    },
  };
}

/**
 * The answers of a submission (update-student), by question id: `response` as the type's
 * answer, else SPEC §7's `selectedOption`, which SPEC §3 clients fill with the option's text:
 * on a single or multiple choice question it is read as the option of that id or, failing
 * that, of that text. Anything else is left as sent, for invalidAnswer to refuse.
 */
function submittedChoices(questions: StoredQuestion[], input: SubmitAttempt): Record<string, AnswerValue | null> {
  const byId = new Map(questions.map((question) => [question._id, question]));
  return Object.fromEntries(
    input.quiz.questions.map(({ _id, response, selectedOption }): [string, AnswerValue | null] => {
      if (response !== undefined && response !== null) return [_id, response];
      if (selectedOption === undefined || selectedOption === null || selectedOption === '') return [_id, null];
      const question = byId.get(_id);
      if (!question || !isChoiceQuestion(question)) return [_id, selectedOption];
      const option =
        question.options.find((candidate) => candidate._id === selectedOption) ??
        question.options.find((candidate) => candidate.text === selectedOption.trim());
      const id = option?._id ?? selectedOption;
      return [_id, question.type === 'multiple' ? [id] : id];
    }),
  );
}

/** The timer ends an attempt with its saved answers (the sweep, or a late request). */
const timeUp = (attempt: Pick<QuizAttemptRow, 'id' | 'studentId' | 'quizId'>, moment: Date): ClosingRequest => ({
  attemptId: attempt.id,
  studentId: attempt.studentId,
  quizId: attempt.quizId,
  submitted: {},
  endedBy: 'time-up',
  now: moment,
});

export function createQuizzesService(db: Database, cache: ReadCache, fileAccess: FileAccess) {
  /** Question and option images with addresses signed for `viewerId` (decision 009). */
  const imagesFor =
    (viewerId: string): ImageSigner =>
    (image) =>
      presentQuizImage(fileAccess, image, viewerId);
  const now = () => new Date();
  const questionsCache = createQuestionsCache();

  /**
   * writeClosings in its own transaction, then the read cache is told (after the commit, so
   * no reader can keep the old state under the new versions): the students' quiz lists and
   * every leaderboard. Returns the ids of the attempts closed here.
   */
  async function commitClosings(requests: ClosingRequest[]): Promise<Map<string, AttemptClosing>> {
    const closed = await db.transaction((tx) => writeClosings(tx, requests));
    if (closed.length > 0) {
      const students = new Set(closed.map((closing) => closing.studentId));
      await cache.changed([cacheTags.leaderboard, ...[...students].map(cacheTags.studentAttempts)]);
    }
    return new Map(closed.map((closing) => [closing.attemptId, closing]));
  }

  async function questionsOf(quizId: string): Promise<StoredQuestion[] | undefined> {
    const cached = questionsCache.get(quizId);
    if (cached) return cached;
    const [row] = await db
      .select({ questions: quizzes.questions, version: quizzes.version })
      .from(quizzes)
      .where(eq(quizzes.id, quizId))
      .limit(1);
    if (row) questionsCache.set(quizId, row.version, row.questions);
    return row?.questions;
  }

  /**
   * An answer save in one statement: the open attempt of this student and quiz, still in
   * its time and grace, takes the choices. No class check is needed here: the attempt
   * exists only because its start passed one. Prepared (named) because an exam sends
   * 20 per student: PostgreSQL parses and plans it once per connection, which halves its
   * CPU per save (pgbench, extended vs prepared protocol).
   *
   * "Open" is spelled ended_by is null (the same thing: quiz_attempts_ended_together).
   * With submitted_at is null, the planner could take the sweep's partial index of open
   * attempts, which its statistics think nearly empty, and read every open attempt of the
   * school for each save: 1,000 rows a save in an exam rush of 1,000 students.
   */
  const saveIntoOpenAttemptStatement = db
    .update(quizAttempts)
    .set({
      answers: mergedAnswers(sql.placeholder('cleared'), sql.placeholder('chosen')),
      answerTimes: mergedAnswerTimes(sql.placeholder('chosen'), sql.placeholder('now')),
    })
    .where(
      and(
        eq(quizAttempts.quizId, sql.placeholder('quizId')),
        eq(quizAttempts.studentId, sql.placeholder('studentId')),
        isNull(quizAttempts.endedBy),
        gte(sql`${quizAttempts.endsAt} + ${GRACE}`, sql.placeholder('now')),
      ),
    )
    .returning({ id: quizAttempts.id })
    .prepare('quizzes_save_into_open_attempt');

  /** Returns false when there is no such attempt (not started, submitted, time up): the caller takes the careful path. */
  async function saveIntoOpenAttempt(studentId: string, quizId: string, input: SaveAnswers): Promise<boolean> {
    const saved = await saveIntoOpenAttemptStatement.execute({
      quizId,
      studentId,
      cleared: clearedAnswers(input.answers),
      chosen: JSON.stringify(chosenAnswers(input.answers)),
      now: now(),
    });
    return saved.length > 0;
  }

  /** The open attempts whose time and grace have run out, of everyone or of one student or quiz. */
  const expiredAttemptsQuery = (scope: 'studentId' | 'quizId' | undefined) =>
    db
      .select({ attempt: quizAttempts })
      .from(quizAttempts)
      .where(
        and(
          // The sweep reads the partial index of open attempts; a student's or a quiz's own
          // attempts are found by their index (ended_by: see saveIntoOpenAttemptStatement).
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

  /** The ids of the quizzes of the student's classes and of those the student attempted (may repeat). */
  const studentQuizIds = (studentId: Placeholder) =>
    sql`(select ${quizzes.id} from ${quizzes} where ${inStudentClasses(quizzes.classId, studentId)}
      union all
      select ${quizAttempts.quizId} from ${quizAttempts} where ${quizAttempts.studentId} = ${studentId})`;

  type StudentListView = 'online' | 'attempted' | undefined;
  /**
   * A class's quizzes with the student's own attempt: online = can be taken or resumed now;
   * attempted = submitted. Prepared per view: the statement is long (drizzle spent ~15 % of
   * the request's CPU building it, node --cpu-prof) and PostgreSQL plans it once per connection.
   */
  const studentListQuery = (view: StudentListView) => {
    const moment = sql.placeholder('now');
    const isOnline = and(
      isNull(quizAttempts.submittedAt),
      or(
        and(isNull(quizAttempts.id), gt(effectiveDeadlineSql, moment)),
        gt(sql`${quizAttempts.endsAt} + ${GRACE}`, moment),
      ),
    );
    const filter =
      view === 'online' ? isOnline : view === 'attempted' ? isNotNull(quizAttempts.submittedAt) : undefined;
    // An archived quiz stays only with the students who attempted it (decision 036).
    const visible = or(isNull(quizzes.archivedAt), isNotNull(quizAttempts.id));
    const order =
      view === 'online'
        ? [asc(effectiveDeadlineSql), asc(quizzes.id)]
        : view === 'attempted'
          ? [desc(quizAttempts.submittedAt), asc(quizzes.id)]
          : [desc(quizzes.createdAt), desc(quizzes.id)];
    return (
      db
        .select({
          quiz: quizSummaryColumns,
          authorName: teachers.name,
          className: classes.name,
          attempt: attemptStateColumns,
          accommodation: {
            extraMinutes: quizAccommodations.extraMinutes,
            extraPercent: quizAccommodations.extraPercent,
            deadline: quizAccommodations.deadline,
          },
        })
        .from(quizzes)
        .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
        .innerJoin(classes, eq(classes.id, quizzes.classId))
        .leftJoin(
          quizAttempts,
          and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.studentId, sql.placeholder('studentId'))),
        )
        // The student's own deadline and time (decision 036), by its primary key.
        .leftJoin(
          quizAccommodations,
          and(
            eq(quizAccommodations.quizId, quizzes.id),
            eq(quizAccommodations.studentId, sql.placeholder('studentId')),
          ),
        )
        // The quizzes of the student's classes, and any they attempted: past attempts stay with
        // the student when they leave a class (decision 031). Two indexed reads joined by UNION ALL
        // (quizzes_class_id_deadline_idx per class, quiz_attempts_student_idx), read first as an
        // array so the quizzes are then fetched by id: an OR of the two (and even an IN of the
        // union) made PostgreSQL scan every quiz of the school (EXPLAIN at 20,000 quizzes:
        // 23.7 ms, 20,000 rows read; now 6 ms, the student's 100 by quizzes_pkey).
        .where(and(sql`${quizzes.id} = any(array${studentQuizIds(sql.placeholder('studentId'))})`, visible, filter))
        .orderBy(...order)
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(`quizzes_student_list_${view ?? 'all'}`)
    );
  };
  const studentLists = new Map<StudentListView, ReturnType<typeof studentListQuery>>(
    (['online', 'attempted', undefined] as const).map((view) => [view, studentListQuery(view)]),
  );

  async function findQuiz(tx: Queryable, quizId: string) {
    const [row] = await tx
      .select({ quiz: quizzes, authorName: teachers.name, className: classes.name })
      .from(quizzes)
      .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
      .innerJoin(classes, eq(classes.id, quizzes.classId))
      .where(eq(quizzes.id, quizId))
      .limit(1);
    if (!row) throw notFound('This quiz does not exist');
    return row;
  }

  /**
   * A student sees the quizzes of their classes, and those they attempted (a class they have
   * left keeps its attempts for review). An archived quiz only the students who attempted it
   * see (decision 036); to anyone else it does not exist.
   */
  async function findQuizForStudent(tx: Queryable, studentId: string, quizId: string) {
    const row = await findQuiz(tx, quizId);
    const attempted = async () => (await findAttempt(tx, quizId, studentId)) !== null;
    if (row.quiz.archivedAt && !(await attempted())) throw notFound('This quiz does not exist');
    if (!(await isStudentOfClass(tx, studentId, row.quiz.classId)) && !(await attempted()))
      throw forbidden('This quiz is for another class');
    return row;
  }

  async function findAttempt(tx: Queryable, quizId: string, studentId: string): Promise<QuizAttemptRow | null> {
    const [attempt] = await tx
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.quizId, quizId), eq(quizAttempts.studentId, studentId)))
      .limit(1);
    return attempt ?? null;
  }

  /** The quiz as this student sees it: their own deadline and time limit (decision 036). */
  async function withOwnTiming<Row extends { quiz: QuizRow }>(row: Row, studentId: string): Promise<Row> {
    return { ...row, quiz: timingFor(row.quiz, await accommodationOf(db, row.quiz.id, studentId)) };
  }

  /** The attempt as it stands now: one whose time ran out is closed (and committed) before anyone sees it. */
  async function currentAttempt(quizId: string, studentId: string) {
    const attempt = await findAttempt(db, quizId, studentId);
    if (!attempt || attempt.submittedAt || !isPastGrace(attempt, now())) return attempt;
    await commitClosings([timeUp(attempt, now())]);
    return findAttempt(db, quizId, studentId);
  }

  return {
    closeExpiredAttempts: () => closeExpiredAttempts(),
    releaseScores,

    async createQuiz(teacherId: string, input: NewQuiz): Promise<TeacherQuizSummary> {
      const [teacher] = await db
        .select({ name: teachers.name, subject: teachers.subject })
        .from(teachers)
        .where(eq(teachers.id, teacherId))
        .limit(1);
      if (!teacher) throw accountRemoved();
      // A new quiz's questions all get ids drawn here (an id sent with one is an edit's, not a creation's).
      const questions = toStoredQuestions(
        input.quiz.questions.map(({ _id: _ignored, ...question }) => question),
        newQuestionIds(input.quiz.questions.length),
      );
      // No accommodation yet: they move the close later (decision 036).
      const timing = newQuizTiming(new Date(input.deadline), input.maxTime);
      const review = { reviewAnswers: input.reviewAnswers, reviewScore: input.reviewScore };
      const { quiz, target } = await db.transaction(async (tx) => {
        // One of the teacher's active classes, checked in the write's own transaction (decision 031).
        const target = await requireTaughtClass(tx, teacherId, input.classId, { mustBeActive: true });
        await assertQuizImagesExist(tx, imageKeysOf(questions));
        const [quiz] = await tx
          .insert(quizzes)
          .values({
            title: input.title,
            subject: teacher.subject.trim() || DEFAULT_QUIZ_SUBJECT,
            classId: target.id,
            ...timing,
            ...review,
            // A score shown after submitting counts in the averages at once; otherwise the sweep releases it.
            scoresReleased: isScoreReleased({ ...timing, ...review }, now()),
            createdByTeacherId: teacherId,
            background: input.quiz.background,
            questions,
            questionCount: questions.length,
            totalPoints: totalPointsOf(questions),
          })
          // Not the questions: reading back what was just written cost a large quiz more than its insert.
          .returning(quizSummaryColumns);
        return { quiz, target };
      });
      await cache.changed([cacheTags.classQuizzes(target.id)]);
      return presentTeacherSummary({ quiz: quiz!, authorName: teacher.name, className: target.name }, 0);
    },

    /** The teacher's own quizzes, newest first: one query. */
    async listForTeacher(teacherId: string, page: Page): Promise<ListedPage<TeacherQuizSummary>> {
      const rows = await db
        .select({
          quiz: quizSummaryColumns,
          authorName: teachers.name,
          className: classes.name,
          attemptCount: submittedCount,
        })
        .from(quizzes)
        .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
        .innerJoin(classes, eq(classes.id, quizzes.classId))
        .where(eq(quizzes.createdByTeacherId, teacherId))
        .orderBy(desc(quizzes.createdAt), desc(quizzes.id))
        .limit(page.limit + 1)
        .offset(page.offset);
      const listed = toPage(rows, page.limit);
      return { ...listed, items: listed.items.map((row) => presentTeacherSummary(row, row.attemptCount)) };
    },

    /**
     * The quizzes of the student's class with the student's own attempt:
     * online = can be taken or resumed now; attempted = submitted. Kept a second by the read
     * cache, and only while neither the class's quizzes nor the student's attempts change.
     */
    async listForStudent(
      studentId: string,
      view: 'online' | 'attempted' | undefined,
      page: Page,
    ): Promise<ListedPage<StudentQuizSummary>> {
      const classIds = await cachedStudentClassIds(cache, db, studentId);
      const key = `quiz-list:${studentId}:${view ?? 'all'}:${page.offset}:${page.limit}`;
      const tags = [
        ...classIds.map(cacheTags.classQuizzes),
        cacheTags.studentClasses(studentId),
        cacheTags.studentAttempts(studentId),
      ];
      return cache.read(key, tags, async () => {
        await closeExpiredAttempts({ studentId });
        const moment = now();
        const rows = await studentLists.get(view)!.execute({
          studentId,
          now: moment,
          limit: page.limit + 1,
          offset: page.offset,
        });
        const listed = toPage(rows, page.limit);
        return {
          ...listed,
          items: listed.items.map((row) =>
            presentStudentSummary({ ...row, quiz: timingFor(row.quiz, row.accommodation) }, row.attempt, moment),
          ),
        };
      });
    },

    /** Analytics: the quiz with its key and every submitted attempt. Own quizzes only. */
    async getForTeacher(teacherId: string, quizId: string): Promise<TeacherQuizDetail> {
      const row = await findQuiz(db, quizId);
      if (row.quiz.createdByTeacherId !== teacherId)
        throw forbidden('Only the teacher who created this quiz can see it');
      await closeExpiredAttempts({ quizId });
      const attempts = await db
        .select({ attempt: quizAttempts, name: students.name, rollNumber: students.rollNumber })
        .from(quizAttempts)
        .innerJoin(students, eq(students.id, quizAttempts.studentId))
        .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.submittedAt)))
        .orderBy(asc(quizAttempts.submittedAt), asc(quizAttempts.id));
      const [started] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(quizAttempts)
        .where(eq(quizAttempts.quizId, quizId));
      const regrades = await db
        .select({
          regradedAt: quizRegrades.regradedAt,
          attemptsChanged: quizRegrades.attemptsChanged,
          teacherName: teachers.name,
        })
        .from(quizRegrades)
        .leftJoin(teachers, eq(teachers.id, quizRegrades.teacherId))
        .where(eq(quizRegrades.quizId, quizId))
        .orderBy(asc(quizRegrades.regradedAt), asc(quizRegrades.id));
      return presentTeacherDetail(row, attempts, imagesFor(teacherId), {
        attemptsStarted: started?.count ?? 0,
        regrades,
      });
    },

    async getForStudent(studentId: string, quizId: string): Promise<StudentQuizDetail> {
      const row = await findQuizForStudent(db, studentId, quizId);
      const attempt = await currentAttempt(quizId, studentId);
      return presentStudentDetail(await withOwnTiming(row, studentId), imagesFor(studentId), attempt, now());
    },

    /**
     * Starts the server's timer, or resumes the attempt already running (idempotent). No
     * transaction: the start itself is one INSERT, and the unique index settles two tabs
     * starting at once (both see the one attempt).
     */
    async startAttempt(studentId: string, quizId: string): Promise<StudentQuizDetail> {
      const row = await findQuizForStudent(db, studentId, quizId);
      const existing = await currentAttempt(quizId, studentId);
      if (existing)
        return presentStudentDetail(await withOwnTiming(row, studentId), imagesFor(studentId), existing, now());
      // The layout is drawn from the quiz read under its share lock, in the insert's transaction
      // (decision 036): an edit holds the row for update, so the attempt is laid out on the
      // questions before the edit or after it, and an edit that finds no attempt may still
      // change the structure because no start is between its read and its commit. The
      // student's own deadline and time are read under it too, so a concurrent accommodation
      // change (which locks the row for update) is either read here or moves this attempt's end.
      const { quiz, started } = await db.transaction(async (tx) => {
        const [stored] = await tx.select().from(quizzes).where(eq(quizzes.id, quizId)).for('share');
        if (!stored || stored.archivedAt) throw notFound('This quiz does not exist');
        const quiz = timingFor(stored, await accommodationOf(tx, quizId, studentId));
        const startedAt = now();
        if (quiz.deadline <= startedAt) throw new AppError('QUIZ_CLOSED', 'The deadline of this quiz has passed');
        const [started] = await tx
          .insert(quizAttempts)
          .values({
            quizId,
            studentId,
            startedAt,
            endsAt: new Date(startedAt.getTime() + quiz.maxTimeMinutes * 60_000),
            layout: shuffleLayout(quiz.questions),
          })
          .onConflictDoNothing()
          .returning();
        return { quiz, started };
      });
      if (started) await cache.changed([cacheTags.studentAttempts(studentId)]);
      return presentStudentDetail(
        { ...row, quiz },
        imagesFor(studentId),
        started ?? (await findAttempt(db, quizId, studentId)),
        now(),
      );
    },

    /**
     * Saves choices as the student makes them; refused once the time and grace are over.
     * The usual case (valid choices, attempt open) is one UPDATE; anything else goes the
     * careful way below, which finds the precise answer (404, 403, 409, 400) and closes an
     * attempt whose time ran out.
     */
    async saveAnswers(studentId: string, quizId: string, input: SaveAnswers): Promise<{ savedAt: string }> {
      const questions = await questionsOf(quizId);
      if (
        questions &&
        !invalidAnswer(questions, input.answers) &&
        (await saveIntoOpenAttempt(studentId, quizId, input))
      )
        return { savedAt: now().toISOString() };
      // No transaction: a time-up closing commits before the 409 says so, and the update's
      // own condition (still open) settles a race with a submission or the sweep.
      const row = await findQuizForStudent(db, studentId, quizId);
      questionsCache.set(quizId, row.quiz.version, row.quiz.questions);
      const attempt = await currentAttempt(quizId, studentId);
      if (!attempt) throw conflict('QUIZ_NOT_STARTED', 'Start the quiz before answering');
      if (attempt.submittedAt) {
        throw conflict(
          'QUIZ_ALREADY_SUBMITTED',
          attempt.endedBy === 'time-up'
            ? 'Time is up: your saved answers were submitted'
            : 'You have already submitted this quiz',
        );
      }
      const problem = invalidAnswer(row.quiz.questions, input.answers);
      if (problem) throw badRequest(`${problem.field}: ${problem.message}`, [problem]);
      const chosen = JSON.stringify(chosenAnswers(input.answers));
      const saved = await db
        .update(quizAttempts)
        .set({
          answers: mergedAnswers(textArray(clearedAnswers(input.answers)), chosen),
          answerTimes: mergedAnswerTimes(chosen, now().toISOString()),
        })
        .where(and(eq(quizAttempts.id, attempt.id), isNull(quizAttempts.endedBy)))
        .returning({ id: quizAttempts.id });
      // Closed by a submission or the sweep since it was read: nothing was saved, so no 2xx.
      if (saved.length === 0) throw conflict('QUIZ_ALREADY_SUBMITTED', 'You have already submitted this quiz');
      return { savedAt: now().toISOString() };
    },

    /**
     * update-student (SPEC §7): ends the attempt and scores it on the server.
     * In time (grace included), the submitted choices count; later, only the
     * answers saved in time. Client score, accuracy and times are never read.
     */
    async submitAttempt(studentId: string, input: SubmitAttempt): Promise<StudentQuizDetail> {
      const quizId = input.quiz._id;
      const row = await findQuiz(db, quizId);
      const attempt = await findAttempt(db, quizId, studentId);
      if (!attempt) {
        // Only a start that passed the class check makes an attempt; without one, say which rule applies.
        if (!(await isStudentOfClass(db, studentId, row.quiz.classId)))
          throw forbidden('This quiz is for another class');
        throw conflict('QUIZ_NOT_STARTED', 'Start the quiz before submitting it');
      }
      if (attempt.submittedAt) throw conflict('QUIZ_ALREADY_SUBMITTED', 'You have already submitted this quiz');
      const moment = now();
      let submitted: Record<string, AnswerValue> = {};
      if (!isPastGrace(attempt, moment)) {
        const choices = submittedChoices(row.quiz.questions, input);
        const problem = invalidAnswer(row.quiz.questions, choices);
        if (problem) throw badRequest(`${problem.field}: ${problem.message}`, [problem]);
        submitted = chosenAnswers(choices);
      }
      // At or after the end (the page's own submission at 0:00, or a late one) the timer ended it.
      const endedBy = moment >= attempt.endsAt ? 'time-up' : 'submitted';
      // Only the writes share a transaction (student lock, attempt lock and its saved answers,
      // attempt, averages); a racing submit or sweep that closed the attempt first makes this
      // one change nothing.
      const closed = await commitClosings([
        { attemptId: attempt.id, studentId, quizId, submitted, endedBy, now: moment },
      ]);
      const closing = closed.get(attempt.id);
      if (!closing) throw conflict('QUIZ_ALREADY_SUBMITTED', 'You have already submitted this quiz');
      const { answers, submittedAt, score, accuracy, timeTakenSeconds } = closing;
      return presentStudentDetail(
        await withOwnTiming(row, studentId),
        imagesFor(studentId),
        { ...attempt, answers, submittedAt, endedBy, score, accuracy, timeTakenSeconds },
        now(),
      );
    },
  };
}

export type QuizzesService = ReturnType<typeof createQuizzesService>;

/**
 * The service for work that shows no quiz to anyone (closing attempts, releasing scores,
 * seeding the demo): no read cache, and an image signer whose secret nothing ever checks.
 */
export const createQuizJobsService = (db: Database) =>
  createQuizzesService(db, readsUncached(), createFileAccess('unused: this service presents no quiz'));
