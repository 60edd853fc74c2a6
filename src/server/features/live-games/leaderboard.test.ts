import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardEntry } from '#shared/progress';
import type { QuizQuestion } from '#shared/quizzes';
import type { TypedQuestionInput } from '#shared/question-types';
import { createLocalTagVersions, createReadCache, type ReadCache } from '../../cache/read-cache.ts';
import { students } from '../../db/schema.ts';
import { signUpStudent } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  liveGameClass,
  messagesOf,
  rightAnswer,
  SINGLE_CHOICE,
  testClock,
  wrongAnswer,
  type Player,
} from './live-game-testing.ts';
import type { LiveActor, PlayOutcome } from './play.ts';

/**
 * What a live game that counts adds to the leaderboards (decision 068): once ended, one more
 * result for each player not removed who answered, scored as the quiz scores (points earned, and
 * the percent of the points of the questions they could answer), at once when the choice changes
 * after the end; read through GET /api/get-students right after each change (the read cache is
 * told: play shares the app's tag versions here, as instances share them through Redis).
 */

let t: TestApp;
let cache: ReadCache;
beforeAll(async () => {
  const versions = createLocalTagVersions();
  t = await createTestApp({ readCache: { versions } });
  cache = createReadCache({ versions });
});
afterAll(async () => {
  await t.close();
});

/** 1, 2 and 1 points: 4 in all. */
const QUESTIONS: TypedQuestionInput[] = [
  SINGLE_CHOICE,
  { type: 'true-false', question_text: 'Ice is frozen water.', points: 2, correct: true },
  { type: 'short-text', question_text: 'Capital of China?', points: 1, accepted: ['Beijing'] },
];

type Answer = 'right' | 'wrong' | null;
type Seat = { player: LiveActor; answers: Answer[]; joinsBefore?: number; removedAfter?: number };
type Game = Awaited<ReturnType<typeof liveGameClass>>;

function done<Outcome extends PlayOutcome>(outcome: Outcome): Outcome {
  expect(outcome.refused, JSON.stringify(outcome)).toBeUndefined();
  return outcome;
}

/**
 * Plays a game of QUESTIONS: each seat joins (at the start, or before question `joinsBefore`),
 * answers as told, maybe is removed after a question; each question closes by the host's skip.
 * `through` questions are played; then the host ends it by "next" after the last, by "end", or not.
 */
async function playGame(
  game: Game,
  gameId: string,
  seats: Seat[],
  options: { through?: number; ending?: 'next' | 'end' | 'none' } = {},
) {
  const through = options.through ?? QUESTIONS.length;
  const { play, host, clock } = game;
  for (const seat of seats) if (!seat.joinsBefore) done(await play.joinAsPlayer(seat.player, gameId));
  let outcome = done(await play.host(host, gameId, { type: 'start' }));
  for (let index = 0; index < through; index++) {
    const question: QuizQuestion = messagesOf(outcome.deliveries, 'question-opened')[0]!.question;
    for (const seat of seats) {
      const answer = seat.answers[index];
      if (!answer) continue;
      const value = answer === 'right' ? rightAnswer(question) : wrongAnswer(question);
      done(await play.answer(seat.player, gameId, { questionId: question._id, value }));
    }
    clock.advance(1_000);
    done(await play.host(host, gameId, { type: 'skip', index }));
    for (const seat of seats) {
      if (seat.removedAfter === index) {
        done(await play.host(host, gameId, { type: 'remove-player', studentId: seat.player.id }));
      }
    }
    for (const seat of seats) if (seat.joinsBefore === index + 1) done(await play.joinAsPlayer(seat.player, gameId));
    const last = index + 1 === QUESTIONS.length;
    if (index + 1 < through || (last && options.ending === 'next')) {
      outcome = done(await play.host(host, gameId, { type: 'next', from: index }));
    }
  }
  if ((options.ending ?? 'end') === 'end') done(await play.host(host, gameId, { type: 'end' }));
}

/** A class's leaderboard as its teacher reads it. */
async function board(teacher: { token: string }, classId: string): Promise<LeaderboardEntry[]> {
  const read = await t.call({
    method: 'GET',
    url: `/api/get-students?classId=${classId}&limit=50`,
    headers: bearer(teacher.token),
  });
  expect(read.status, read.raw).toBe(200);
  return read.body.data as LeaderboardEntry[];
}

/** Each ranked student's figures, by id. */
const figures = (entries: LeaderboardEntry[]) =>
  Object.fromEntries(
    entries.map((entry) => [
      entry._id,
      {
        rank: entry.rank,
        averageScore: entry.averageScore,
        averageAccuracy: entry.averageAccuracy,
        totalScore: entry.totalScore,
        quizzesAttempted: entry.quizzesAttempted,
      },
    ]),
  );

