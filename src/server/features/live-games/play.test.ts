import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LIVE_HOST_COMMANDS,
  livePoints,
  type LiveDelivery,
  type LiveHostCommand,
  type LiveServerMessage,
} from '#shared/live-games';
import { liveGameReportCsv } from '#shared/live-game-report';
import type { AnswerValue } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import { liveAnswers, liveGames, livePlayers } from '../../db/schema.ts';
import { signUpStudent } from '../../testing/actors.ts';
import { TYPED_QUESTIONS } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  addStudents,
  expectNoEarlyKey,
  liveGameClass,
  messagesOf,
  rightAnswer,
  wrongAnswer,
  type Player,
} from './live-game-testing.ts';
import type { JoinOutcome, LiveActor, PlayOutcome } from './play.ts';

/**
 * The game's state machine on a real database (decision 066): a game of every question type
 * played to its end with every payload a player receives scanned for keys, and each rule the
 * server referees: one answer per question, the deadline, the class, the host's commands.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const T = 20_000;

/** An answer as the analytics show it: option and choice texts (an id could start like a formula). */
function plainText(question: QuizQuestion, value: AnswerValue): string {
  const textOf = (id: string) =>
    [...(question.options ?? []), ...(question.choices ?? [])].find((item) => item._id === id)?.text ?? id;
  if (Array.isArray(value)) return value.map(textOf).join(' ');
  if (typeof value === 'object') return Object.values(value).map(textOf).join(' ');
  return typeof value === 'string' ? textOf(value) : String(value);
}

/** One CSV line's cells (RFC 4180 quoting). */
const csvCells = (line: string) =>
  [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) =>
    cell!.startsWith('"') ? cell!.slice(1, -1).replaceAll('""', '"') : cell!,
  );

/** What the players' sockets receive of some deliveries: everyone's and each player's own. */
const toPlayers = (deliveries: readonly LiveDelivery[]) =>
  deliveries.filter((delivery) => delivery.to !== 'hosts').map((delivery) => delivery.message);

function expectDone<Outcome extends PlayOutcome>(outcome: Outcome): Outcome {
  expect(outcome.refused, JSON.stringify(outcome)).toBeUndefined();
  return outcome;
}

const openedIn = (outcome: PlayOutcome) => messagesOf(outcome.deliveries, 'question-opened')[0]!;

async function playersOf(gameId: string) {
  return t.database.db.select().from(livePlayers).where(eq(livePlayers.gameId, gameId));
}

