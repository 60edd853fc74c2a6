import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  LIVE_GAME_CLOSE_CODES,
  LIVE_GAME_LIMITS,
  LIVE_GAME_PROTOCOL_VERSION,
  livePoints,
  type LiveTicket,
} from '#shared/live-games';
import type { TypedQuestionInput } from '#shared/question-types';
import { TEST_REDIS_URL } from '../../realtime/test-buses.ts';
import { twoInstancesOnRedis } from '../../realtime/test-instances.ts';
import { signUpStudent } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import {
  expectNoEarlyKey,
  liveGameClass,
  LiveTestClient,
  liveToken,
  rightAnswer,
  SINGLE_CHOICE,
  wrongAnswer,
  type Player,
} from './live-game-testing.ts';

/**
 * The live game over real sockets on the room transport (issue 34, decisions 065 and 066): the
 * token route, the join, the deliveries (hosts, everyone, one player), the deadline's timer, a
 * reload that comes back as the same seat and score, the refusals and their close codes. Two
 * instances on one Redis and one database at the end, as behind the balancer.
 */

const GRACE_MS = 3_000;
const QUESTIONS: TypedQuestionInput[] = [
  SINGLE_CHOICE,
  { type: 'true-false', question_text: 'Ice is frozen water.', points: 1, correct: true },
];

let t: TestApp;
let baseUrl: string;
const clients: LiveTestClient[] = [];

