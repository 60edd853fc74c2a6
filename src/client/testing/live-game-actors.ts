import type { EndpointData, EndpointInput, EnvelopeEndpoint } from '#shared/contract/endpoint';
import * as liveGames from '#shared/contract/live-games';
import {
  LIVE_GAME_PROTOCOL_VERSION,
  LIVE_GAME_SOCKET_PATH,
  type LiveClientMessage,
  type LiveServerMessage,
  type OpenedQuestion,
} from '#shared/live-games';
import type { AnswerValue } from '#shared/question-types';
// Node's socket, not the document's: jsdom's events are not the ones Node's WebSocket dispatches.
import { WebSocket } from 'ws';
import { urlOf } from '../lib/api.ts';
import { callJson } from '../../server/testing/server-process.ts';
import type { Actor } from './server-actors.ts';

/**
 * A live game played to its end on the component tests' server (decision 066), as the host's
 * and the players' pages play it: the REST calls to make it and get room tokens, then the game's
 * socket. The screens under test (the quiz's analytics) see only the finished game it leaves.
 */

async function callOk<E extends EnvelopeEndpoint>(endpoint: E, input: EndpointInput<E>, token: string) {
  const { params, body } = input as { params?: object; body?: unknown };
  const url = urlOf(endpoint, { params });
  const answer = await callJson(location.origin, endpoint.method, url, { token, body });
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${endpoint.method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as { data: EndpointData<E> }).data;
}

type Received = LiveServerMessage['type'];

/** One socket of the game: what it sends, and the messages it is waiting for, in order. */
async function openSeat(gameId: string, actor: Actor) {
  const ticket = await callOk(liveGames.issueLiveGameToken, { params: { id: gameId } }, actor.token);
  const address = new URL(LIVE_GAME_SOCKET_PATH, location.origin);
  address.protocol = 'ws:';
  address.searchParams.set('token', ticket.token);
  const socket = new WebSocket(address.href);
  const inbox: LiveServerMessage[] = [];
  const waiters: { type: Received; resolve(message: LiveServerMessage): void }[] = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as LiveServerMessage;
    if (message.type === 'error') throw new Error(`live game refused a message: ${message.code}`);
    const waiter = waiters.findIndex((candidate) => candidate.type === message.type);
    if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(message);
    else inbox.push(message);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const seat = {
    send: (message: LiveClientMessage | { type: 'join'; protocolVersion: number }) =>
      socket.send(JSON.stringify(message)),
    /** The next message of `type` (one already received first). */
    next<T extends Received>(type: T): Promise<Extract<LiveServerMessage, { type: T }>> {
      const waiting = inbox.findIndex((message) => message.type === type);
      if (waiting >= 0) return Promise.resolve(inbox.splice(waiting, 1)[0] as Extract<LiveServerMessage, { type: T }>);
      return new Promise((resolve) => waiters.push({ type, resolve: resolve as (message: LiveServerMessage) => void }));
    },
    close: () => socket.close(),
  };
  seat.send({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION });
  return seat;
}

/**
 * A game of `quizId` with `classId`, hosted by `teacher`, joined by `players`, ended after
 * `questionsPlayed` questions (all of them by default): at each, `answer` gives each player's
 * answer to the open question (null: none); the host closes it at once (skip), then moves on.
 */
export async function playLiveGame({
  teacher,
  players,
  quizId,
  classId,
  questionsPlayed,
  answer,
}: {
  teacher: Actor;
  players: Actor[];
  quizId: string;
  classId: string;
  questionsPlayed?: number;
  answer(opened: OpenedQuestion, player: number): AnswerValue | null;
}) {
  const game = await callOk(liveGames.createLiveGame, { body: { quizId, classId } }, teacher.token);
  const host = await openSeat(game._id, teacher);
  await host.next('host-welcome');
  const seats = [];
  for (const player of players) {
    const seat = await openSeat(game._id, player);
    await seat.next('player-welcome');
    seats.push(seat);
  }
  const rounds = questionsPlayed ?? game.questionCount;
  host.send({ type: 'start' });
  for (let index = 0; index < rounds; index++) {
    const opened = await host.next('question-opened');
    for (const [number, seat] of seats.entries()) {
      await seat.next('question-opened');
      const value = answer(opened, number);
      if (value === null) continue;
      seat.send({ type: 'answer', questionId: opened.question._id, value });
      await seat.next('answer-accepted');
    }
    host.send({ type: 'skip', index });
    await host.next('question-closed');
    if (index < rounds - 1) host.send({ type: 'next', from: index });
  }
  host.send({ type: 'end' });
  await host.next('ended');
  for (const seat of [host, ...seats]) seat.close();
  return game;
}

/** The finished game's report as the server gives it to the quiz's author. */
export const liveGameReportOf = (teacher: Actor, quizId: string, gameId: string) =>
  callOk(liveGames.getLiveGameReport, { params: { id: quizId, gameId } }, teacher.token);

/** Whether the game counts toward the class leaderboard, as the server has it recorded. */
export const finishedGamesOf = (teacher: Actor, quizId: string) =>
  callOk(liveGames.listFinishedLiveGames, { params: { id: quizId }, query: {} }, teacher.token);
