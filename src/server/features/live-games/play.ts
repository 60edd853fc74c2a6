import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  LIVE_GAME_LIMITS,
  type LiveAnswerMessage,
  type LiveDelivery,
  type LiveGameErrorCode,
  type LiveHostCommand,
  type LiveServerMessage,
  type PlayerResult,
} from '#shared/live-games';
import { answerProblem, isAnswered, type AnswerValue, type StoredQuestion } from '#shared/question-types';
import { cacheTags, readsUncached, type ReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import { liveAnswers, liveGames, livePlayers, students } from '../../db/schema.ts';
import { isStudentOfClass, teachesClass } from '../classes/records.ts';
import { recomputeGamePlayers } from '../quizzes/grading.ts';
import type { ImageSigner } from '../quizzes/presenters.ts';
import { presentQuizImage } from '../quizzes/quiz-images.ts';
import type { FileAccess } from '../resources/file-access.ts';
import {
  presentClosedQuestion,
  presentGameSummary,
  presentOpenedQuestion,
  presentRanked,
  presentStudentGame,
} from './presenters.ts';
import {
  answerValueOf,
  answerValueText,
  findGameSummary,
  gameColumns,
  isOver,
  rowsOf,
  type Queryable,
} from './records.ts';
import { createBatches } from '../../lib/batches.ts';
import { distributionOf, outcomeOf, rankStandings, scoreLiveAnswer } from './scoring.ts';

/**
 * The game's state machine (issue 34, decision 066), apart from any socket: the room layer calls
 * it with who is speaking (from the room token) and sends what it returns where it says.
 *
 *   lobby ─start→ question-open ─(deadline, skip)→ question-closed ─next→ question-open … ─next→ ended
 *                  │  ↑ resume                                         (after the last question)
 *                  └pause→ paused                         end: from any state (an open question closes first)
 *
 * Every change is one transaction that holds the game's row for update. An answer holds it for
 * share while it checks the question is open and before its deadline and stores itself, so a
 * close (which updates the row) waits for the answers in flight and every answer after it finds
 * the question closed: an acknowledged answer is always counted, a refused one never is. The close
 * is conditional on the question still being open, so any instance may close on the deadline and
 * only one does. Messages leave only after their transaction has committed.
 */

export type LiveActor = { id: string; role: 'teacher' | 'student' };

/** What to send, and the sender's refusal (the socket stays open; the page words the code). */
export type PlayOutcome = { deliveries: LiveDelivery[]; refused?: LiveGameErrorCode };
/** A join: the welcome for the socket that joined, and what the others are told. */
export type JoinOutcome = PlayOutcome & { welcome?: LiveServerMessage };

class Refusal extends Error {
  constructor(readonly code: LiveGameErrorCode) {
    super(code);
  }
}
const refuse = (code: LiveGameErrorCode) => new Refusal(code);

async function refusing<T extends PlayOutcome>(work: () => Promise<T>): Promise<T | PlayOutcome> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal) return { deliveries: [], refused: error.code };
    throw error;
  }
}

const uuid = z.uuid();

/** How long the game's questions stay in this instance's memory: they never change, so only memory bounds it. */
const QUESTIONS_KEPT = 200;
/** At most this many answers in one statement (10 parameters each). */
const ANSWER_BATCH_MAX = 300;

type LockedGame = NonNullable<Awaited<ReturnType<typeof lockGame>>>;

/** The game's row (its questions aside), locked for the rest of the transaction. */
async function lockGame(tx: Queryable, gameId: string, strength: 'update' | 'share') {
  const [game] = await tx.select(gameColumns).from(liveGames).where(eq(liveGames.id, gameId)).for(strength);
  return game ?? null;
}

/** An answer the question can take. Blank typed text is none: it would show on the projector as an empty row. */
function isValidAnswer(question: StoredQuestion, value: AnswerValue): boolean {
  const isBlank = typeof value === 'string' && value.trim() === '';
  return isAnswered(value) && !isBlank && answerProblem(question, value) === undefined;
}

const isOpen = (game: { state: string }) => game.state === 'question-open' || game.state === 'paused';