beforeAll(async () => {
  t = await createTestApp({ liveGames: { resumeGraceMs: GRACE_MS } });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

const kept = <Joined extends { client: LiveTestClient }>(joined: Joined) => {
  clients.push(joined.client);
  return joined;
};

async function hostToken(teacherToken: string, gameId: string) {
  const issued = await t.call({
    method: 'POST',
    url: `/api/live-games/${gameId}/token`,
    headers: bearer(teacherToken),
  });
  expect(issued.status, issued.raw).toBe(200);
  return (issued.body as { data: LiveTicket }).data;
}

describe('the live game socket', () => {
  it('plays a game: the question to everyone, acknowledgements, counts to hosts, a result to each, the podium', async () => {
    const live = await liveGameClass(t, { students: 3, questions: QUESTIONS });
    const game = await live.newGame(5);
    const ticket = await hostToken(live.teacher.token, game._id);
    expect(ticket).toMatchObject({ gameId: game._id, host: true });
    const host = kept(await LiveTestClient.host(baseUrl, ticket.token));
    expect(host.welcome.game).toMatchObject({ _id: game._id, state: 'lobby', pin: game.pin });

    const [ada, ben, cy] = live.players as [Player, Player, Player];
    const players = [];
    for (const player of [ada, ben, cy]) {
      players.push(kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, player))));
      await host.client.waitFor('player-joined', (message) => message.player._id === player.id);
    }
    const [onAda, onBen, onCy] = players as [(typeof players)[0], (typeof players)[0], (typeof players)[0]];
    expect(onAda.welcome).toMatchObject({ game: { state: 'lobby' }, you: { _id: ada.id, score: 0 } });

    // A player's host command is refused to them; the socket stays.
    onAda.client.send({ type: 'start' });
    expect(await onAda.client.waitFor('error')).toEqual({ type: 'error', code: 'NOT_A_HOST' });

    host.client.send({ type: 'start' });
    const opened = await onBen.client.waitFor('question-opened', (message) => message.index === 0);
    await host.client.waitFor('question-opened', (message) => message.index === 0);
    const question = opened.question;

    onAda.client.send({ type: 'answer', questionId: question._id, value: rightAnswer(question) });
    expect(await onAda.client.waitFor('answer-accepted')).toEqual({
      type: 'answer-accepted',
      questionId: question._id,
    });
    expect(await host.client.waitFor('answer-count', (count) => count.answered > 0)).toMatchObject({
      index: 0,
      answered: 1,
      players: 3,
    });
    // The first answer counts; a second is refused.
    onAda.client.send({ type: 'answer', questionId: question._id, value: wrongAnswer(question) });
    expect(await onAda.client.waitFor('error')).toEqual({ type: 'error', code: 'ALREADY_ANSWERED' });
    onBen.client.send({ type: 'answer', questionId: question._id, value: wrongAnswer(question) });
    await onBen.client.waitFor('answer-accepted');

    host.client.send({ type: 'skip', index: 0 });
    const closed = await onCy.client.waitFor('question-closed');
    expect(closed.distribution).toMatchObject({ players: 3, answered: 2, right: 1, wrong: 1 });
    const adaResult = await onAda.client.waitFor('your-result');
    expect(adaResult).toMatchObject({ index: 0, outcome: 'right', rank: 1, players: 3 });
    expect(adaResult.points).toBeGreaterThan(livePoints(1, 5_000, 5_000));
    expect(await onCy.client.waitFor('your-result')).toMatchObject({ outcome: 'none', points: 0 });
    expect((await host.client.waitFor('leaderboard')).top[0]).toMatchObject({ _id: ada.id, rank: 1 });
    // Each player hears their own result only.
    expect(onAda.client.received('your-result')).toEqual([]);

    // The last question closes at its deadline: this instance's timer, nobody's command.
    host.client.send({ type: 'next', from: 0 });
    const second = await onAda.client.waitFor('question-opened', (message) => message.index === 1);
    onAda.client.send({ type: 'answer', questionId: second.question._id, value: true });
    await onAda.client.waitFor('answer-accepted');
    const timed = await onBen.client.waitFor('question-closed', (message) => message.index === 1, 10_000);
    expect(timed.distribution).toMatchObject({ answered: 1, right: 1 });

    host.client.send({ type: 'next', from: 1 });
    const ended = await onCy.client.waitFor('ended');
    expect(ended.podium[0]).toMatchObject({ _id: ada.id, rank: 1, name: ada.name });
    expect(await onAda.client.waitFor('your-final')).toMatchObject({ rank: 1, players: 3 });
    await host.client.waitFor('ended');

    for (const player of players) expectNoEarlyKey(player.client.history);
  });

  it('takes a reload back as the same seat, score and answer; never a second copy of the player', async () => {
    const live = await liveGameClass(t, { students: 2, questions: QUESTIONS });
    const game = await live.newGame(60);
    const host = kept(await LiveTestClient.host(baseUrl, (await hostToken(live.teacher.token, game._id)).token));
    const [ada, ben] = live.players as [Player, Player];
    const onAda = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, ada)));
    await host.client.waitFor('player-joined', (message) => message.player._id === ada.id);
    kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, ben)));
    await host.client.waitFor('player-joined', (message) => message.player._id === ben.id);
    host.client.send({ type: 'start' });
    const opened = await onAda.client.waitFor('question-opened');
    onAda.client.send({ type: 'answer', questionId: opened.question._id, value: rightAnswer(opened.question) });
    await onAda.client.waitFor('answer-accepted');

    // The phone loses its network mid-question, and comes back with its seat.
    onAda.client.drop();
    const back = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, ada), onAda.seatId));
    expect(back.seatId).toBe(onAda.seatId);
    expect(back.welcome).toMatchObject({ answered: true, question: { index: 0 }, you: { _id: ada.id } });
    expect(host.client.received('player-joined')).toEqual([]);

    host.client.send({ type: 'skip', index: 0 });
    const result = await back.client.waitFor('your-result');
    expect(result).toMatchObject({ outcome: 'right', rank: 1 });

    // A reload without the seat id is a new seat, the same player with the same score.
    back.client.close();
    const again = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, ada)));
    expect(again.welcome.you.score).toBe(result.score);
    expect(again.welcome.result).toMatchObject({ outcome: 'right', score: result.score });
  });

  it('refuses a student of another class, at the token and at the socket', async () => {
    const live = await liveGameClass(t, { students: 1, questions: QUESTIONS });
    const game = await live.newGame();
    const outsider = await signUpStudent(t);
    const refused = await t.call({
      method: 'POST',
      url: `/api/live-games/${game._id}/token`,
      headers: bearer(outsider.token),
    });
    expect(refused.status).toBe(404);
    // A token minted anyway (say, before leaving the class) opens no seat in the game.
    const forged = await LiveTestClient.connect(
      baseUrl,
      await liveToken(game._id, { id: outsider.profile._id, role: 'student' }),
    );
    clients.push(forged);
    forged.send({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION });
    expect((await forged.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.FORBIDDEN);
    // A student's token claiming to host is a player all the same: the server reads roles from the database.
    const [student] = live.players as [Player];
    const claimingHost = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, student, { host: true })));
    claimingHost.client.send({ type: 'start' });
    expect(await claimingHost.client.waitFor('error')).toEqual({ type: 'error', code: 'NOT_A_HOST' });
  });

  it('closes a socket that breaks the protocol, with its code; the game carries on', async () => {
    const live = await liveGameClass(t, { students: 1, questions: QUESTIONS });
    const game = await live.newGame();
    const [student] = live.players as [Player];
    const cases: [string, (client: LiveTestClient) => void, number][] = [
      ['an old protocol', (client) => client.send({ type: 'join', protocolVersion: 0 }), 4426],
      ['not JSON', (client) => client.send('{nope'), LIVE_GAME_CLOSE_CODES.BAD_MESSAGE],
      ['an answer before the join', (client) => client.send({ type: 'answer' }), LIVE_GAME_CLOSE_CODES.BAD_MESSAGE],
      [
        'over the size limit',
        (client) => client.send({ type: 'join', pad: 'x'.repeat(LIVE_GAME_LIMITS.messageMaxBytes) }),
        LIVE_GAME_CLOSE_CODES.TOO_LARGE,
      ],
    ];
    for (const [name, misbehave, code] of cases) {
      const client = await LiveTestClient.connect(baseUrl, await liveToken(game._id, student));
      clients.push(client);
      misbehave(client);
      expect((await client.closedWithin()).code, name).toBe(code);
    }
    const joined = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, student)));
    joined.client.send({ type: 'answer', questionId: 'q', value: { nope: 1 } });
    expect((await joined.client.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.BAD_MESSAGE);
    // The message budget: a burst's worth (the join among it) is taken, each refused with the socket
    // kept; more at once closes it.
    const flooding = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, student)));
    const allowed = LIVE_GAME_LIMITS.messageBurst - 1;
    for (let i = 0; i < allowed; i++) flooding.client.send({ type: 'start' });
    await expect.poll(() => flooding.client.received('error').length).toBe(allowed);
    expect(flooding.client.received('error')[0]).toEqual({ type: 'error', code: 'NOT_A_HOST' });
    for (let i = 0; i < 5; i++) flooding.client.send({ type: 'start' });
    expect((await flooding.client.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.RATE_LIMITED);
  });

  it('carries out a host’s quick commands within the budget, in order, before closing the flood', async () => {
    const live = await liveGameClass(t, { students: 1, questions: QUESTIONS });
    const game = await live.newGame(20);
    const host = kept(await LiveTestClient.host(baseUrl, (await hostToken(live.teacher.token, game._id)).token));
    const [student] = live.players as [Player];
    const player = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, student)));
    await host.client.waitFor('player-joined');
    host.client.send({ type: 'start' });
    await player.client.waitFor('question-opened');
    // 35 quick "+1 s" (seconds that never reach the 240 s cap): the join and the start took two of the burst.
    const pressed = 35;
    for (let i = 0; i < pressed; i++) host.client.send({ type: 'add-time', index: 0, seconds: 1 });
    expect((await host.client.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.RATE_LIMITED);
    const withinBudget = LIVE_GAME_LIMITS.messageBurst - 2;
    await expect.poll(() => player.client.received('time-added').length).toBeGreaterThanOrEqual(withinBudget);
    const added = player.client.received('time-added');
    expect(added.length).toBeLessThan(pressed);
    // Each one a second more than the one before: every command carried out, once, in order.
    const deadlines = added.map((message) => Date.parse(message.deadline));
    expect(deadlines.slice(1).map((deadline, i) => deadline - deadlines[i]!)).toEqual(
      deadlines.slice(1).map(() => 1000),
    );
    const again = kept(await LiveTestClient.host(baseUrl, (await hostToken(live.teacher.token, game._id)).token));
    expect(again.welcome.question?.deadline).toBe(added.at(-1)!.deadline);
  });

  it('removes a player: told, closed with REMOVED, and kept out', async () => {
    const live = await liveGameClass(t, { students: 1, questions: QUESTIONS });
    const game = await live.newGame();
    const host = kept(await LiveTestClient.host(baseUrl, (await hostToken(live.teacher.token, game._id)).token));
    const [student] = live.players as [Player];
    const player = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, student)));
    await host.client.waitFor('player-joined');
    host.client.send({ type: 'remove-player', studentId: student.id });
    await player.client.waitFor('removed');
    expect((await player.client.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.REMOVED);
    expect(await host.client.waitFor('player-removed')).toMatchObject({ playerId: student.id, playerCount: 0 });
    const again = await LiveTestClient.connect(baseUrl, await liveToken(game._id, student), player.seatId);
    clients.push(again);
    again.send({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION });
    expect((await again.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.REMOVED);
  });

  it('closes every socket of a game once it ends, after its last messages, with GAME_ENDED', async () => {
    const live = await liveGameClass(t, { students: 2, questions: QUESTIONS });
    const game = await live.newGame();
    const host = kept(await LiveTestClient.host(baseUrl, (await hostToken(live.teacher.token, game._id)).token));
    const [ada, ben] = live.players as [Player, Player];
    const player = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, ada)));
    await host.client.waitFor('player-joined');
    host.client.send({ type: 'start' });
    await player.client.waitFor('question-opened');
    host.client.send({ type: 'end' });
    // The podium, the player's final score, then the close: nothing more will come.
    expect(await host.client.closedWithin()).toEqual({
      code: LIVE_GAME_CLOSE_CODES.GAME_ENDED,
      reason: 'The game is over.',
    });
    expect((await player.client.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.GAME_ENDED);
    expect(host.client.history.map((message) => message.type).slice(-2)).toEqual(['leaderboard', 'ended']);
    expect(player.client.history.map((message) => message.type).slice(-3)).toEqual([
      'your-result',
      'ended',
      'your-final',
    ]);
    // A player of the game coming back (a page that reloads) hears the final state, then the close.
    const back = kept(await LiveTestClient.player(baseUrl, await liveToken(game._id, ada)));
    expect(back.welcome).toMatchObject({ game: { state: 'ended' }, final: { rank: 1 } });
    expect((await back.client.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.GAME_ENDED);

    // Anyone else is refused.
    const late = await LiveTestClient.connect(baseUrl, await liveToken(game._id, ben));
    clients.push(late);
    late.send({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION });
    expect((await late.closedWithin()).code).toBe(LIVE_GAME_CLOSE_CODES.GAME_ENDED);
    const refused = await t.call({
      method: 'POST',
      url: `/api/live-games/${game._id}/token`,
      headers: bearer(live.teacher.token),
    });
    expect(refused.status).toBe(404);
  });
});

