import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  isPlayedLive,
  LIVE_GAME_LIMITS,
  type FinishedLiveGame,
  type LiveGameReport,
  type LiveGameSummary,
  type LiveTicket,
  type NewLiveGame,
  type StudentLiveGame,
} from '#shared/live-games';
import { isChoiceQuestion, type StoredQuestion } from '#shared/question-types';
import { cacheTags, readsUncached, type ReadCache } from '../../cache/read-cache.ts';
import type { Database } from '../../db/client.ts';
import {
  classStudents,
  classTeachers,
  liveAnswers,
  liveGames,
  livePlayers,
  quizzes,
  students,
  teachers,
} from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { AuthenticatedUser } from '../../plugins/auth.ts';
import { isStudentOfClass, requireTaughtClass, teachesClass } from '../classes/records.ts';
import { shuffled } from '../quizzes/attempt-rules.ts';
import { recomputeGamePlayers } from '../quizzes/grading.ts';
import { imageSignerOf, toPage, type ListedPage, type Page } from '../quizzes/quiz-records.ts';
import type { FileAccess } from '../resources/file-access.ts';
import { presentClosedQuestion, presentFinishedGame, presentGameSummary, presentStudentGame } from './presenters.ts';
import {
  answerValueOf,
  answerValueText,
  findGameSummary,
  idleBefore,
  isActiveSql,
  selectGameSummaries,
} from './records.ts';
import type { LiveTokens } from './live-tokens.ts';
import { distributionOf, rankStandings } from './scoring.ts';

/**
 * The live game's REST side (issue 34, decision 066): creating a game, finding the active ones
 * (a teacher's to host, a student's to join, by PIN or on the dashboard), the leaderboard choice,
 * and a finished game's report under its quiz's analytics. The play itself is play.ts.
 */

/**
 * The questions a game plays, as it keeps them: essays and descriptions out, each question's
 * options (and a matching question's choices) in one shuffled order for the whole room. Teachers
 * often write the right option first (decision 039); the projector and every phone show the same order.
 */
export function playedQuestions(questions: StoredQuestion[]): StoredQuestion[] {
  return questions.filter(isPlayedLive).map((question) => {
    if (isChoiceQuestion(question)) return { ...question, options: shuffled(question.options) };
    if (question.type === 'matching') return { ...question, choices: shuffled(question.choices) };
    return question;
  });
}

const newPin = () => String(randomInt(10 ** LIVE_GAME_LIMITS.pinLength)).padStart(LIVE_GAME_LIMITS.pinLength, '0');
/** PIN draws before giving up: with a million PINs and a school's few games at once, one almost always does. */
const PIN_DRAWS = 20;