/** A game's players with their answer to one question (none: `questionId` null). */
async function standingsAt(tx: Queryable, gameId: string, questionId: string | null) {
  const rows = await tx
    .select({
      studentId: livePlayers.studentId,
      name: students.name,
      score: livePlayers.score,
      streak: livePlayers.streak,
      removed: livePlayers.removed,
      firstIndex: livePlayers.firstIndex,
      points: liveAnswers.points,
      fraction: liveAnswers.fraction,
      valueText: answerValueText,
    })
    .from(livePlayers)
    .innerJoin(students, eq(students.id, livePlayers.studentId))
    .leftJoin(
      liveAnswers,
      and(
        eq(liveAnswers.gameId, livePlayers.gameId),
        eq(liveAnswers.studentId, livePlayers.studentId),
        questionId === null ? sql`false` : eq(liveAnswers.questionId, questionId),
      ),
    )
    .where(eq(livePlayers.gameId, gameId))
    .orderBy(asc(livePlayers.joinedAt), asc(livePlayers.studentId));
  return rows.map(({ valueText, ...row }) => ({ ...row, value: answerValueOf(valueText) }));
}
type StandingRow = Awaited<ReturnType<typeof standingsAt>>[number];

type GameView = { currentIndex: number; questionCount: number; namesHidden: boolean };

/**
 * A closed question's results from the standings after its close: the key and distribution for
 * everyone, each player's own result, the top five with the rank each had before it.
 */
function closeResults(game: GameView, question: StoredQuestion, rows: StandingRow[], signImage: ImageSigner) {
  const index = game.currentIndex;
  const inGame = rows.filter((row) => !row.removed);
  const eligible = inGame.filter((row) => row.firstIndex <= index);
  const answers = eligible.flatMap((row) =>
    row.value === null || row.fraction === null ? [] : [{ value: row.value, fraction: row.fraction }],
  );
  const ranked = rankStandings(inGame);
  const rankOf = new Map(ranked.map((row) => [row.studentId, row.rank]));
  const before = new Map(
    rankStandings(inGame.map((row) => ({ ...row, score: row.score - (row.points ?? 0) }))).map((row) => [
      row.studentId,
      row.rank,
    ]),
  );
  const previousRank = (row: StandingRow) =>
    index === 0 || row.firstIndex >= index ? null : (before.get(row.studentId) ?? null);
  const closed = {
    index,
    count: game.questionCount,
    question: presentClosedQuestion(question, signImage),
    distribution: distributionOf(question, answers, eligible.length),
  };
  const top = ranked
    .slice(0, LIVE_GAME_LIMITS.leaderboardSize)
    .map((row) => presentRanked(row, previousRank(row), game.namesHidden));
  const results = eligible.map((row): { studentId: string; result: PlayerResult } => ({
    studentId: row.studentId,
    result: {
      index,
      questionId: question._id,
      outcome: outcomeOf(row.fraction),
      points: row.points ?? 0,
      score: row.score,
      streak: row.streak,
      rank: rankOf.get(row.studentId)!,
      players: inGame.length,
    },
  }));
  return { closed, top, results };
}

/** The end's podium and each player's final score and rank (removed players aside). */
function finalResults(game: GameView, rows: StandingRow[]) {
  const ranked = rankStandings(rows.filter((row) => !row.removed));
  return {
    podium: ranked.slice(0, LIVE_GAME_LIMITS.podiumSize).map((row) => presentRanked(row, null, game.namesHidden)),
    finals: ranked.map((row) => ({
      studentId: row.studentId,
      final: { score: row.score, rank: row.rank, players: ranked.length },
    })),
  };
}

/** What a command changed beyond the game, for after its commit. */
type Effects = { leaderboardMoved: boolean };