async function storedAggregates(ids: string[]) {
  const rows = await t.database.db
    .select({
      id: students.id,
      averageScore: students.averageScore,
      averageAccuracy: students.averageAccuracy,
      totalScore: students.totalScore,
      quizzesAttempted: students.quizzesAttempted,
    })
    .from(students)
    .where(inArray(students.id, ids));
  return Object.fromEntries(rows.map(({ id, ...row }) => [id, row]));
}
const ZERO = { averageScore: 0, averageAccuracy: 0, totalScore: 0, quizzesAttempted: 0 };

/**
 * A student who registered into the class and took one of its quizzes (3 questions of 1 point)
 * with every answer right: 3 points, 100 %.
 */
async function veteranOf(game: Pick<Game, 'teacher' | 'klass'>) {
  const student = await signUpStudent(t, { classCode: game.klass.joinCode });
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(game.teacher.token),
    payload: buildNewQuiz({ classId: game.klass.id }),
  });
  expect(created.status, created.raw).toBe(201);
  const quizId = created.body.data._id as string;
  const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) });
  expect(started.status, started.raw).toBe(200);
  const right: Record<string, string> = {
    'What is 2 + 2?': '4',
    'What is the capital of France?': 'Paris',
    'Which is a prime number?': '7',
  };
  const questions = started.body.data.quiz.questions as QuizQuestion[];
  const submitted = await t.call({
    method: 'POST',
    url: '/api/student/update-student',
    headers: bearer(student.token),
    payload: {
      quiz: {
        _id: quizId,
        questions: questions.map((question) => ({
          _id: question._id,
          selectedOption: right[question.question_text],
        })),
      },
    },
  });
  expect(submitted.status, submitted.raw).toBe(200);
  expect(submitted.body.data.attempt.score).toBe(3);
  return { id: student.profile._id, role: 'student' as const };
}

const setChoice = (game: Game, gameId: string, countsTowardLeaderboard: boolean) =>
  t
    .call({
      method: 'PUT',
      url: `/api/live-games/${gameId}/leaderboard`,
      headers: bearer(game.teacher.token),
      payload: { countsTowardLeaderboard },
    })
    .then((response) => {
      expect(response.status, response.raw).toBe(200);
      return response;
    });