describe('a game of every question type, played to its end', () => {
  it('lets no key reach a player before its close (every payload scanned), and scores by the rule', async () => {
    const { play, host, players, clock, newGame, teacher, quizId, klass } = await liveGameClass(t, { students: 3 });
    const game = await newGame(20);
    // Six questions played; the essay and the description are skipped.
    expect(game).toMatchObject({ state: 'lobby', questionCount: 6, skippedCount: 2, currentIndex: -1 });
    const [ada, ben, cy] = players as [Player, Player, Player];

    const received: LiveServerMessage[] = [];
    /** Every message bound for a player, in order: expectNoEarlyKey reads them at the end. */
    const receive = (messages: LiveServerMessage[]) => received.push(...messages);
    const join = async (player: Player): Promise<JoinOutcome> => {
      const joined = expectDone(await play.joinAsPlayer(player, game._id));
      receive([joined.welcome!, ...toPlayers(joined.deliveries)]);
      return joined;
    };
    for (const player of [ada, ben, cy]) await join(player);

    const expected = new Map<string, number>(players.map((player) => [player.id, 0]));
    let outcome = expectDone(await play.host(host, game._id, { type: 'start' }));
    for (let index = 0; index < 6; index++) {
      receive(toPlayers(outcome.deliveries));
      const opened = openedIn(outcome);
      expect(opened).toMatchObject({ index, count: 6, durationMs: T });
      const { question } = opened;
      // A player coming back mid-question gets the question again, still without its key.
      await join(ben);
      clock.advance(2_000);
      receive(
        toPlayers(
          expectDone(await play.answer(ada, game._id, { questionId: question._id, value: rightAnswer(question) }))
            .deliveries,
        ),
      );
      clock.advance(3_000);
      receive(
        toPlayers(
          expectDone(await play.answer(ben, game._id, { questionId: question._id, value: wrongAnswer(question) }))
            .deliveries,
        ),
      );
      expected.set(ada.id, expected.get(ada.id)! + livePoints(1, 2_000, T));
      // Cy never answers. Half the questions close at their deadline, half by the host's skip.
      let closing: PlayOutcome;
      if (index % 2 === 0) {
        clock.advance(T);
        closing = expectDone(await play.closeIfDue(game._id));
      } else {
        closing = expectDone(await play.host(host, game._id, { type: 'skip', index }));
      }
      receive(toPlayers(closing.deliveries));
      const [closedMessage] = messagesOf(closing.deliveries, 'question-closed');
      expect(closedMessage!.distribution).toMatchObject({ players: 3, answered: 2, right: 1, wrong: 1 });
      const results = new Map(
        closing.deliveries.flatMap((delivery) =>
          delivery.to === 'player' && delivery.message.type === 'your-result'
            ? [[delivery.studentId, delivery.message] as const]
            : [],
        ),
      );
      expect(results.get(ada.id)).toMatchObject({
        outcome: 'right',
        points: 950,
        score: expected.get(ada.id),
        rank: 1,
      });
      expect(results.get(ben.id)).toMatchObject({ outcome: 'wrong', points: 0, streak: 0 });
      expect(results.get(cy.id)).toMatchObject({ outcome: 'none', points: 0 });
      expect(results.get(ada.id)!.streak).toBe(index + 1);
      const [leaderboard] = messagesOf(closing.deliveries, 'leaderboard');
      expect(leaderboard!.top[0]).toMatchObject({ _id: ada.id, name: ada.name, rank: 1 });
      // Leaderboards go to the hosts only.
      expect(closing.deliveries.find((delivery) => delivery.message.type === 'leaderboard')!.to).toBe('hosts');
      outcome = expectDone(await play.host(host, game._id, { type: 'next', from: index }));
    }
    // After the last question, next is the podium.
    receive(toPlayers(outcome.deliveries));
    const [ended] = messagesOf(outcome.deliveries, 'ended');
    expect(ended!.podium.map((entry) => [entry._id, entry.score])).toEqual([
      [ada.id, 6 * 950],
      [ben.id, 0],
      [cy.id, 0],
    ]);
    expect(ended!.podium.map((entry) => entry.rank)).toEqual([1, 2, 2]);
    expect(messagesOf(outcome.deliveries, 'your-final')).toHaveLength(3);
    // The keys did reach the players, each at its close.
    expectNoEarlyKey(received);
    expect(received.filter((message) => message.type === 'question-closed')).toHaveLength(6);
    expect(received.filter((message) => message.type === 'question-opened')).toHaveLength(6);

    const stored = await playersOf(game._id);
    expect(new Map(stored.map((row) => [row.studentId, row.score]))).toEqual(expected);

    // The report, under the quiz's analytics, agrees.
    const report = await t.call({
      method: 'GET',
      url: `/api/quizzes/${quizId}/live-games/${game._id}`,
      headers: bearer(teacher.token),
    });
    expect(report.status, report.raw).toBe(200);
    expect(report.body.data.game).toMatchObject({ questionsPlayed: 6, playerCount: 3, class: { _id: klass.id } });
    expect(report.body.data.skipped.map((entry: { type: string }) => entry.type).sort()).toEqual([
      'description',
      'essay',
    ]);
    expect(
      report.body.data.players.map((player: any) => [
        player.student._id,
        player.score,
        player.rank,
        player.answers.length,
      ]),
    ).toEqual([
      [ada.id, 6 * 950, 1, 6],
      [ben.id, 0, 2, 6],
      [cy.id, 0, 2, 0],
    ]);
    for (const entry of report.body.data.questions) {
      expect(entry).toMatchObject({ played: true, distribution: { players: 3, answered: 2, right: 1 } });
    }
    // Its CSV: one row per player, best first, with each question's points.
    const csv = liveGameReportCsv(report.body.data, {
      name: 'Name',
      rollNumber: 'Roll number',
      score: 'Score',
      rank: 'Rank',
      removed: 'Removed',
      answer: (number, text) => `Q${number}: ${text}`,
      points: (number) => `Q${number} points`,
      answerText: plainText,
    });
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]!.split(',').slice(0, 6)).toEqual([
      'Name',
      'Roll number',
      'Score',
      'Rank',
      'Q1: What is 2 + 2?',
      'Q1 points',
    ]);
    expect(lines.slice(1).map(csvCells)).toEqual(
      [ada, ben, cy].map((player, i) => [
        player.name,
        report.body.data.players[i].student.rollNumber,
        String(expected.get(player.id)),
        i === 0 ? '1' : '2',
        ...report.body.data.players[i].answers.flatMap((answer: any, index: number) => [
          plainText(report.body.data.questions[index].question, answer.value),
          String(answer.points),
        ]),
        ...(player === cy ? Array(12).fill('') : []),
      ]),
    );
  });
});