export function createLiveGamePlay(
  db: Database,
  fileAccess: FileAccess,
  options: { now?: () => Date; cache?: ReadCache } = {},
) {
  const now = options.now ?? (() => new Date());
  const cache = options.cache ?? readsUncached();
  /**
   * A game's images are signed for the game (its id in the signature): the question goes to the
   * whole room as one message, and only once it opens (decision 066).
   */
  const signerFor =
    (gameId: string): ImageSigner =>
    (image) =>
      presentQuizImage(fileAccess, image, gameId);

  // The questions a game plays, copied at its creation and never changed: kept per instance.
  const questionsKept = new Map<string, StoredQuestion[]>();
  async function questionsOf(tx: Queryable, gameId: string): Promise<StoredQuestion[]> {
    const kept = questionsKept.get(gameId);
    if (kept) return kept;
    const [row] = await tx
      .select({ questions: liveGames.questions })
      .from(liveGames)
      .where(eq(liveGames.id, gameId))
      .limit(1);
    const questions = row?.questions ?? [];
    if (questionsKept.size >= QUESTIONS_KEPT) questionsKept.delete(questionsKept.keys().next().value!);
    questionsKept.set(gameId, questions);
    return questions;
  }
  const questionAt = async (tx: Queryable, game: { id: string; currentIndex: number }) =>
    (await questionsOf(tx, game.id))[game.currentIndex] ?? null;

  /** Players who may answer question `index`: joined before it opened, not removed. */
  async function eligibleCount(tx: Queryable, gameId: string, index: number): Promise<number> {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(livePlayers)
      .where(
        and(eq(livePlayers.gameId, gameId), eq(livePlayers.removed, false), sql`${livePlayers.firstIndex} <= ${index}`),
      );
    return row?.count ?? 0;
  }

  /** Answers to a question from players not removed. */
  async function answeredCount(tx: Queryable, gameId: string, questionId: string): Promise<number> {
    const [row] = rowsOf<{ count: number }>(
      await tx.execute(sql`select count(*)::int as count from ${liveAnswers} a
        join ${livePlayers} p on p.game_id = a.game_id and p.student_id = a.student_id
        where a.game_id = ${gameId} and a.question_id = ${questionId} and not p.removed`),
    );
    return row?.count ?? 0;
  }

  /**
   * The open question as this instance last saw it, per game: an answer to it is then one
   * statement (answerInOneStatement) instead of a transaction of five round trips.
   */
  type SeenOpen = { index: number; questionId: string; openedAt: Date; seconds: number };
  const openSeen = new Map<string, SeenOpen>();
  function seeOpen(
    game: { id: string; state: string; currentIndex: number; questionOpenedAt: Date | null; questionSeconds: number },
    questionId: string,
  ) {
    if (game.state !== 'question-open' || !game.questionOpenedAt) return;
    if (!openSeen.has(game.id) && openSeen.size >= QUESTIONS_KEPT) openSeen.delete(openSeen.keys().next().value!);
    openSeen.set(game.id, {
      index: game.currentIndex,
      questionId,
      openedAt: game.questionOpenedAt,
      seconds: game.questionSeconds,
    });
  }

  type BatchedAnswer = {
    studentId: string;
    seen: SeenOpen;
    value: AnswerValue;
    receivedAt: Date;
    elapsedMs: number;
    points: number;
    fraction: number;
  };

  /**
   * Answers to one game's open question as one statement, each stored only if the game's row
   * still shows the question as its answerer's instance saw it open (same index, opening and
   * length, before the deadline, not abandoned) and the player may answer it. The statement's
   * share lock on the game's row keeps decision 066's race rule: a close waits for it, and after
   * a close it finds nothing to insert. Per answer: whether it was stored.
   */
  async function storeAnswers(gameId: string, answers: readonly BatchedAnswer[]): Promise<boolean[]> {
    // One answer per player in a statement: a second waits for answerChecked, which refuses it.
    const players = new Set<string>();
    const firsts = new Set(answers.filter((answer) => !players.has(answer.studentId) && players.add(answer.studentId)));
    const rows = [...firsts].map(
      (answer) => sql`(${answer.studentId}::uuid, ${answer.seen.questionId}::varchar, ${answer.seen.index}::int,
        ${answer.seen.openedAt.toISOString()}::timestamptz, ${answer.seen.seconds}::int,
        ${JSON.stringify(answer.value)}::jsonb, ${answer.receivedAt.toISOString()}::timestamptz,
        ${answer.elapsedMs}::int, ${answer.points}::int, ${answer.fraction}::float8)`,
    );
    const stored = rowsOf<{ studentId: string }>(
      await db.execute(sql`insert into ${liveAnswers}
          (game_id, question_id, student_id, value, received_at, elapsed_ms, points, fraction)
        select g.id, v.question_id, p.student_id, v.value, v.received_at, v.elapsed_ms, v.points, v.fraction
        from (values ${sql.join(rows, sql`, `)})
          as v(student_id, question_id, idx, opened_at, seconds, value, received_at, elapsed_ms, points, fraction)
        join ${liveGames} g on g.id = ${gameId}
        join ${livePlayers} p on p.game_id = g.id and p.student_id = v.student_id
        where g.state = 'question-open' and g.current_index = v.idx and g.question_opened_at = v.opened_at
          and g.question_seconds = v.seconds and g.question_deadline > v.received_at
          and g.updated_at >= v.received_at - make_interval(hours => ${LIVE_GAME_LIMITS.idleHours})
          and not p.removed and p.first_index <= v.idx
        for share of g
        on conflict do nothing
        returning student_id as "studentId"`),
    );
    const storedFor = new Set(stored.map((row) => row.studentId));
    return answers.map((answer) => firsts.has(answer) && storedFor.has(answer.studentId));
  }

  // Per game: its answers arriving while a statement of them is in flight go together in the next.
  const answerBatches = new Map<string, ReturnType<typeof createBatches<BatchedAnswer, boolean>>>();
  function answerBatchesOf(gameId: string) {
    let batches = answerBatches.get(gameId);
    if (!batches) {
      if (answerBatches.size >= QUESTIONS_KEPT) answerBatches.delete(answerBatches.keys().next().value!);
      batches = createBatches((answers: readonly BatchedAnswer[]) => storeAnswers(gameId, answers), {
        maxSize: ANSWER_BATCH_MAX,
      });
      answerBatches.set(gameId, batches);
    }
    return batches;
  }

  /**
   * The answer's common case: to the question this instance saw open, stored by storeAnswers with
   * the other answers of the moment. Null when it was not stored, for whatever reason:
   * answerChecked then decides, and says why.
   */
  async function answerInOneStatement(
    studentId: string,
    gameId: string,
    message: Pick<LiveAnswerMessage, 'questionId' | 'value'>,
    receivedAt: Date,
  ): Promise<{ index: number; questionId: string } | null> {
    const seen = openSeen.get(gameId);
    if (!seen || seen.questionId !== message.questionId) return null;
    const question = (await questionsOf(db, gameId))[seen.index];
    if (!question || question._id !== seen.questionId || !isValidAnswer(question, message.value)) return null;
    const elapsedMs = Math.max(0, Math.round(receivedAt.getTime() - seen.openedAt.getTime()));
    const { fraction, points } = scoreLiveAnswer(question, message.value, elapsedMs, seen.seconds * 1000);
    const stored = await answerBatchesOf(gameId).add({
      studentId,
      seen,
      value: message.value,
      receivedAt,
      elapsedMs,
      points,
      fraction,
    });
    return stored ? { index: seen.index, questionId: question._id } : null;
  }

  /** The answer checked step by step in a transaction: every refusal's reason, and the first answer to a question. */
  async function answerChecked(
    studentId: string,
    gameId: string,
    message: Pick<LiveAnswerMessage, 'questionId' | 'value'>,
    receivedAt: Date,
  ): Promise<{ index: number; questionId: string }> {
    return db.transaction(async (tx) => {
      // For share: a close (an update of this row) waits for this answer, and an answer after it sees it closed.
      const game = await lockGame(tx, gameId, 'share');
      if (!game) throw refuse('GAME_NOT_FOUND');
      const [player] = await tx
        .select({ removed: livePlayers.removed, firstIndex: livePlayers.firstIndex })
        .from(livePlayers)
        .where(and(eq(livePlayers.gameId, gameId), eq(livePlayers.studentId, studentId)));
      if (!player) throw refuse('NOT_A_PLAYER');
      if (player.removed) throw refuse('PLAYER_REMOVED');
      if (isOver(game, receivedAt)) throw refuse('GAME_ENDED');
      if (game.state === 'paused') throw refuse('GAME_PAUSED');
      const question = game.state === 'question-open' ? await questionAt(tx, game) : null;
      if (!question || question._id !== message.questionId) throw refuse('QUESTION_NOT_OPEN');
      seeOpen(game, question._id);
      if (receivedAt >= game.questionDeadline!) throw refuse('TIME_UP');
      if (player.firstIndex > game.currentIndex) throw refuse('JOINED_DURING_QUESTION');
      const value: AnswerValue = message.value;
      if (!isValidAnswer(question, value)) throw refuse('INVALID_ANSWER');
      const elapsedMs = Math.max(0, Math.round(receivedAt.getTime() - game.questionOpenedAt!.getTime()));
      const { fraction, points } = scoreLiveAnswer(question, value, elapsedMs, game.questionSeconds * 1000);
      const inserted = await tx
        .insert(liveAnswers)
        .values({
          gameId,
          questionId: question._id,
          studentId,
          value,
          receivedAt,
          elapsedMs,
          points,
          fraction,
        })
        .onConflictDoNothing()
        .returning({ questionId: liveAnswers.questionId });
      if (inserted.length === 0) throw refuse('ALREADY_ANSWERED');
      return { index: game.currentIndex, questionId: question._id };
    });
  }

  /** The hosts' "18 of 27" for the open question (nothing when none is open). */
  async function countForHosts(gameId: string): Promise<PlayOutcome> {
    const [game] = await db
      .select({ state: liveGames.state, currentIndex: liveGames.currentIndex })
      .from(liveGames)
      .where(eq(liveGames.id, gameId));
    if (!game || (game.state !== 'question-open' && game.state !== 'paused')) return { deliveries: [] };
    const question = (await questionsOf(db, gameId))[game.currentIndex];
    if (!question) return { deliveries: [] };
    const [answered, players] = await Promise.all([
      answeredCount(db, gameId, question._id),
      eligibleCount(db, gameId, game.currentIndex),
    ]);
    const message: LiveServerMessage = { type: 'answer-count', index: game.currentIndex, answered, players };
    return { deliveries: [{ to: 'hosts', message }] };
  }

  async function openQuestion(tx: Queryable, game: LockedGame, index: number, at: Date): Promise<LiveDelivery[]> {
    const deadline = new Date(at.getTime() + game.questionSeconds * 1000);
    const [opened] = await tx
      .update(liveGames)
      .set({
        state: 'question-open',
        currentIndex: index,
        questionOpenedAt: at,
        questionDeadline: deadline,
        pausedAt: null,
        startedAt: game.startedAt ?? at,
        updatedAt: at,
      })
      .where(eq(liveGames.id, game.id))
      .returning(gameColumns);
    const question = (await questionAt(tx, opened!))!;
    seeOpen(opened!, question._id);
    const players = await eligibleCount(tx, game.id, index);
    return [
      {
        to: 'everyone',
        message: {
          type: 'question-opened',
          ...presentOpenedQuestion(opened!, question, signerFor(game.id), at),
        },
      },
      { to: 'hosts', message: { type: 'answer-count', index, answered: 0, players } },
    ];
  }

  /**
   * Closes the open (or paused) question `game` stands at, once: conditional on it still being
   * open, so a second close (another instance's timer, a skip racing the deadline) changes
   * nothing. Its answers' points go to their players, each player's streak moves.
   */
  async function closeQuestion(tx: Queryable, game: LockedGame, at: Date): Promise<LiveDelivery[]> {
    const [closed] = await tx
      .update(liveGames)
      .set({ state: 'question-closed', pausedAt: null, updatedAt: at })
      .where(
        and(
          eq(liveGames.id, game.id),
          sql`${liveGames.state} in ('question-open', 'paused')`,
          eq(liveGames.currentIndex, game.currentIndex),
        ),
      )
      .returning({ id: liveGames.id });
    if (!closed) return [];
    const question = (await questionAt(tx, game))!;
    const index = game.currentIndex;
    // Each player of the question: its points added, its streak one longer for a right answer, else back to 0.
    await tx.execute(sql`update ${livePlayers} p set
        score = p.score + coalesce((select a.points from ${liveAnswers} a where a.game_id = p.game_id
          and a.question_id = ${question._id} and a.student_id = p.student_id), 0),
        streak = case when exists (select 1 from ${liveAnswers} a where a.game_id = p.game_id
          and a.question_id = ${question._id} and a.student_id = p.student_id and a.fraction >= 1)
          then p.streak + 1 else 0 end
      where p.game_id = ${game.id} and not p.removed and p.first_index <= ${index}`);
    const rows = await standingsAt(tx, game.id, question._id);
    const { closed: results, top, results: each } = closeResults(game, question, rows, signerFor(game.id));
    return [
      { to: 'everyone', message: { type: 'question-closed', ...results } },
      ...each.map(({ studentId, result }): LiveDelivery => ({
        to: 'player',
        studentId,
        message: { type: 'your-result', ...result },
      })),
      { to: 'hosts', message: { type: 'leaderboard', index, top } },
    ];
  }

  async function endGame(tx: Queryable, game: LockedGame, at: Date, effects: Effects): Promise<LiveDelivery[]> {
    const closing = isOpen(game) ? await closeQuestion(tx, game, at) : [];
    await tx
      .update(liveGames)
      .set({ state: 'ended', endedAt: at, pausedAt: null, updatedAt: at })
      .where(eq(liveGames.id, game.id));
    // A game that counts is one more result on its players' leaderboards from its end (decision
    // 068), in the end's transaction; the game's row is held, then the players' (every writer's order).
    if (game.countsTowardLeaderboard) {
      effects.leaderboardMoved = (await recomputeGamePlayers(tx, [game.id])).length > 0;
    }
    const { podium, finals } = finalResults(game, await standingsAt(tx, game.id, null));
    return [
      ...closing,
      { to: 'everyone', message: { type: 'ended', podium, players: finals.length } },
      ...finals.map(({ studentId, final }): LiveDelivery => ({
        to: 'player',
        studentId,
        message: { type: 'your-final', ...final },
      })),
    ];
  }

  /** The open question's time left now (a paused one: as it was at the pause). */
  const remainingMs = (game: LockedGame, at: Date) =>
    Math.max(0, game.questionDeadline!.getTime() - (game.pausedAt ?? at).getTime());

  /** A command naming question `index`: refused once the game has left it. */
  function expectIndex(game: LockedGame, index: number) {
    if (game.state === 'lobby') throw refuse('WRONG_STATE');
    if (game.currentIndex !== index) throw refuse('MOVED_ON');
  }

  async function runCommand(tx: Queryable, game: LockedGame, command: LiveHostCommand, at: Date, effects: Effects) {
    const touch = () =>
      tx.update(liveGames).set({ updatedAt: at }).where(eq(liveGames.id, game.id)).returning({ id: liveGames.id });
    const isDue = game.state === 'question-open' && at >= game.questionDeadline!;
    switch (command.type) {
      case 'start':
        if (game.state !== 'lobby') throw refuse('WRONG_STATE');
        return openQuestion(tx, game, 0, at);
      case 'next':
        if (game.state === 'lobby') throw refuse('WRONG_STATE');
        if (game.currentIndex !== command.from) throw refuse('MOVED_ON');
        if (isOpen(game)) throw refuse('WRONG_STATE');
        return command.from + 1 < game.questionCount
          ? openQuestion(tx, game, command.from + 1, at)
          : endGame(tx, game, at, effects);
      case 'skip':
        expectIndex(game, command.index);
        // Closed already (its deadline came first): the close happened once, nothing to do.
        return closeQuestion(tx, game, at);
      case 'pause': {
        expectIndex(game, command.index);
        if (game.state === 'paused') return [];
        if (game.state !== 'question-open') throw refuse('WRONG_STATE');
        if (isDue) return closeQuestion(tx, game, at);
        await tx
          .update(liveGames)
          .set({ state: 'paused', pausedAt: at, updatedAt: at })
          .where(eq(liveGames.id, game.id));
        const message: LiveServerMessage = {
          type: 'paused',
          index: game.currentIndex,
          remainingMs: remainingMs(game, at),
        };
        return [{ to: 'everyone', message } satisfies LiveDelivery];
      }
      case 'resume': {
        expectIndex(game, command.index);
        if (game.state === 'question-open') return [];
        if (game.state !== 'paused') throw refuse('WRONG_STATE');
        // The pause does not count: the opening and the deadline move on by its length.
        const shift = at.getTime() - game.pausedAt!.getTime();
        const deadline = new Date(game.questionDeadline!.getTime() + shift);
        await tx
          .update(liveGames)
          .set({
            state: 'question-open',
            pausedAt: null,
            questionOpenedAt: new Date(game.questionOpenedAt!.getTime() + shift),
            questionDeadline: deadline,
            updatedAt: at,
          })
          .where(eq(liveGames.id, game.id));
        const message: LiveServerMessage = {
          type: 'resumed',
          index: game.currentIndex,
          deadline: deadline.toISOString(),
          remainingMs: deadline.getTime() - at.getTime(),
          serverTime: at.toISOString(),
        };
        return [{ to: 'everyone', message } satisfies LiveDelivery];
      }
      case 'add-time': {
        expectIndex(game, command.index);
        if (!isOpen(game)) throw refuse('WRONG_STATE');
        if (isDue) return closeQuestion(tx, game, at);
        const left = remainingMs(game, at);
        const added = Math.max(0, Math.min(command.seconds * 1000, LIVE_GAME_LIMITS.remainingSecondsMax * 1000 - left));
        const deadline = new Date(game.questionDeadline!.getTime() + added);
        await tx.update(liveGames).set({ questionDeadline: deadline, updatedAt: at }).where(eq(liveGames.id, game.id));
        const message: LiveServerMessage = {
          type: 'time-added',
          index: game.currentIndex,
          deadline: deadline.toISOString(),
          remainingMs: left + added,
          serverTime: at.toISOString(),
        };
        return [{ to: 'everyone', message } satisfies LiveDelivery];
      }
      case 'end':
        return endGame(tx, game, at, effects);
      case 'remove-player': {
        const [removed] = await tx
          .update(livePlayers)
          .set({ removed: true })
          .where(
            and(
              eq(livePlayers.gameId, game.id),
              eq(livePlayers.studentId, command.studentId),
              eq(livePlayers.removed, false),
            ),
          )
          .returning({ studentId: livePlayers.studentId });
        await touch();
        if (!removed) return [];
        const [count] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(livePlayers)
          .where(and(eq(livePlayers.gameId, game.id), eq(livePlayers.removed, false)));
        return [
          { to: 'player', studentId: removed.studentId, message: { type: 'removed' } },
          {
            to: 'hosts',
            message: { type: 'player-removed', playerId: removed.studentId, playerCount: count?.count ?? 0 },
          },
        ] satisfies LiveDelivery[];
      }
      case 'hide-names':
        await tx.update(liveGames).set({ namesHidden: command.hidden, updatedAt: at }).where(eq(liveGames.id, game.id));
        return [{ to: 'hosts', message: { type: 'names-hidden', hidden: command.hidden } }] satisfies LiveDelivery[];
      case 'set-question-seconds':
        if (game.state !== 'lobby') throw refuse('GAME_STARTED');
        await tx
          .update(liveGames)
          .set({ questionSeconds: command.seconds, updatedAt: at })
          .where(eq(liveGames.id, game.id));
        return [
          { to: 'hosts', message: { type: 'question-seconds', seconds: command.seconds } },
        ] satisfies LiveDelivery[];
    }
  }

  /** A host's welcome: the game, its roster, and whatever stands on the projector now. */
  async function hostWelcome(tx: Queryable, game: LockedGame, at: Date): Promise<LiveServerMessage> {
    const summary = (await findGameSummary(tx, game.id))!;
    const question = await questionAt(tx, game);
    const rows = await standingsAt(tx, game.id, question?._id ?? null);
    const signImage = signerFor(game.id);
    const closed =
      game.state === 'question-closed' && question ? closeResults(game, question, rows, signImage) : undefined;
    return {
      type: 'host-welcome',
      game: presentGameSummary(summary),
      players: rows.filter((row) => !row.removed).map((row) => ({ _id: row.studentId, name: row.name })),
      question: isOpen(game) && question ? presentOpenedQuestion(game, question, signImage, at) : null,
      paused: game.state === 'paused' ? { index: game.currentIndex, remainingMs: remainingMs(game, at) } : null,
      answered: isOpen(game) && question ? await answeredCount(tx, game.id, question._id) : 0,
      // The "18 of 27" of a host who comes back: of those who may answer, as the answer counts say.
      answering: isOpen(game) && question ? await eligibleCount(tx, game.id, game.currentIndex) : 0,
      closed: closed ? { ...closed.closed, top: closed.top } : null,
      podium: isOver(game, at) ? finalResults(game, rows).podium : null,
    };
  }

  /** A player's welcome: where the game is, their own score, and what they may do now. */
  async function playerWelcome(
    tx: Queryable,
    game: LockedGame,
    studentId: string,
    at: Date,
  ): Promise<LiveServerMessage> {
    const summary = (await findGameSummary(tx, game.id))!;
    const question = await questionAt(tx, game);
    const rows = await standingsAt(tx, game.id, question?._id ?? null);
    const own = rows.find((row) => row.studentId === studentId)!;
    const closed =
      game.state === 'question-closed' && question && own.firstIndex <= game.currentIndex
        ? closeResults(game, question, rows, signerFor(game.id)).results.find((entry) => entry.studentId === studentId)
        : undefined;
    const over = isOver(game, at);
    return {
      type: 'player-welcome',
      game: presentStudentGame(summary),
      you: { _id: studentId, score: own.score, streak: own.streak, firstIndex: own.firstIndex },
      question:
        !over && isOpen(game) && question ? presentOpenedQuestion(game, question, signerFor(game.id), at) : null,
      paused: game.state === 'paused' ? { index: game.currentIndex, remainingMs: remainingMs(game, at) } : null,
      answered: isOpen(game) && own.value !== null,
      result: closed?.result ?? null,
      final: over
        ? (finalResults(game, rows).finals.find((entry) => entry.studentId === studentId)?.final ?? null)
        : null,
    };
  }

  return {
    /**
     * A host (any teacher of the game's class) joins or comes back: the welcome only. A student is
     * never a host, whatever they send.
     */
    async joinAsHost(actor: LiveActor, gameId: string): Promise<JoinOutcome> {
      const at = now();
      return refusing(async () => {
        if (actor.role !== 'teacher') throw refuse('NOT_A_HOST');
        if (!uuid.safeParse(gameId).success) throw refuse('GAME_NOT_FOUND');
        return db.transaction(async (tx) => {
          const game = await lockGame(tx, gameId, 'share');
          if (!game) throw refuse('GAME_NOT_FOUND');
          if (!(await teachesClass(tx, actor.id, game.classId))) throw refuse('NOT_A_HOST');
          return { welcome: await hostWelcome(tx, game, at), deliveries: [] };
        });
      });
    },

    /**
     * A student of the game's class joins, before or after the start (then they play from the next
     * question), or comes back: one player per student, so a reconnect keeps its score. Anyone
     * else is GAME_NOT_FOUND, as an unknown game is.
     */
    async joinAsPlayer(actor: LiveActor, gameId: string): Promise<JoinOutcome> {
      const at = now();
      return refusing(async () => {
        if (actor.role !== 'student') throw refuse('NOT_A_PLAYER');
        if (!uuid.safeParse(gameId).success) throw refuse('GAME_NOT_FOUND');
        return db.transaction(async (tx) => {
          // For share: a question opening meanwhile waits, so the first question is decided on the state that is.
          const game = await lockGame(tx, gameId, 'share');
          if (!game || !(await isStudentOfClass(tx, actor.id, game.classId))) throw refuse('GAME_NOT_FOUND');
          const [existing] = await tx
            .select({ removed: livePlayers.removed })
            .from(livePlayers)
            .where(and(eq(livePlayers.gameId, gameId), eq(livePlayers.studentId, actor.id)));
          if (existing?.removed) throw refuse('PLAYER_REMOVED');
          if (!existing && isOver(game, at)) throw refuse('GAME_ENDED');
          const joined = existing
            ? []
            : await tx
                .insert(livePlayers)
                .values({ gameId, studentId: actor.id, firstIndex: game.currentIndex + 1, joinedAt: at })
                .onConflictDoNothing()
                .returning({ studentId: livePlayers.studentId });
          const welcome = await playerWelcome(tx, game, actor.id, at);
          if (joined.length === 0) return { welcome, deliveries: [] };
          const [student] = await tx.select({ name: students.name }).from(students).where(eq(students.id, actor.id));
          const [count] = await tx
            .select({ count: sql<number>`count(*)::int` })
            .from(livePlayers)
            .where(and(eq(livePlayers.gameId, gameId), eq(livePlayers.removed, false)));
          const message: LiveServerMessage = {
            type: 'player-joined',
            player: { _id: actor.id, name: student?.name ?? '' },
            playerCount: count?.count ?? 0,
          };
          return { welcome, deliveries: [{ to: 'hosts', message } satisfies LiveDelivery] };
        });
      });
    },

    /** A host's command (LiveHostCommand), refused from anyone who is not a teacher of the game's class. */
    async host(actor: LiveActor, gameId: string, command: LiveHostCommand): Promise<PlayOutcome> {
      const at = now();
      return refusing(async () => {
        if (actor.role !== 'teacher') throw refuse('NOT_A_HOST');
        if (!uuid.safeParse(gameId).success) throw refuse('GAME_NOT_FOUND');
        const effects: Effects = { leaderboardMoved: false };
        const outcome = await db.transaction(async (tx) => {
          const game = await lockGame(tx, gameId, 'update');
          if (!game) throw refuse('GAME_NOT_FOUND');
          if (!(await teachesClass(tx, actor.id, game.classId))) throw refuse('NOT_A_HOST');
          if (isOver(game, at)) throw refuse('GAME_ENDED');
          return { deliveries: await runCommand(tx, game, command, at, effects) };
        });
        // After the commit, as a quiz's grading does: every leaderboard page read before is stale.
        if (effects.leaderboardMoved) await cache.changed([cacheTags.leaderboard]);
        return outcome;
      });
    },

    /**
     * A player's answer to the open question, received at `receivedAt` (the socket's receipt):
     * stored and acknowledged only while the question is open and before its deadline, the first
     * one only. Its points wait for the close; the acknowledgement says nothing of them.
     */
    async answer(
      actor: LiveActor,
      gameId: string,
      message: Pick<LiveAnswerMessage, 'questionId' | 'value'>,
      receivedAt: Date = now(),
      options: { countsForHosts?: boolean } = {},
    ): Promise<PlayOutcome> {
      return refusing(async () => {
        if (actor.role !== 'student') throw refuse('NOT_A_PLAYER');
        if (!uuid.safeParse(gameId).success) throw refuse('GAME_NOT_FOUND');
        const stored =
          (await answerInOneStatement(actor.id, gameId, message, receivedAt)) ??
          (await answerChecked(actor.id, gameId, message, receivedAt));
        const accepted: LiveDelivery = {
          to: 'player',
          studentId: actor.id,
          message: { type: 'answer-accepted', questionId: stored.questionId },
        };
        // The socket counts for the hosts a few times a second instead (answerCount), not once per answer.
        if (options.countsForHosts === false) return { deliveries: [accepted] };
        const counted = await countForHosts(gameId);
        return { deliveries: [accepted, ...counted.deliveries] };
      });
    },

    /** The hosts' "18 of 27" for the open question (nothing when none is open). */
    answerCount: countForHosts,

    /**
     * Closes the open question once its deadline has passed: every instance with someone in the
     * game's room may call it at the deadline (and any time after, as a sweep); one closes it.
     */
    async closeIfDue(gameId: string): Promise<PlayOutcome> {
      if (!uuid.safeParse(gameId).success) return { deliveries: [] };
      // Answers received before the deadline may still wait in this instance's batches: they go
      // first (each was timed on arrival), so the last second's rush is not refused by the close.
      await answerBatches.get(gameId)?.settled();
      const at = now();
      return db.transaction(async (tx) => {
        const game = await lockGame(tx, gameId, 'update');
        if (!game || game.state !== 'question-open' || at < game.questionDeadline!) return { deliveries: [] };
        return { deliveries: await closeQuestion(tx, game, at) };
      });
    },
  };
}

export type LiveGamePlay = ReturnType<typeof createLiveGamePlay>;