describe.skipIf(!TEST_REDIS_URL)('a live game across two instances on one Redis and one database', () => {
  const instances = twoInstancesOnRedis();

  it('plays with the host on one instance and the players on the other; the deadline closes once', async () => {
    const { first, firstUrl, secondUrl } = instances;
    const live = await liveGameClass(first, { students: 2, questions: QUESTIONS });
    const game = await live.newGame(5);
    const [ada, ben] = live.players as [Player, Player];
    const host = kept(await LiveTestClient.host(firstUrl, await liveToken(game._id, live.host)));
    const onAda = kept(await LiveTestClient.player(secondUrl, await liveToken(game._id, ada)));
    const onBen = kept(await LiveTestClient.player(firstUrl, await liveToken(game._id, ben)));
    await host.client.waitFor('player-joined', (message) => message.player._id === ada.id);
    await host.client.waitFor('player-joined', (message) => message.player._id === ben.id);

    host.client.send({ type: 'start' });
    const opened = await onAda.client.waitFor('question-opened');
    onAda.client.send({ type: 'answer', questionId: opened.question._id, value: rightAnswer(opened.question) });
    await onAda.client.waitFor('answer-accepted');
    expect(await host.client.waitFor('answer-count', (count) => count.answered > 0)).toMatchObject({
      answered: 1,
      players: 2,
    });

    // Both instances arm a timer at the deadline; one closes, the other changes nothing.
    const closedOnAda = await onAda.client.waitFor('question-closed', () => true, 10_000);
    await onBen.client.waitFor('question-closed', () => true, 10_000);
    expect(closedOnAda.distribution).toMatchObject({ answered: 1, right: 1 });
    expect(await onAda.client.waitFor('your-result')).toMatchObject({ outcome: 'right', rank: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onBen.client.received('question-closed')).toEqual([]);
    expect(host.client.received('question-closed').length).toBeLessThanOrEqual(1);
  });
});