describe('the referee', () => {
  it('refuses a second answer: the first one counts', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 1 });
    const game = await newGame();
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const { question } = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    clock.advance(1_000);
    expectDone(await play.answer(ada, game._id, { questionId: question._id, value: wrongAnswer(question) }));
    clock.advance(1_000);
    const second = await play.answer(ada, game._id, { questionId: question._id, value: rightAnswer(question) });
    expect(second).toEqual({ deliveries: [], refused: 'ALREADY_ANSWERED' });
    const rows = await t.database.db.select().from(liveAnswers).where(eq(liveAnswers.gameId, game._id));
    expect(rows).toMatchObject([{ value: wrongAnswer(question), points: 0, elapsedMs: 1_000 }]);
  });

  it('refuses blank typed text and a value that is not an answer to the question, storing nothing', async () => {
    const { play, host, players, newGame } = await liveGameClass(t, {
      students: 1,
      questions: TYPED_QUESTIONS.filter((question) => question.type === 'short-text'),
    });
    const game = await newGame();
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const { question } = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    for (const value of ['   ', true, ['an option']]) {
      expect(await play.answer(ada, game._id, { questionId: question._id, value })).toEqual({
        deliveries: [],
        refused: 'INVALID_ANSWER',
      });
    }
    expect(await t.database.db.select().from(liveAnswers).where(eq(liveAnswers.gameId, game._id))).toEqual([]);
  });

  it('refuses an answer after the deadline, before anyone closed the question, and stores nothing', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 1 });
    const game = await newGame(5);
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const { question } = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    clock.advance(5_000);
    expect(await play.answer(ada, game._id, { questionId: question._id, value: rightAnswer(question) })).toEqual({
      deliveries: [],
      refused: 'TIME_UP',
    });
    expect(await t.database.db.select().from(liveAnswers).where(eq(liveAnswers.gameId, game._id))).toEqual([]);
    // Just before the deadline it counts, as T: 500 points at the least for a right answer.
    const second = await liveGameClass(t, { students: 1 });
    const other = await second.newGame(5);
    expectDone(await second.play.joinAsPlayer(second.players[0]!, other._id));
    const opened = openedIn(expectDone(await second.play.host(second.host, other._id, { type: 'start' })));
    second.clock.advance(4_999);
    expectDone(
      await second.play.answer(second.players[0]!, other._id, {
        questionId: opened.question._id,
        value: rightAnswer(opened.question),
      }),
    );
    second.clock.advance(1);
    const closing = expectDone(await second.play.closeIfDue(other._id));
    expect(messagesOf(closing.deliveries, 'your-result')[0]).toMatchObject({ points: livePoints(1, 4_999, 5_000) });
  });

  it('keeps a student of another class out, by PIN (the same 404 as an unknown PIN) and by the game itself', async () => {
    const { play, newGame } = await liveGameClass(t, { students: 1 });
    const game = await newGame();
    const outsider = await signUpStudent(t, { classCode: (await liveGameClass(t, { students: 0 })).klass.joinCode });
    const byPin = await t.call({
      method: 'GET',
      url: `/api/student/live-games/pin/${game.pin}`,
      headers: bearer(outsider.token),
    });
    const unknownPin = game.pin === '000000' ? '000001' : '000000';
    const unknown = await t.call({
      method: 'GET',
      url: `/api/student/live-games/pin/${unknownPin}`,
      headers: bearer(outsider.token),
    });
    expect(byPin.status).toBe(404);
    expect(byPin.body).toEqual(unknown.body);
    const listed = await t.call({ method: 'GET', url: '/api/student/live-games', headers: bearer(outsider.token) });
    expect(listed.body.data).toEqual([]);
    const student: LiveActor = { id: outsider.profile._id, role: 'student' };
    expect(await play.joinAsPlayer(student, game._id)).toEqual({ deliveries: [], refused: 'GAME_NOT_FOUND' });
    expect(await playersOf(game._id)).toEqual([]);
  });

  it('takes no host command from a player or a teacher of another class; any teacher of the class may', async () => {
    const { play, players, newGame, coHost } = await liveGameClass(t, { students: 1 });
    const game = await newGame();
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const stranger = await liveGameClass(t, { students: 0 });
    const commands: Record<(typeof LIVE_HOST_COMMANDS)[number], LiveHostCommand> = {
      start: { type: 'start' },
      next: { type: 'next', from: 0 },
      skip: { type: 'skip', index: 0 },
      pause: { type: 'pause', index: 0 },
      resume: { type: 'resume', index: 0 },
      'add-time': { type: 'add-time', index: 0, seconds: 10 },
      end: { type: 'end' },
      'remove-player': { type: 'remove-player', studentId: ada.id },
      'hide-names': { type: 'hide-names', hidden: true },
      'set-question-seconds': { type: 'set-question-seconds', seconds: 30 },
    };
    const [before] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, game._id));
    for (const command of Object.values(commands)) {
      expect(await play.host(ada, game._id, command), `${command.type} by a player`).toEqual({
        deliveries: [],
        refused: 'NOT_A_HOST',
      });
      expect(await play.host(stranger.host, game._id, command), `${command.type} by a stranger`).toEqual({
        deliveries: [],
        refused: 'NOT_A_HOST',
      });
    }
    const [after] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, game._id));
    expect(after).toEqual(before);
    expect((await playersOf(game._id))[0]!.removed).toBe(false);
    // The co-teacher hosts as well as the teacher who made the game.
    expect(
      messagesOf(expectDone(await play.host(coHost, game._id, { type: 'start' })).deliveries, 'question-opened'),
    ).toHaveLength(1);
    expect(expectDone(await play.joinAsHost(coHost, game._id)).welcome).toMatchObject({ type: 'host-welcome' });
    expect(await play.joinAsHost(ada, game._id)).toEqual({ deliveries: [], refused: 'NOT_A_HOST' });
  });

  it('lets a student join after the start: they play from the next question', async () => {
    const { play, host, players, klass, clock, newGame } = await liveGameClass(t, { students: 1 });
    const game = await newGame();
    expectDone(await play.joinAsPlayer(players[0]!, game._id));
    const first = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    const [late] = await addStudents(t, klass.id, 1, 'Late');
    const joined = expectDone(await play.joinAsPlayer(late!, game._id));
    expect(joined.welcome).toMatchObject({ type: 'player-welcome', you: { firstIndex: 1, score: 0 } });
    // A host who comes back now counts the answers of the one player who may answer, not two.
    expect(expectDone(await play.joinAsHost(host, game._id)).welcome).toMatchObject({
      type: 'host-welcome',
      answered: 0,
      answering: 1,
    });
    expect(messagesOf(joined.deliveries, 'player-joined')[0]).toMatchObject({
      player: { _id: late!.id },
      playerCount: 2,
    });
    expect(
      await play.answer(late!, game._id, { questionId: first.question._id, value: rightAnswer(first.question) }),
    ).toEqual({
      deliveries: [],
      refused: 'JOINED_DURING_QUESTION',
    });
    const closing = expectDone(await play.host(host, game._id, { type: 'skip', index: 0 }));
    expect(messagesOf(closing.deliveries, 'question-closed')[0]!.distribution.players).toBe(1);
    const second = openedIn(expectDone(await play.host(host, game._id, { type: 'next', from: 0 })));
    clock.advance(1_000);
    expectDone(
      await play.answer(late!, game._id, { questionId: second.question._id, value: rightAnswer(second.question) }),
    );
  });

  it('knows a player who comes back: the same row, the same score, the open question and whether they answered', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 1 });
    const game = await newGame();
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const first = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    clock.advance(4_000);
    expectDone(
      await play.answer(ada, game._id, { questionId: first.question._id, value: rightAnswer(first.question) }),
    );
    const back = expectDone(await play.joinAsPlayer(ada, game._id));
    expect(back.deliveries).toEqual([]);
    expect(back.welcome).toMatchObject({ question: { index: 0 }, answered: true, you: { score: 0 } });
    expectDone(await play.host(host, game._id, { type: 'skip', index: 0 }));
    const afterClose = expectDone(await play.joinAsPlayer(ada, game._id));
    expect(afterClose.welcome).toMatchObject({
      question: null,
      you: { score: 900 },
      result: { outcome: 'right', points: 900, rank: 1 },
    });
    expect(await playersOf(game._id)).toHaveLength(1);
  });

  it('pauses with the time left kept, moves the deadline on at resume, adds time up to 240 s left', async () => {
    const { play, host, players, clock, newGame } = await liveGameClass(t, { students: 1 });
    const game = await newGame(20);
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const opened = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    clock.advance(5_000);
    const paused = expectDone(await play.host(host, game._id, { type: 'pause', index: 0 }));
    expect(messagesOf(paused.deliveries, 'paused')[0]).toMatchObject({ remainingMs: 15_000 });
    clock.advance(60_000);
    expect(await play.answer(ada, game._id, { questionId: opened.question._id, value: true })).toMatchObject({
      refused: 'GAME_PAUSED',
    });
    // The deadline passed during the pause: nothing closes.
    expect((await play.closeIfDue(game._id)).deliveries).toEqual([]);
    const resumed = expectDone(await play.host(host, game._id, { type: 'resume', index: 0 }));
    expect(messagesOf(resumed.deliveries, 'resumed')[0]).toMatchObject({ remainingMs: 15_000 });
    clock.advance(1_000);
    expectDone(
      await play.answer(ada, game._id, { questionId: opened.question._id, value: rightAnswer(opened.question) }),
    );
    // Answered 6 s of playing time after the opening: the pause does not count.
    const [answer] = await t.database.db.select().from(liveAnswers).where(eq(liveAnswers.gameId, game._id));
    expect(answer).toMatchObject({ elapsedMs: 6_000, points: livePoints(1, 6_000, 20_000) });
    const added = expectDone(await play.host(host, game._id, { type: 'add-time', index: 0, seconds: 10 }));
    expect(messagesOf(added.deliveries, 'time-added')[0]).toMatchObject({ remainingMs: 24_000 });
    for (let i = 0; i < 30; i++) await play.host(host, game._id, { type: 'add-time', index: 0, seconds: 60 });
    const [row] = await t.database.db.select().from(liveGames).where(eq(liveGames.id, game._id));
    expect(row!.questionDeadline!.getTime() - clock.now().getTime()).toBe(240_000);
  });

  it('closes a question once, whoever closes it: the deadline on two instances and a late skip', async () => {
    const { play, host, players, clock, newGame, teacher } = await liveGameClass(t, { students: 1 });
    const game = await newGame(5);
    const [ada] = players as [Player];
    expectDone(await play.joinAsPlayer(ada, game._id));
    const opened = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    clock.advance(1_000);
    expectDone(
      await play.answer(ada, game._id, { questionId: opened.question._id, value: rightAnswer(opened.question) }),
    );
    expect((await play.closeIfDue(game._id)).deliveries).toEqual([]);
    clock.advance(5_000);
    // A second instance's play module on the same database, the same clock.
    const other = await liveGameClass(t, { students: 0, clock });
    const closings = await Promise.all([play.closeIfDue(game._id), other.play.closeIfDue(game._id)]);
    expect(closings.map((closing) => messagesOf(closing.deliveries, 'question-closed').length).sort()).toEqual([0, 1]);
    expect(await play.host(host, game._id, { type: 'skip', index: 0 })).toEqual({ deliveries: [] });
    expect((await playersOf(game._id))[0]!.score).toBe(livePoints(1, 1_000, 5_000));
    // Next names the question it leaves: the same click twice opens one question.
    const next = await Promise.all([
      play.host(host, game._id, { type: 'next', from: 0 }),
      play.host(host, game._id, { type: 'next', from: 0 }),
    ]);
    expect(next.map((outcome) => outcome.refused ?? 'opened').sort()).toEqual(['MOVED_ON', 'opened']);
    expect(await play.host(host, game._id, { type: 'set-question-seconds', seconds: 30 })).toMatchObject({
      refused: 'GAME_STARTED',
    });
    const summary = await t.call({ method: 'GET', url: `/api/live-games/${game._id}`, headers: bearer(teacher.token) });
    expect(summary.body.data).toMatchObject({ state: 'question-open', currentIndex: 1 });
  });

  it('keeps a removed player out of the game: no answer, no coming back, no podium', async () => {
    const { play, host, players, newGame } = await liveGameClass(t, { students: 2 });
    const game = await newGame();
    const [ada, ben] = players as [Player, Player];
    for (const player of [ada, ben]) expectDone(await play.joinAsPlayer(player, game._id));
    const opened = openedIn(expectDone(await play.host(host, game._id, { type: 'start' })));
    const removal = expectDone(await play.host(host, game._id, { type: 'remove-player', studentId: ben.id }));
    expect(removal.deliveries).toEqual([
      { to: 'player', studentId: ben.id, message: { type: 'removed' } },
      { to: 'hosts', message: { type: 'player-removed', playerId: ben.id, playerCount: 1 } },
    ]);
    expect(await play.answer(ben, game._id, { questionId: opened.question._id, value: true })).toMatchObject({
      refused: 'PLAYER_REMOVED',
    });
    expect(await play.joinAsPlayer(ben, game._id)).toMatchObject({ refused: 'PLAYER_REMOVED' });
    const ended = expectDone(await play.host(host, game._id, { type: 'end' }));
    expect(messagesOf(ended.deliveries, 'ended')[0]).toMatchObject({ players: 1, podium: [{ _id: ada.id }] });
    expect(await play.joinAsPlayer(ada, game._id)).toMatchObject({
      welcome: { type: 'player-welcome', final: { rank: 1, players: 1 } },
    });
    expect(await play.host(host, game._id, { type: 'start' })).toMatchObject({ refused: 'GAME_ENDED' });
    const [row] = await t.database.db
      .select()
      .from(livePlayers)
      .where(and(eq(livePlayers.gameId, game._id), eq(livePlayers.studentId, ben.id)));
    expect(row!.removed).toBe(true);
  });

  it('hides the names of the leaderboard and the podium when the host asks', async () => {
    const { play, host, players, newGame } = await liveGameClass(t, { students: 2 });
    const game = await newGame();
    for (const player of players) expectDone(await play.joinAsPlayer(player, game._id));
    expectDone(await play.host(host, game._id, { type: 'hide-names', hidden: true }));
    expectDone(await play.host(host, game._id, { type: 'start' }));
    const closing = expectDone(await play.host(host, game._id, { type: 'skip', index: 0 }));
    expect(messagesOf(closing.deliveries, 'leaderboard')[0]!.top.map((entry) => entry.name)).toEqual([null, null]);
    const ended = expectDone(await play.host(host, game._id, { type: 'end' }));
    expect(messagesOf(ended.deliveries, 'ended')[0]!.podium.map((entry) => entry.name)).toEqual([null, null]);
  });
});
