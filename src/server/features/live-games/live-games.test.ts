import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_GAME_LIMITS } from '#shared/live-games';
import { classes, liveGames, quizzes } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { addStudents, liveGameClass } from './live-game-testing.ts';

/**
 * The live game's REST calls through the API (decision 066): making a game, the teachers' and
 * the students' active games, by PIN, the leaderboard choice, a quiz's finished games and their
 * report, and who is refused.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const as = (actor: { token: string }) => bearer(actor.token);

describe('making a live game', () => {
  it('takes one of the caller’s quizzes and an active class they teach, and answers its PIN', async () => {
    const { teacher, klass, quizId } = await liveGameClass(t, { students: 0 });
    const made = await t.call({
      method: 'POST',
      url: '/api/live-games',
      headers: as(teacher),
      payload: { quizId, classId: klass.id },
    });
    expect(made.status, made.raw).toBe(201);
    expect(made.body.data).toMatchObject({
      state: 'lobby',
      pin: expect.stringMatching(/^\d{6}$/),
      quiz: { _id: quizId },
      class: { _id: klass.id, name: klass.name },
      createdBy: { _id: teacher.profile._id },
      questionSeconds: LIVE_GAME_LIMITS.questionSecondsDefault,
      countsTowardLeaderboard: false,
      namesHidden: false,
      playerCount: 0,
      currentIndex: -1,
    });
    // The game keeps its own copy of the questions, each option set in one order, none added or lost.
    const [game] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, made.body.data._id));
    const [quiz] = await t.database.db.select().from(quizzes).where(eq(quizzes.id, quizId));
    const played = quiz!.questions.filter((question) => question.type !== 'essay' && question.type !== 'description');
    expect(game!.questions.map((question) => question._id)).toEqual(played.map((question) => question._id));
    const optionIds = (question: any) => (question.options ?? []).map((option: any) => option._id).sort();
    expect(game!.questions.map(optionIds)).toEqual(played.map(optionIds));
  });

  it('refuses another teacher’s quiz, a class the caller does not teach, an archived one, and bad seconds', async () => {
    const { teacher, coTeacher, klass, quizId } = await liveGameClass(t, { students: 0 });
    const other = await signUpTeacher(t);
    const otherClass = await classTaughtBy(t, other);
    const post = (actor: { token: string }, payload: object) =>
      t.call({ method: 'POST', url: '/api/live-games', headers: as(actor), payload });
    // The co-teacher teaches the class, but the quiz is not theirs.
    expect((await post(coTeacher, { quizId, classId: klass.id })).status).toBe(403);
    expect((await post(teacher, { quizId, classId: otherClass.id })).status).toBe(403);
    expect((await post(teacher, { quizId: crypto.randomUUID(), classId: klass.id })).status).toBe(404);
    for (const questionSeconds of [4, 241, 12.5]) {
      const refused = await post(teacher, { quizId, classId: klass.id, questionSeconds });
      expect(refused.status, `${questionSeconds} s`).toBe(400);
      expect(refused.body.errors[0].field).toBe('questionSeconds');
    }
    await t.database.db.update(classes).set({ archivedAt: new Date() }).where(eq(classes.id, klass.id));
    expect((await post(teacher, { quizId, classId: klass.id })).body.code).toBe('CLASS_ARCHIVED');
    await t.database.db.update(classes).set({ archivedAt: null }).where(eq(classes.id, klass.id));
    await t.database.db.update(quizzes).set({ archivedAt: new Date() }).where(eq(quizzes.id, quizId));
    expect((await post(teacher, { quizId, classId: klass.id })).body.code).toBe('QUIZ_ARCHIVED');
    expect(await t.database.db.select().from(liveGames).where(eq(liveGames.quizId, quizId))).toEqual([]);
  });

  it('refuses a quiz of essays and descriptions only: NO_LIVE_QUESTIONS, nothing made', async () => {
    const { teacher, klass } = await liveGameClass(t, { students: 0 });
    const created = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: as(teacher),
      payload: buildNewQuiz({
        classId: klass.id,
        quiz: {
          background: buildNewQuiz().quiz.background,
          questions: [
            { type: 'description', question_text: 'Read this first.', points: 0 },
            { type: 'essay', question_text: 'Why?', points: 2 },
          ],
        },
      }),
    });
    expect(created.status, created.raw).toBe(201);
    const refused = await t.call({
      method: 'POST',
      url: '/api/live-games',
      headers: as(teacher),
      payload: { quizId: created.body.data._id, classId: klass.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('NO_LIVE_QUESTIONS');
  });

  it('gives a PIN to one game not ended only; an abandoned game ends when the next is made', async () => {
    const { klass, newGame, play, players } = await liveGameClass(t, { students: 1 });
    const first = await newGame();
    // A player in its lobby: not an empty lobby left behind, so the next game leaves it be.
    await play.joinAsPlayer(players[0]!, first._id);
    const second = await newGame();
    expect(second.pin).not.toBe(first.pin);
    await expect(
      t.database.db.update(liveGames).set({ pin: first.pin }).where(eq(liveGames.id, second._id)),
    ).rejects.toThrow();
    // Untouched for longer than idleHours: abandoned, listed nowhere, and ended by the next game made.
    const idle = new Date(Date.now() - (LIVE_GAME_LIMITS.idleHours * 3_600_000 + 60_000));
    await t.database.db.update(liveGames).set({ updatedAt: idle }).where(eq(liveGames.id, first._id));
    await newGame();
    const [abandoned] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, first._id));
    expect(abandoned).toMatchObject({ state: 'ended', classId: klass.id });
    // Its PIN is free again.
    await t.database.db.update(liveGames).set({ pin: first.pin }).where(eq(liveGames.id, second._id));
  });

  it('ends an empty lobby of the same quiz and class when the teacher opens it again', async () => {
    const { newGame, play, players } = await liveGameClass(t, { students: 1 });
    const empty = await newGame();
    const again = await newGame();
    const stateOf = async (id: string) =>
      (await t.database.db.select({ state: liveGames.state }).from(liveGames).where(eq(liveGames.id, id)))[0]?.state;
    expect(await stateOf(empty._id)).toBe('ended');
    // A lobby someone joined stays: the teacher may be running it.
    await play.joinAsPlayer(players[0]!, again._id);
    await newGame();
    expect(await stateOf(again._id)).toBe('lobby');
  });
});

describe('finding a game', () => {
  it('shows a class’s game to its teachers (with the PIN) and its students (without), and to no one else', async () => {
    const { teacher, coTeacher, klass, newGame, play, host } = await liveGameClass(t, { students: 0 });
    const game = await newGame();
    const stranger = await signUpTeacher(t);
    for (const actor of [teacher, coTeacher]) {
      const listed = await t.call({ method: 'GET', url: '/api/live-games', headers: as(actor) });
      expect(listed.body.data.map((entry: { _id: string }) => entry._id)).toContain(game._id);
      const one = await t.call({ method: 'GET', url: `/api/live-games/${game._id}`, headers: as(actor) });
      expect(one.body.data).toMatchObject({ _id: game._id, pin: game.pin });
    }
    const strangers = await t.call({ method: 'GET', url: '/api/live-games', headers: as(stranger) });
    expect(strangers.body.data).toEqual([]);
    expect((await t.call({ method: 'GET', url: `/api/live-games/${game._id}`, headers: as(stranger) })).status).toBe(
      403,
    );
    const unknown = await t.call({
      method: 'GET',
      url: `/api/live-games/${crypto.randomUUID()}`,
      headers: as(teacher),
    });
    expect(unknown.status).toBe(404);

    // A student of the class: the dashboard's entry, and the PIN, until the game ends.
    const student = await signUpStudent(t, { classCode: klass.joinCode });
    const dashboard = await t.call({ method: 'GET', url: '/api/student/live-games', headers: as(student) });
    expect(dashboard.body.data).toEqual([
      {
        _id: game._id,
        state: 'lobby',
        quiz: { title: expect.any(String) },
        class: { _id: klass.id, name: klass.name },
        questionCount: 6,
        currentIndex: -1,
      },
    ]);
    const byPin = await t.call({ method: 'GET', url: `/api/student/live-games/pin/${game.pin}`, headers: as(student) });
    expect(byPin.body.data._id).toBe(game._id);
    expect(byPin.raw).not.toContain(game.pin);
    expect(
      (await t.call({ method: 'GET', url: '/api/student/live-games/pin/12345', headers: as(student) })).status,
    ).toBe(400);
    expect((await play.host(host, game._id, { type: 'end' })).refused).toBeUndefined();
    expect((await t.call({ method: 'GET', url: '/api/student/live-games', headers: as(student) })).body.data).toEqual(
      [],
    );
    expect(
      (await t.call({ method: 'GET', url: `/api/student/live-games/pin/${game.pin}`, headers: as(student) })).status,
    ).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/live-games', headers: as(teacher) })).body.data).toEqual([]);
  });
});

describe('the leaderboard choice', () => {
  it('is off by default; any teacher of the class sets it, no one else', async () => {
    const { coTeacher, newGame } = await liveGameClass(t, { students: 0 });
    const game = await newGame();
    expect(game.countsTowardLeaderboard).toBe(false);
    const stranger = await signUpTeacher(t);
    const put = (actor: { token: string }, countsTowardLeaderboard: unknown) =>
      t.call({
        method: 'PUT',
        url: `/api/live-games/${game._id}/leaderboard`,
        headers: as(actor),
        payload: { countsTowardLeaderboard },
      });
    expect((await put(stranger, true)).status).toBe(403);
    expect((await put(coTeacher, 'yes')).status).toBe(400);
    const set = await put(coTeacher, true);
    expect(set.status, set.raw).toBe(200);
    expect(set.body.data.countsTowardLeaderboard).toBe(true);
    const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, game._id));
    expect(row!.countsTowardLeaderboard).toBe(true);
  });
});

describe('a quiz’s finished games', () => {
  it('lists only ended games, newest first, paged, and reports them to the quiz’s author only', async () => {
    const { teacher, coTeacher, klass, quizId, newGame, play, host, players, clock } = await liveGameClass(t, {
      students: 2,
    });
    const running = await newGame();
    // Someone in its lobby: not an empty lobby the next game would end.
    await play.joinAsPlayer(players[0]!, running._id);
    const ended = [];
    for (let i = 0; i < 3; i++) {
      const game = await newGame();
      for (const player of players) await play.joinAsPlayer(player, game._id);
      await play.host(host, game._id, { type: 'start' });
      expect((await play.host(host, game._id, { type: 'end' })).refused).toBeUndefined();
      ended.push(game._id);
      clock.advance(1_000);
    }
    const list = (query: string, actor = teacher) =>
      t.call({ method: 'GET', url: `/api/quizzes/${quizId}/live-games${query}`, headers: as(actor) });
    const first = await list('?limit=2');
    expect(first.status, first.raw).toBe(200);
    expect(first.body.data.map((entry: { _id: string }) => entry._id)).toEqual([ended[2], ended[1]]);
    expect(first.body.page).toMatchObject({ offset: 0, limit: 2, hasMore: true });
    expect(first.body.data[0]).toMatchObject({ class: { _id: klass.id }, questionsPlayed: 1, playerCount: 2 });
    const second = await list('?offset=2&limit=2');
    expect(second.body.data.map((entry: { _id: string }) => entry._id)).toEqual([ended[0]]);
    // The analytics are the quiz's author's (the key is in a report): not the co-teacher's.
    expect((await list('', coTeacher)).status).toBe(403);
    const report = (gameId: string, actor = teacher) =>
      t.call({ method: 'GET', url: `/api/quizzes/${quizId}/live-games/${gameId}`, headers: as(actor) });
    const done = await report(ended[0]!);
    expect(done.status, done.raw).toBe(200);
    expect(done.body.data.questions.map((entry: { played: boolean }) => entry.played)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(done.body.data.questions[0].question.options.some((option: { correct?: boolean }) => option.correct)).toBe(
      true,
    );
    expect((await report(ended[0]!, coTeacher)).status).toBe(403);
    // A game not ended, or of another quiz, has no report.
    expect((await report(running._id)).status).toBe(404);
    const elsewhere = await liveGameClass(t, { students: 0 });
    const foreign = await elsewhere.newGame();
    await elsewhere.play.host(elsewhere.host, foreign._id, { type: 'end' });
    expect((await report(foreign._id)).status).toBe(404);
  });

  it('counts a late joiner only from the question they could play', async () => {
    const { teacher, quizId, klass, newGame, play, host, players } = await liveGameClass(t, { students: 1 });
    const game = await newGame();
    await play.joinAsPlayer(players[0]!, game._id);
    await play.host(host, game._id, { type: 'start' });
    const [late] = await addStudents(t, klass.id, 1, 'Late');
    await play.joinAsPlayer(late!, game._id);
    await play.host(host, game._id, { type: 'skip', index: 0 });
    await play.host(host, game._id, { type: 'next', from: 0 });
    await play.host(host, game._id, { type: 'end' });
    const report = await t.call({
      method: 'GET',
      url: `/api/quizzes/${quizId}/live-games/${game._id}`,
      headers: as(teacher),
    });
    expect(report.body.data.questions.map((entry: any) => entry.distribution.players)).toEqual([1, 2, 0, 0, 0, 0]);
  });
});
