import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveDelivery } from '#shared/live-games';
import type { TypedQuestionInput } from '#shared/question-types';
import { liveAnswers, livePlayers } from '../../db/schema.ts';
import { patience } from '../../testing/patience.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { liveGameClass, messagesOf } from './live-game-testing.ts';

/**
 * Thirty answers racing the close of their question (issue 34 point 5, decision 066). On
 * PostgreSQL (TEST_DATABASE_URL) the answers' statements (one at a time per game, batched, and the
 * checked transactions of those they did not store) and the close run on pooled connections, so
 * they really race; PGlite runs one statement at a time, so there it proves the rules, not the race. Every round: each answer acknowledged is stored and counted in its player's score and
 * result, each refused one (QUESTION_NOT_OPEN: it came after the close) is stored nowhere, and no
 * call fails.
 */

const ROUNDS = Number(process.env.RACE_ROUNDS ?? (process.env.TEST_DATABASE_URL ? 12 : 4));
const PLAYERS = 30;
/** Players who answer after the close has finished, every round. */
const LATE = 2;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const trueFalse = (round: number): TypedQuestionInput => ({
  type: 'true-false',
  question_text: `Statement ${round + 1} is true.`,
  points: 1,
  correct: true,
});

describe('answers racing the close', { timeout: patience(480_000) }, () => {
  it(`${PLAYERS} answers against the close, ${ROUNDS} rounds: acknowledged means counted, refused means not`, async () => {
    const questions = Array.from({ length: ROUNDS }, (_, round) => trueFalse(round));
    // The real clock: the race is about order, not time (240 s: no deadline comes in between).
    const { play, host, players, newGame } = await liveGameClass(t, { students: PLAYERS, questions });
    const game = await newGame(240);
    await Promise.all(
      players.map(async (player) => expect((await play.joinAsPlayer(player, game._id)).refused).toBeUndefined()),
    );
    let opening = await play.host(host, game._id, { type: 'start' });
    const expected = new Map(players.map((player) => [player.id, 0]));
    const totals = { accepted: 0, refused: 0, racedAndRefused: 0 };

    for (let round = 0; round < ROUNDS; round++) {
      const [opened] = messagesOf(opening.deliveries, 'question-opened');
      expect(opened?.index).toBe(round);
      const questionId = opened!.question._id;
      // A first wave answers; then the close goes out in the middle of the second wave, which races it.
      const answer = (index: number) => play.answer(players[index]!, game._id, { questionId, value: index % 3 !== 0 });
      const firstWave = 3 + Math.floor(Math.random() * 8);
      const before = await Promise.all(players.slice(0, firstWave).map((_, index) => answer(index)));
      // The last two answer only once the close is done: refused for certain, whatever the race did.
      const rest = players.slice(firstWave, PLAYERS - LATE).map((_, index) => firstWave + index);
      const middle = Math.floor(rest.length / 2);
      const racing = rest.slice(0, middle).map(answer);
      const closing = play.host(host, game._id, { type: 'skip', index: round });
      racing.push(...rest.slice(middle).map(answer));
      const [after, closed] = await Promise.all([Promise.all(racing), closing]);
      const late = await Promise.all(Array.from({ length: LATE }, (_, index) => answer(PLAYERS - LATE + index)));
      expect(late.map((outcome) => outcome.refused)).toEqual(Array(LATE).fill('QUESTION_NOT_OPEN'));
      totals.racedAndRefused += after.filter((outcome) => outcome.refused).length;
      const outcomes = [...before, ...after, ...late];

      expect(closed.refused).toBeUndefined();
      const refusedCodes = new Set(outcomes.flatMap((outcome) => (outcome.refused ? [outcome.refused] : [])));
      expect([...refusedCodes].filter((code) => code !== 'QUESTION_NOT_OPEN')).toEqual([]);
      const acknowledged = players
        .filter((_, index) => outcomes[index]!.refused === undefined)
        .map((player) => player.id);
      totals.accepted += acknowledged.length;
      totals.refused += PLAYERS - acknowledged.length;
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.refused) continue;
        expect(messagesOf(outcome.deliveries, 'answer-accepted')).toEqual([{ type: 'answer-accepted', questionId }]);
        expect(outcome.deliveries.find((delivery) => delivery.to === 'player')).toMatchObject({
          studentId: players[index]!.id,
        });
      }

      const stored = await t.database.db
        .select({ studentId: liveAnswers.studentId, points: liveAnswers.points })
        .from(liveAnswers)
        .where(and(eq(liveAnswers.gameId, game._id), eq(liveAnswers.questionId, questionId)));
      expect(stored.map((row) => row.studentId).sort()).toEqual([...acknowledged].sort());
      for (const row of stored) expected.set(row.studentId, expected.get(row.studentId)! + row.points);

      // The close counted exactly the acknowledged answers, and told each player so.
      const [closedMessage] = messagesOf(closed.deliveries, 'question-closed');
      expect(closedMessage!.distribution.answered).toBe(acknowledged.length);
      const results = new Map(
        closed.deliveries.flatMap((delivery: LiveDelivery) =>
          delivery.to === 'player' && delivery.message.type === 'your-result'
            ? [[delivery.studentId, delivery.message] as const]
            : [],
        ),
      );
      expect(results.size).toBe(PLAYERS);
      for (const player of players) {
        const result = results.get(player.id)!;
        expect(result.outcome === 'none', `${player.name} round ${round}`).toBe(!acknowledged.includes(player.id));
        expect(result.score).toBe(expected.get(player.id));
      }
      const scores = await t.database.db
        .select({ studentId: livePlayers.studentId, score: livePlayers.score })
        .from(livePlayers)
        .where(eq(livePlayers.gameId, game._id));
      expect(new Map(scores.map((row) => [row.studentId, row.score]))).toEqual(expected);

      if (round + 1 < ROUNDS) opening = await play.host(host, game._id, { type: 'next', from: round });
    }
    // Both outcomes happened. Whether a racing answer lost to the close depends on the machine's
    // timing (on CI it once never did in 12 rounds): reported, not required.
    expect(totals.accepted).toBeGreaterThan(0);
    expect(totals.refused).toBeGreaterThanOrEqual(ROUNDS * LATE);
    console.log('live answer race:', totals);
  });
});