export function createLiveGames(
  db: Database,
  fileAccess: FileAccess,
  options: { now?: () => Date; tokens?: LiveTokens; cache?: ReadCache } = {},
) {
  const now = options.now ?? (() => new Date());
  const cache = options.cache ?? readsUncached();
  const imagesFor = imageSignerOf(fileAccess);

  /** The game, if the teacher teaches its class: 404 no game, 403 another class's (requireTaughtClass's answers). */
  async function findTaughtGame(teacherId: string, gameId: string) {
    const row = await findGameSummary(db, gameId);
    if (!row) throw notFound('This live game does not exist');
    await requireTaughtClass(db, teacherId, row.game.classId);
    return row;
  }

  /** The quiz, if the teacher created it (the analytics' rule): its reports carry its key. */
  async function findOwnQuiz(teacherId: string, quizId: string) {
    const [quiz] = await db
      .select({ id: quizzes.id, createdBy: quizzes.createdByTeacherId })
      .from(quizzes)
      .where(eq(quizzes.id, quizId))
      .limit(1);
    if (!quiz) throw notFound('This quiz does not exist');
    if (quiz.createdBy !== teacherId) throw forbidden('Only the teacher who created this quiz can see its games');
    return quiz;
  }

  return {
    /**
     * A new game in the lobby for one of the caller's own quizzes (not archived) and an active
     * class they teach, with a PIN no game not ended has. Abandoned games end first (their PINs
     * come free). One transaction.
     */
    async create(teacherId: string, input: NewLiveGame): Promise<LiveGameSummary> {
      const at = now();
      let leaderboardMoved = false;
      const gameId = await db.transaction(async (tx) => {
        leaderboardMoved = false;
        const [quiz] = await tx
          .select({
            createdBy: quizzes.createdByTeacherId,
            archivedAt: quizzes.archivedAt,
            questions: quizzes.questions,
          })
          .from(quizzes)
          .where(eq(quizzes.id, input.quizId))
          .limit(1);
        if (!quiz) throw notFound('This quiz does not exist');
        if (quiz.createdBy !== teacherId) throw forbidden('Only the teacher who created this quiz can play it live');
        if (quiz.archivedAt) throw new AppError('QUIZ_ARCHIVED', 'This quiz is archived: it cannot be played');
        await requireTaughtClass(tx, teacherId, input.classId, { mustBeActive: true });
        const questions = playedQuestions(quiz.questions);
        if (questions.length === 0)
          throw new AppError('NO_LIVE_QUESTIONS', 'This quiz has only essays and descriptions: nothing to play live');
        const skipped = quiz.questions
          .filter((question) => !isPlayedLive(question))
          .map((question) => ({ _id: question._id, type: question.type }));
        const abandoned = await tx
          .update(liveGames)
          .set({ state: 'ended', endedAt: at, pausedAt: null })
          .where(
            and(
              sql`${liveGames.state} <> 'ended'`,
              sql`${liveGames.updatedAt} < ${idleBefore(at).toISOString()}::timestamptz`,
            ),
          )
          .returning({ id: liveGames.id, counts: liveGames.countsTowardLeaderboard });
        // One that counts toward the leaderboard does from this end (decision 068).
        const counted = abandoned.filter((game) => game.counts).map((game) => game.id);
        leaderboardMoved = (await recomputeGamePlayers(tx, counted.sort())).length > 0;
        // An empty lobby of the same quiz and class is one left behind (the teacher opened the
        // lobby again): it ends, so students see one "Join" for it, not one per try.
        await tx
          .update(liveGames)
          .set({ state: 'ended', endedAt: at })
          .where(
            and(
              eq(liveGames.quizId, input.quizId),
              eq(liveGames.classId, input.classId),
              sql`${liveGames.state} = 'lobby'`,
              sql`not exists (select 1 from ${livePlayers} where ${livePlayers.gameId} = ${liveGames.id})`,
            ),
          );
        for (let draw = 0; draw < PIN_DRAWS; draw++) {
          // A PIN taken by a game not ended is skipped (the partial unique index), never an error.
          const [created] = await tx
            .insert(liveGames)
            .values({
              quizId: input.quizId,
              classId: input.classId,
              hostTeacherId: teacherId,
              pin: newPin(),
              questions,
              skipped,
              questionCount: questions.length,
              questionSeconds: input.questionSeconds ?? LIVE_GAME_LIMITS.questionSecondsDefault,
              createdAt: at,
              updatedAt: at,
            })
            .onConflictDoNothing({ target: liveGames.pin, where: sql`${liveGames.state} <> 'ended'` })
            .returning({ id: liveGames.id });
          if (created) return created.id;
        }
        throw new AppError('UNAVAILABLE', 'No game PIN is free just now: try again');
      });
      if (leaderboardMoved) await cache.changed([cacheTags.leaderboard]);
      return presentGameSummary((await findGameSummary(db, gameId))!);
    },

    /** The games not over of the classes the caller teaches, newest first: where a host takes a game back. */
    async listForTeacher(teacherId: string): Promise<LiveGameSummary[]> {
      const rows = await selectGameSummaries(db)
        .where(
          and(
            isActiveSql(now()),
            sql`${liveGames.classId} in (select ${classTeachers.classId} from ${classTeachers} where ${classTeachers.teacherId} = ${teacherId})`,
          ),
        )
        .orderBy(desc(liveGames.createdAt), desc(liveGames.id))
        .limit(LIVE_GAME_LIMITS.listedGames);
      return rows.map(presentGameSummary);
    },

    async getForTeacher(teacherId: string, gameId: string): Promise<LiveGameSummary> {
      return presentGameSummary(await findTaughtGame(teacherId, gameId));
    },

    /** Whether the game counts toward the class leaderboard: any teacher of the class decides, any time. */
    async setLeaderboardChoice(teacherId: string, gameId: string, counts: boolean): Promise<LiveGameSummary> {
      await findTaughtGame(teacherId, gameId);
      // An ended game's players' averages follow the choice at once (decision 068), in its
      // transaction: the game's row first, then the players' (a game's end takes them so too).
      const moved = await db.transaction(async (tx) => {
        const [game] = await tx
          .select({ state: liveGames.state, counts: liveGames.countsTowardLeaderboard })
          .from(liveGames)
          .where(eq(liveGames.id, gameId))
          .for('update');
        if (!game) return [];
        await tx.update(liveGames).set({ countsTowardLeaderboard: counts }).where(eq(liveGames.id, gameId));
        // A game not ended counts from its end; the same choice again changes nothing.
        if (game.state !== 'ended' || game.counts === counts) return [];
        return recomputeGamePlayers(tx, [gameId], { resultsRemoved: !counts });
      });
      if (moved.length > 0) await cache.changed([cacheTags.leaderboard]);
      return presentGameSummary((await findGameSummary(db, gameId))!);
    },

    /**
     * A room token for the game's socket: a host's for a teacher of its class, a player's for a
     * student of it, while the game is not over. Anyone else gets the 404 an unknown game gets.
     */
    async issueToken(user: AuthenticatedUser, gameId: string): Promise<LiveTicket> {
      if (!options.tokens) throw new Error('issueToken(): no live tokens configured');
      const row = await findGameSummary(db, gameId);
      const isHost = user.role === 'teacher';
      const allowed =
        row &&
        row.game.state !== 'ended' &&
        (isHost
          ? await teachesClass(db, user.id, row.game.classId)
          : await isStudentOfClass(db, user.id, row.game.classId));
      if (!allowed) throw notFound('This live game does not exist');
      const table = isHost ? teachers : students;
      const [account] = await db.select({ name: table.name }).from(table).where(eq(table.id, user.id)).limit(1);
      if (!account) throw notFound('This live game does not exist');
      const { token, expiresAt } = await options.tokens.issue({
        sub: user.id,
        role: user.role,
        name: account.name,
        room: gameId,
        sv: user.sessionVersion,
        host: isHost,
      });
      return { gameId, token, expiresAt: expiresAt.toISOString(), host: isHost };
    },

    /** The games not over of the student's classes (the dashboard's "Live game in 10-A: Join"). */
    async listForStudent(studentId: string): Promise<StudentLiveGame[]> {
      const rows = await selectGameSummaries(db)
        .where(
          and(
            isActiveSql(now()),
            sql`${liveGames.classId} in (select ${classStudents.classId} from ${classStudents} where ${classStudents.studentId} = ${studentId})`,
          ),
        )
        .orderBy(desc(liveGames.createdAt), desc(liveGames.id))
        .limit(LIVE_GAME_LIMITS.listedGames);
      return rows.map(presentStudentGame);
    },

    /**
     * The game not over with this PIN, for a student of its class; anyone else gets the same 404
     * as for a PIN no game has, so a PIN tells nothing outside its class.
     */
    async findByPin(studentId: string, pin: string): Promise<StudentLiveGame> {
      const [row] = await selectGameSummaries(db)
        .where(
          and(
            eq(liveGames.pin, pin),
            isActiveSql(now()),
            sql`${liveGames.classId} in (select ${classStudents.classId} from ${classStudents} where ${classStudents.studentId} = ${studentId})`,
          ),
        )
        .limit(1);
      if (!row) throw notFound('No live game of your classes has this PIN');
      return presentStudentGame(row);
    },

    /** A quiz's finished games, newest first, for the teacher who created it (its analytics). */
    async listFinished(teacherId: string, quizId: string, page: Page): Promise<ListedPage<FinishedLiveGame>> {
      await findOwnQuiz(teacherId, quizId);
      const rows = await selectGameSummaries(db)
        .where(and(eq(liveGames.quizId, quizId), sql`${liveGames.state} = 'ended'`))
        .orderBy(desc(liveGames.endedAt), desc(liveGames.id))
        .limit(page.limit + 1)
        .offset(page.offset);
      const listed = toPage(rows, page.limit);
      return { ...listed, items: listed.items.map(presentFinishedGame) };
    },

    /**
     * A finished game's report: each question it played with its key and the distribution of its
     * answers, each student with their score, rank and answers. For the quiz's creator.
     */
    async report(teacherId: string, quizId: string, gameId: string): Promise<LiveGameReport> {
      await findOwnQuiz(teacherId, quizId);
      const [row] = await selectGameSummaries(db)
        .where(and(eq(liveGames.id, gameId), eq(liveGames.quizId, quizId), sql`${liveGames.state} = 'ended'`))
        .limit(1);
      if (!row) throw notFound('This quiz has no finished live game with this id');
      const [{ questions } = { questions: [] }] = await db
        .select({ questions: liveGames.questions })
        .from(liveGames)
        .where(eq(liveGames.id, gameId));
      const players = await db
        .select({
          studentId: livePlayers.studentId,
          name: students.name,
          rollNumber: students.rollNumber,
          score: livePlayers.score,
          removed: livePlayers.removed,
          firstIndex: livePlayers.firstIndex,
          joinedAt: livePlayers.joinedAt,
        })
        .from(livePlayers)
        .innerJoin(students, eq(students.id, livePlayers.studentId))
        .where(eq(livePlayers.gameId, gameId));
      const answerRows = await db
        .select({
          studentId: liveAnswers.studentId,
          questionId: liveAnswers.questionId,
          valueText: answerValueText,
          points: liveAnswers.points,
          fraction: liveAnswers.fraction,
          elapsedMs: liveAnswers.elapsedMs,
          receivedAt: liveAnswers.receivedAt,
        })
        .from(liveAnswers)
        .where(eq(liveAnswers.gameId, gameId))
        .orderBy(asc(liveAnswers.receivedAt));
      const answers = answerRows.map(({ valueText, ...answer }) => ({ ...answer, value: answerValueOf(valueText)! }));
      const inGame = players.filter((player) => !player.removed);
      const removedIds = new Set(players.filter((player) => player.removed).map((player) => player.studentId));
      const rankOf = new Map(rankStandings(inGame).map((player) => [player.studentId, player.rank]));
      const signImage = imagesFor(teacherId);
      const played = row.game.currentIndex;
      const position = new Map(questions.map((question, index) => [question._id, index]));
      const byStudent = new Map<string, typeof answers>();
      for (const answer of answers)
        byStudent.set(answer.studentId, [...(byStudent.get(answer.studentId) ?? []), answer]);
      return {
        game: presentFinishedGame(row),
        questions: questions.map((question, index) => {
          const counted = answers.filter(
            (answer) => answer.questionId === question._id && !removedIds.has(answer.studentId),
          );
          const eligible = inGame.filter((player) => player.firstIndex <= index).length;
          return {
            question: presentClosedQuestion(question, signImage),
            played: index <= played,
            distribution: distributionOf(question, counted, index <= played ? eligible : 0),
          };
        }),
        skipped: row.game.skipped,
        players: [...players]
          .sort(
            (a, b) =>
              (rankOf.get(a.studentId) ?? Infinity) - (rankOf.get(b.studentId) ?? Infinity) ||
              a.name.localeCompare(b.name) ||
              a.studentId.localeCompare(b.studentId),
          )
          .map((player) => ({
            student: { _id: player.studentId, name: player.name, rollNumber: player.rollNumber },
            score: player.score,
            rank: rankOf.get(player.studentId) ?? null,
            removed: player.removed,
            joinedAt: player.joinedAt.toISOString(),
            answers: (byStudent.get(player.studentId) ?? [])
              .sort((a, b) => (position.get(a.questionId) ?? 0) - (position.get(b.questionId) ?? 0))
              .map((answer) => ({
                questionId: answer.questionId,
                value: answer.value,
                points: answer.points,
                fraction: answer.fraction,
                elapsedMs: answer.elapsedMs,
              })),
          })),
      };
    },
  };
}

export type LiveGames = ReturnType<typeof createLiveGames>;
