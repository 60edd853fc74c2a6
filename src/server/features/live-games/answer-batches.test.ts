import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livePoints } from '#shared/live-games';
import { liveAnswers } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { liveGameClass, messagesOf, rightAnswer, wrongAnswer, type Player } from './live-game-testing.ts';

/**
 * Answers arriving together are stored together (play.ts, storeAnswers, batched by
 * lib/batches.ts): a burst of a class's answers, with a double tap among them, on a real database.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('a burst of answers', () => {
  it('stores each player’s first answer with its own time and points; a double tap is refused', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 12 });
    const game = await newGame();
    for (const player of players) await play.joinAsPlayer(player, game._id);
    const opened = messagesOf((await play.host(host, game._id, { type: 'start' })).deliveries, 'question-opened')[0]!;
    const { question } = opened;
    const [first, ...others] = players as [Player, ...Player[]];
    // The first answer lets this instance see the question open: the rest go in batches.
    clock.advance(500);
    expect(
      (await play.answer(first, game._id, { questionId: question._id, value: rightAnswer(question) })).refused,
    ).toBeUndefined();
    clock.advance(500);
    const at = (ms: number) => new Date(clock.now().getTime() + ms);
    const outcomes = await Promise.all([
      ...others.map((player, i) =>
        play.answer(
          player,
          game._id,
          { questionId: question._id, value: i % 2 ? rightAnswer(question) : wrongAnswer(question) },
          at(i * 10),
        ),
      ),
      play.answer(others[0]!, game._id, { questionId: question._id, value: rightAnswer(question) }, at(5)),
    ]);
    expect(outcomes.slice(0, -1).map((outcome) => outcome.refused)).toEqual(others.map(() => undefined));
    expect(outcomes.at(-1)!.refused).toBe('ALREADY_ANSWERED');
    const rows = await t.database.db.select().from(liveAnswers).where(eq(liveAnswers.gameId, game._id));
    expect(rows).toHaveLength(players.length);
    others.forEach((player, i) => {
      const row = rows.find((answer) => answer.studentId === player.id)!;
      const elapsedMs = 1_000 + i * 10;
      expect(row).toMatchObject({
        value: i % 2 ? rightAnswer(question) : wrongAnswer(question),
        elapsedMs,
        points: livePoints(i % 2 ? 1 : 0, elapsedMs, 20_000),
      });
    });
  });

  it('refuses, each with its reason, the answers of a burst the game no longer takes', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 4 });
    const game = await newGame(5);
    for (const player of players) await play.joinAsPlayer(player, game._id);
    const { question } = messagesOf(
      (await play.host(host, game._id, { type: 'start' })).deliveries,
      'question-opened',
    )[0]!;
    const [ada, bo, cy, di] = players as [Player, Player, Player, Player];
    await play.host(host, game._id, { type: 'remove-player', studentId: cy.id });
    clock.advance(1_000);
    const late = new Date(clock.now().getTime() + 4_000);
    const outcomes = await Promise.all([
      play.answer(ada, game._id, { questionId: question._id, value: rightAnswer(question) }),
      play.answer(bo, game._id, { questionId: question._id, value: rightAnswer(question) }, late),
      play.answer(cy, game._id, { questionId: question._id, value: rightAnswer(question) }),
      play.answer(di, game._id, { questionId: question._id, value: rightAnswer(question) }),
    ]);
    expect(outcomes.map((outcome) => outcome.refused)).toEqual([undefined, 'TIME_UP', 'PLAYER_REMOVED', undefined]);
    const rows = await t.database.db.select().from(liveAnswers).where(eq(liveAnswers.gameId, game._id));
    expect(rows.map((row) => row.studentId).sort()).toEqual([ada.id, di.id].sort());
  });

  it('lets the answers received before the deadline in before the close that the deadline calls', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 20 });
    const game = await newGame(5);
    for (const player of players) await play.joinAsPlayer(player, game._id);
    const { question } = messagesOf(
      (await play.host(host, game._id, { type: 'start' })).deliveries,
      'question-opened',
    )[0]!;
    // The last second's rush: every answer received 10 ms before the deadline, the close called
    // at the deadline while they still wait in this instance's batches. (A real race on
    // PostgreSQL, as in CI: PGlite runs each statement within the same task.)
    clock.advance(4_990);
    const receivedAt = clock.now();
    const answers = players.map((player) =>
      play.answer(player, game._id, { questionId: question._id, value: rightAnswer(question) }, receivedAt),
    );
    clock.advance(10);
    // The deadline's timer is a later task than the answers' arrivals (setImmediate: after their microtasks).
    await new Promise((resolve) => setImmediate(resolve));
    const closing = await play.closeIfDue(game._id);
    expect((await Promise.all(answers)).map((outcome) => outcome.refused)).toEqual(players.map(() => undefined));
    const results = messagesOf(closing.deliveries, 'your-result');
    expect(results).toHaveLength(players.length);
    for (const result of results)
      expect(result).toMatchObject({ outcome: 'right', points: livePoints(1, 4_990, 5_000) });
  });
});