describe('a live game on the class leaderboard', () => {
  it('counts, once ended, as one more quiz for each player who answered; switched off and on, at once', async () => {
    const game = await liveGameClass(t, { students: 3, questions: QUESTIONS, cache });
    const [ada, ben, cy] = game.players as [Player, Player, Player];
    const veteran = await veteranOf(game);
    // Another class, with its own ranked student: nothing here moves it.
    const other = await liveGameClass(t, { students: 0, questions: QUESTIONS, cache });
    await veteranOf(other);
    const otherBefore = await board(other.teacher, other.klass.id);
    expect(otherBefore).toHaveLength(1);

    // Before: the veteran alone (3 points, 100 %), read once so the page is kept by the read cache.
    expect(figures(await board(game.teacher, game.klass.id))).toEqual({
      [veteran.id]: { rank: 1, averageScore: 3, averageAccuracy: 100, totalScore: 3, quizzesAttempted: 1 },
    });

    const created = await game.newGame();
    await setChoice(game, created._id, true);
    await playGame(
      game,
      created._id,
      [
        { player: ada, answers: ['right', 'right', 'right'] }, // 4 of 4 points
        { player: ben, answers: ['wrong', 'right', 'right'] }, // 3 of 4
        { player: cy, answers: [null, null, null] }, // answered nothing: not counted
        { player: veteran, answers: ['right', null, 'wrong'] }, // 1 of 4, beside their quiz's 3 of 3
      ],
      { ending: 'next' },
    );
    const counted = {
      [ada.id]: { rank: 1, averageScore: 4, averageAccuracy: 100, totalScore: 4, quizzesAttempted: 1 },
      [ben.id]: { rank: 2, averageScore: 3, averageAccuracy: 75, totalScore: 3, quizzesAttempted: 1 },
      [veteran.id]: { rank: 3, averageScore: 2, averageAccuracy: 62.5, totalScore: 4, quizzesAttempted: 2 },
    };
    expect(figures(await board(game.teacher, game.klass.id))).toEqual(counted);
    expect((await storedAggregates([cy.id]))[cy.id]).toEqual(ZERO);

    // Switched off after the end: the figures are those before the game, at once.
    await setChoice(game, created._id, false);
    expect(figures(await board(game.teacher, game.klass.id))).toEqual({
      [veteran.id]: { rank: 1, averageScore: 3, averageAccuracy: 100, totalScore: 3, quizzesAttempted: 1 },
    });
    expect(await storedAggregates([ada.id, ben.id])).toEqual({ [ada.id]: ZERO, [ben.id]: ZERO });

    // And on again (the same choice twice changes nothing more).
    await setChoice(game, created._id, true);
    await setChoice(game, created._id, true);
    expect(figures(await board(game.teacher, game.klass.id))).toEqual(counted);

    expect(await board(other.teacher, other.klass.id)).toEqual(otherBefore);
  });

  it('a game that does not count changes nothing', async () => {
    const game = await liveGameClass(t, { students: 2, questions: QUESTIONS, cache });
    const [ada, ben] = game.players as [Player, Player];
    const veteran = await veteranOf(game);
    const before = await board(game.teacher, game.klass.id);
    const created = await game.newGame();
    await playGame(game, created._id, [
      { player: ada, answers: ['right', 'right', 'right'] },
      { player: ben, answers: ['right', 'wrong', 'right'] },
      { player: veteran, answers: ['wrong', 'wrong', 'wrong'] },
    ]);
    expect(await board(game.teacher, game.klass.id)).toEqual(before);
    expect(await storedAggregates([ada.id, ben.id])).toEqual({ [ada.id]: ZERO, [ben.id]: ZERO });
  });

  it('leaves out a removed player, and counts a late joiner on the questions they could answer', async () => {
    const game = await liveGameClass(t, { students: 3, questions: QUESTIONS, cache });
    const [ada, ben, cy] = game.players as [Player, Player, Player];
    const created = await game.newGame();
    await setChoice(game, created._id, true);
    await playGame(game, created._id, [
      { player: ada, answers: ['right', 'right', null], removedAfter: 1 },
      { player: ben, answers: ['right', 'wrong', 'wrong'] },
      // Joins after the first question: 2 of the 3 points they could earn.
      { player: cy, answers: [null, 'right', 'wrong'], joinsBefore: 1 },
    ]);
    expect(figures(await board(game.teacher, game.klass.id))).toEqual({
      [cy.id]: { rank: 1, averageScore: 2, averageAccuracy: 66.67, totalScore: 2, quizzesAttempted: 1 },
      [ben.id]: { rank: 2, averageScore: 1, averageAccuracy: 25, totalScore: 1, quizzesAttempted: 1 },
    });
    expect((await storedAggregates([ada.id]))[ada.id]).toEqual(ZERO);
  });

  it('does not count a game still running, and counts a game ended early on the questions it played', async () => {
    const game = await liveGameClass(t, { students: 2, questions: QUESTIONS, cache });
    const [ada, ben] = game.players as [Player, Player];
    const created = await game.newGame();
    await playGame(
      game,
      created._id,
      [
        { player: ada, answers: ['right', 'right'] },
        { player: ben, answers: ['wrong', 'right'] },
      ],
      { through: 2, ending: 'none' },
    );
    // Switched on while it runs: recorded, nothing counted yet.
    await setChoice(game, created._id, true);
    expect(await board(game.teacher, game.klass.id)).toEqual([]);
    expect(await storedAggregates([ada.id, ben.id])).toEqual({ [ada.id]: ZERO, [ben.id]: ZERO });
    // Ended after two of its three questions: 3 points of 3, 2 of 3.
    done(await game.play.host(game.host, created._id, { type: 'end' }));
    expect(figures(await board(game.teacher, game.klass.id))).toEqual({
      [ada.id]: { rank: 1, averageScore: 3, averageAccuracy: 100, totalScore: 3, quizzesAttempted: 1 },
      [ben.id]: { rank: 2, averageScore: 2, averageAccuracy: 66.67, totalScore: 2, quizzesAttempted: 1 },
    });
  });

  it('counts an abandoned game from the end the next new game gives it', async () => {
    // The game is played seven hours ago: idle past LIVE_GAME_LIMITS.idleHours, over but not ended.
    const clock = testClock(new Date(Date.now() - 7 * 3_600_000));
    const game = await liveGameClass(t, { students: 1, questions: QUESTIONS, cache, clock });
    const [ada] = game.players as [Player];
    const created = await game.newGame();
    await setChoice(game, created._id, true);
    await playGame(game, created._id, [{ player: ada, answers: ['right', 'right', 'right'] }], { ending: 'none' });
    expect(await board(game.teacher, game.klass.id)).toEqual([]);
    // A new game (of any class) ends the abandoned ones, and this one's players count from then.
    await game.newGame();
    expect(figures(await board(game.teacher, game.klass.id))).toEqual({
      [ada.id]: { rank: 1, averageScore: 4, averageAccuracy: 100, totalScore: 4, quizzesAttempted: 1 },
    });
  });

  it('takes a counted game away with its quiz', async () => {
    const game = await liveGameClass(t, { students: 1, questions: QUESTIONS, cache });
    const [ada] = game.players as [Player];
    const created = await game.newGame();
    await setChoice(game, created._id, true);
    await playGame(game, created._id, [{ player: ada, answers: ['right', 'wrong', 'right'] }]);
    expect(figures(await board(game.teacher, game.klass.id))[ada.id]).toMatchObject({ averageScore: 2 });
    // No attempt: the quiz is deleted outright, its games with it.
    const deleted = await t.call({
      method: 'DELETE',
      url: `/api/quizzes/${game.quizId}`,
      headers: bearer(game.teacher.token),
    });
    expect(deleted.status, deleted.raw).toBe(200);
    expect(deleted.body.data.outcome).toBe('deleted');
    expect(await board(game.teacher, game.klass.id)).toEqual([]);
    const [row] = await t.database.db.select().from(students).where(eq(students.id, ada.id));
    expect(row).toMatchObject(ZERO);
  });
});
