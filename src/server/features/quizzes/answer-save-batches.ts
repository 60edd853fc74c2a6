import { and, eq, gte, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from '../../db/client.ts';
import { quizAttempts } from '../../db/schema.ts';
import { GRACE } from './quiz-records.ts';

/** One answer save of an open attempt: the questions it clears and the choices it sets. */
type OpenAttemptSave = {
  quizId: string;
  studentId: string;
  cleared: string[];
  chosen: Record<string, unknown>;
  now: Date;
};

/** Merged in SQL, so two quick saves from the same attempt never overwrite each other. */
export const mergedAnswers = (cleared: SQL | Placeholder, chosen: SQL | string | Placeholder) =>
  sql`(${quizAttempts.answers} - ${cleared}::text[]) || ${chosen}::jsonb`;

/**
 * The answer times merged in SQL: each newly answered question gets the seconds since the
 * attempt started, and a question already timed keeps its first time (the right side of ||
 * wins, so the old object goes there). Same statement as the answers: no extra round trip.
 */
export const mergedAnswerTimes = (chosen: SQL | string | Placeholder, moment: SQL | string | Placeholder) =>
  sql`coalesce((select jsonb_object_agg(question_id, ${secondsSinceStart(moment)})
      from jsonb_object_keys(${chosen}::jsonb) as question_id), '{}'::jsonb) || ${quizAttempts.answerTimes}`;

/** mergedAnswerTimes for a save of one question (`questionId`) or of none (null: nothing newly timed). */
const answerTimeOfOne = (questionId: Placeholder, moment: Placeholder) =>
  sql`case when ${questionId}::text is null then ${quizAttempts.answerTimes}
    else jsonb_build_object(${questionId}::text, ${secondsSinceStart(moment)}) || ${quizAttempts.answerTimes} end`;

/** Whole seconds from the attempt's start to `moment`, never negative: a question's answer time. */
function secondsSinceStart(moment: SQL | string | Placeholder) {
  return sql`greatest(0, round(extract(epoch from (${moment}::timestamptz - ${quizAttempts.startedAt}))))::int`;
}

type Waiting = OpenAttemptSave & {
  /** Its attempt, as the database spells ids (lower case): how a batch's answer is matched to it. */
  key: string;
  /** Its choices as JSON, and their length (a batch is bounded by it). */
  chosenJson: string;
  settle: (saved: boolean) => void;
  fail: (error: unknown) => void;
};

/** At most this many saves in one statement, and about this many characters of choices. */
const MOST_SAVES_PER_BATCH = 256;
const MOST_CHARACTERS_PER_BATCH = 1_000_000;

/**
 * On PGlite, one save per statement: its statements run on the app's own thread, so no request
 * is read while one runs and the batches stayed one or two saves long, each dearer than the
 * prepared single save (an exam of 2,000: 468 requests a second alone, 246 batched, decision 071).
 */
const mostSavesPerBatchOn = (db: Database) => (db instanceof PgliteDatabase ? 1 : MOST_SAVES_PER_BATCH);

/**
 * The answer saves of an exam, written together (group commit, decision 071). While a batch is
 * being written, the saves that arrive wait and go in the next one, as ONE statement and one
 * commit: PostgreSQL's cost of a save was mostly the statement and its commit, not the row. A
 * save that finds the database idle is written at once, alone (the prepared single statement):
 * no save waits for a timer.
 *
 * Each save is answered only after the statement that wrote it committed, with whether its
 * attempt was open (true) or not (false: the caller takes the careful path, as before). The
 * attempts are locked in id order, the order the closings lock them in (grading.ts), so a batch
 * and a sweep never deadlock; a save for an attempt already in the batch waits for the next one
 * (one row must not be joined twice in one UPDATE). A batch that fails is written again one save
 * at a time, so one bad save cannot fail its neighbours.
 */
export function createAnswerSaveBatches(
  db: Database,
  options: { inFlight?: number; mostPerBatch?: number; mostCharactersPerBatch?: number } = {},
) {
  const mostInFlight = options.inFlight ?? 2;
  const mostPerBatch = options.mostPerBatch ?? mostSavesPerBatchOn(db);
  const mostCharactersPerBatch = options.mostCharactersPerBatch ?? MOST_CHARACTERS_PER_BATCH;
  let queue: Waiting[] = [];
  /** The attempts of the batches being written: their next save waits, so saves land in order. */
  const writing = new Set<string>();
  let inFlight = 0;

  const batchStatement = (items: string) => sql`
    with saves as (
      select * from jsonb_to_recordset(${items}::jsonb)
        as s(quiz_id uuid, student_id uuid, cleared text[], chosen jsonb, now timestamptz)
    ), open_attempts as (
      select ${quizAttempts.id} as id, saves.*
      from ${quizAttempts} join saves
        on ${quizAttempts.quizId} = saves.quiz_id and ${quizAttempts.studentId} = saves.student_id
      where ${quizAttempts.endedBy} is null and ${quizAttempts.endsAt} + ${GRACE} >= saves.now
      order by ${quizAttempts.id}
      for update of ${quizAttempts}
    )
    update ${quizAttempts} set
      answers = ${mergedAnswers(sql`open_attempts.cleared`, sql`open_attempts.chosen`)},
      answer_times = ${mergedAnswerTimes(sql`open_attempts.chosen`, sql`open_attempts.now`)}
    from open_attempts
    where ${quizAttempts.id} = open_attempts.id
    returning ${quizAttempts.quizId} as quiz_id, ${quizAttempts.studentId} as student_id`;

  /**
   * A save written alone: the same rule for one attempt, prepared (named) so PostgreSQL parses
   * and plans it once per connection (PGlite parses and plans each time). "Open" is spelled
   * ended_by is null (the same thing: quiz_attempts_ended_together): with submitted_at is null,
   * the planner could take the sweep's partial index of open attempts, which its statistics think
   * nearly empty, and read every open attempt of the school for each save.
   */
  const singleSave = (answerTimes: SQL, name: string) =>
    db
      .update(quizAttempts)
      .set({ answers: mergedAnswers(sql.placeholder('cleared'), sql.placeholder('chosen')), answerTimes })
      .where(
        and(
          eq(quizAttempts.quizId, sql.placeholder('quizId')),
          eq(quizAttempts.studentId, sql.placeholder('studentId')),
          isNull(quizAttempts.endedBy),
          gte(sql`${quizAttempts.endsAt} + ${GRACE}`, sql.placeholder('now')),
        ),
      )
      .returning({ quizId: quizAttempts.quizId, studentId: quizAttempts.studentId })
      .prepare(name);
  const singleStatement = singleSave(
    mergedAnswerTimes(sql.placeholder('chosen'), sql.placeholder('now')),
    'quizzes_save_into_open_attempt',
  );
  /**
   * The same for a save of one question or none (the runner saves each choice as it is picked: 20
   * of an exam's 23 requests a student): its time without the subquery over the choices' keys, a
   * third of a save's cost on PGlite (docs/benchmarks.md, the PGlite exam's findings).
   */
  const singleQuestionStatement = singleSave(
    answerTimeOfOne(sql.placeholder('timedId'), sql.placeholder('now')),
    'quizzes_save_one_question_into_open_attempt',
  );

  // The route accepts a uuid in either case; the database answers ids in lower case.
  const keyOf = (quizId: string, studentId: string) => `${quizId}/${studentId}`.toLowerCase();

  /** The keys of the saves written (their attempts were open and in time). */
  async function write(batch: Waiting[]): Promise<Set<string>> {
    if (batch.length === 1) {
      const [save] = batch as [Waiting];
      const chosenIds = Object.keys(save.chosen);
      const rows = await (chosenIds.length > 1 ? singleStatement : singleQuestionStatement).execute({
        timedId: chosenIds[0] ?? null,
        quizId: save.quizId,
        studentId: save.studentId,
        cleared: save.cleared,
        chosen: save.chosenJson,
        now: save.now,
      });
      return new Set(rows.length > 0 ? [save.key] : []);
    }
    const items = `[${batch
      .map(
        (save) =>
          `{"quiz_id":${JSON.stringify(save.quizId)},"student_id":${JSON.stringify(save.studentId)},` +
          `"cleared":${JSON.stringify(save.cleared)},"chosen":${save.chosenJson},"now":"${save.now.toISOString()}"}`,
      )
      .join(',')}]`;
    // Both drivers answer { rows }; drizzle types a raw statement's result as unknown.
    const { rows } = (await db.execute(batchStatement(items))) as { rows: { quiz_id: string; student_id: string }[] };
    return new Set(rows.map((row) => keyOf(row.quiz_id, row.student_id)));
  }

  /**
   * The next batch: the oldest saves, one per attempt and none of an attempt being written, the
   * rest left waiting in their order.
   */
  function takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const waiting: Waiting[] = [];
    let characters = 0;
    for (const save of queue) {
      const isFull =
        batch.length >= mostPerBatch ||
        (batch.length > 0 && characters + save.chosenJson.length > mostCharactersPerBatch);
      if (isFull || writing.has(save.key)) waiting.push(save);
      else {
        writing.add(save.key);
        characters += save.chosenJson.length;
        batch.push(save);
      }
    }
    queue = waiting;
    return batch;
  }

  async function writeBatch(batch: Waiting[]) {
    try {
      const saved = await write(batch);
      for (const save of batch) save.settle(saved.has(save.key));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.fail(error);
        return;
      }
      // Each on its own (the batch holds one save per attempt, so they may run at once).
      await Promise.all(batch.map((save) => writeBatch([save])));
    }
  }

  function flush() {
    while (inFlight < mostInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) return; // every waiting save's attempt is being written
      inFlight += 1;
      void writeBatch(batch).finally(() => {
        for (const save of batch) writing.delete(save.key);
        inFlight -= 1;
        flush();
      });
    }
  }

  return {
    /** Writes the save into its attempt if the attempt is open and in time; false if it is not. */
    save(save: OpenAttemptSave): Promise<boolean> {
      return new Promise<boolean>((settle, fail) => {
        const key = keyOf(save.quizId, save.studentId);
        queue.push({ ...save, key, chosenJson: JSON.stringify(save.chosen), settle, fail });
        flush();
      });
    },
  };
}
