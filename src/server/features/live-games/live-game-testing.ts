import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import {
  LIVE_GAME_PROTOCOL_VERSION,
  LIVE_GAME_SOCKET_PATH,
  type LiveDelivery,
  type LiveGameSummary,
  type LiveServerMessage,
} from '#shared/live-games';
import type { AnswerValue, TypedQuestionInput } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import type { ReadCache } from '../../cache/read-cache.ts';
import { studentIdentityColumns } from '../../db/identity-keys.ts';
import { answerKeysIn } from '../../testing/answer-keys.ts';
import { classStudents, students } from '../../db/schema.ts';
import { classTaughtBy, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz, TYPED_QUESTIONS } from '../../testing/factories.ts';
import { bearer, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { openRoomSocket, RoomTestClient } from '../../realtime/room-test-client.ts';
import { createFileAccess } from '../resources/file-access.ts';
import { createLiveTokens } from './live-tokens.ts';
import { createLiveGamePlay, type LiveActor } from './play.ts';

/**
 * A class for the live-game tests (decision 066): its teacher (through the API), a co-teacher,
 * students written straight to the database (the game knows them by id; a hundred sign-ups
 * would only time argon2), a quiz of the teacher's, and the play module on a clock the test moves.
 */

/** A single choice question, its right option written first (the game shuffles them). */
export const SINGLE_CHOICE: TypedQuestionInput = {
  type: 'single',
  question_text: 'What is 2 + 2?',
  points: 1,
  options: [
    { text: '4', correct: true },
    { text: '3', correct: false },
    { text: '5', correct: false },
  ],
};

/** One question of every type the game plays, then an essay and a description it skips. */
export const EVERY_TYPE: TypedQuestionInput[] = [
  SINGLE_CHOICE,
  ...TYPED_QUESTIONS,
  { type: 'essay', question_text: 'Why do we sleep?', points: 2, guidance: 'Names memory and rest.' },
];

export type Player = LiveActor & { name: string };

/** Students of `classId` written to the database, named "<prefix> 1"… */
export async function addStudents(t: TestApp, classId: string, count: number, prefix = 'Player'): Promise<Player[]> {
  if (count === 0) return [];
  const rows = Array.from({ length: count }, (_, index) => {
    const tag = randomUUID().slice(0, 8);
    return {
      name: `${prefix} ${index + 1}`,
      ...studentIdentityColumns({ rollNumber: `live-${tag}`, email: `live-${tag}@example.org` }),
      parentName: 'A parent',
      parentEmail: `parent-${tag}@example.org`,
      passwordHash: 'not a password hash: these students never sign in',
    };
  });
  const inserted = await t.database.db
    .insert(students)
    .values(rows)
    .returning({ id: students.id, name: students.name });
  await t.database.db.insert(classStudents).values(inserted.map((row) => ({ classId, studentId: row.id })));
  return inserted.map((row) => ({ id: row.id, name: row.name, role: 'student' as const }));
}

/** A clock the test moves: the play module reads it for every "now". */
export function testClock(start = new Date()) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
  };
}

export async function liveGameClass(
  t: TestApp,
  options: {
    students?: number;
    questions?: TypedQuestionInput[];
    clock?: ReturnType<typeof testClock>;
    /** The read cache play tells of a game that moves the leaderboard (one sharing the app's tag versions). */
    cache?: ReadCache;
  } = {},
) {
  const teacher = await signUpTeacher(t);
  const coTeacher = await signUpTeacher(t);
  const klass = await classTaughtBy(t, teacher, [coTeacher]);
  const players = await addStudents(t, klass.id, options.students ?? 3);
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: bearer(teacher.token),
    payload: buildNewQuiz({
      classId: klass.id,
      quiz: { background: buildNewQuiz().quiz.background, questions: options.questions ?? EVERY_TYPE },
    }),
  });
  expect(created.status, created.raw).toBe(201);
  const quizId = (created.body as { data: { _id: string } }).data._id;
  const clock = options.clock ?? testClock();
  const play = createLiveGamePlay(t.database.db, createFileAccess(TEST_JWT_SECRET), {
    now: clock.now,
    cache: options.cache,
  });
  const host: LiveActor = { id: teacher.profile._id, role: 'teacher' };
  const coHost: LiveActor = { id: coTeacher.profile._id, role: 'teacher' };

  /** A new game of the quiz with the class, through the API. */
  async function newGame(questionSeconds = 20): Promise<LiveGameSummary> {
    const made = await t.call({
      method: 'POST',
      url: '/api/live-games',
      headers: bearer(teacher.token),
      payload: { quizId, classId: klass.id, questionSeconds },
    });
    expect(made.status, made.raw).toBe(201);
    return (made.body as { data: LiveGameSummary }).data;
  }

  return {
    teacher,
    coTeacher,
    klass,
    players,
    quizId,
    clock,
    play,
    host,
    coHost,
    newGame,
  };
}

/** The messages of `deliveries` of one type, narrowed. */
export function messagesOf<Type extends LiveServerMessage['type']>(
  deliveries: readonly LiveDelivery[],
  type: Type,
): Extract<LiveServerMessage, { type: Type }>[] {
  return deliveries
    .map((delivery) => delivery.message)
    .filter((message): message is Extract<LiveServerMessage, { type: Type }> => message.type === type);
}

/** The right answer to a question of EVERY_TYPE, from its content as players see it. */
export function rightAnswer(question: QuizQuestion): AnswerValue {
  const optionId = (text: string) => question.options!.find((option) => option.text === text)!._id;
  const choiceId = (text: string) => question.choices!.find((choice) => choice.text === text)!._id;
  const promptId = (text: string) => question.prompts!.find((prompt) => prompt.text === text)!._id;
  switch (question.type) {
    case 'single':
      return optionId('4');
    case 'multiple':
      return [optionId('Two'), optionId('Four')];
    case 'true-false':
      return true;
    case 'short-text':
      return 'Beijing';
    case 'numeric':
      return '3,5';
    case 'matching':
      return { [promptId('France')]: choiceId('Paris'), [promptId('Italy')]: choiceId('Rome') };
    case 'essay':
    case 'description':
      throw new Error(`no answer for ${question.type}`);
  }
}

/** A wrong answer (nothing earned) to a question of EVERY_TYPE. */
export function wrongAnswer(question: QuizQuestion): AnswerValue {
  switch (question.type) {
    case 'single':
      return question.options!.find((option) => option.text === '5')!._id;
    case 'multiple':
      return [question.options!.find((option) => option.text === 'Three')!._id];
    case 'true-false':
      return false;
    case 'short-text':
      return 'Shanghai';
    case 'numeric':
      return '7';
    case 'matching': {
      const madrid = question.choices!.find((choice) => choice.text === 'Madrid')!._id;
      return Object.fromEntries(question.prompts!.map((prompt) => [prompt._id, madrid]));
    }
    case 'essay':
    case 'description':
      throw new Error(`no answer for ${question.type}`);
  }
}

const liveTokens = createLiveTokens(TEST_JWT_SECRET);

/** A room token for a game's socket, as POST /api/live-games/{id}/token mints it (whoever the test says). */
export async function liveToken(gameId: string, person: Player | LiveActor, options: { host?: boolean } = {}) {
  const { token } = await liveTokens.issue({
    sub: person.id,
    role: person.role,
    name: 'name' in person ? person.name : 'A teacher',
    room: gameId,
    sv: 0,
    host: options.host ?? person.role === 'teacher',
  });
  return token;
}

/** Someone on a game's socket, as a page connects: seated, then welcomed. */
export class LiveTestClient extends RoomTestClient<LiveServerMessage> {
  static async connect(baseUrl: string, token: string, resumeId?: string): Promise<LiveTestClient> {
    const resume = resumeId === undefined ? '' : `&resume=${encodeURIComponent(resumeId)}`;
    return new LiveTestClient(await openRoomSocket(baseUrl, LIVE_GAME_SOCKET_PATH, token, resume));
  }

  /** Connects and says join; resolves with the seat's id. */
  private static async seat(baseUrl: string, token: string, resumeId?: string) {
    const client = await LiveTestClient.connect(baseUrl, token, resumeId);
    client.send({ type: 'join', protocolVersion: LIVE_GAME_PROTOCOL_VERSION });
    const { seatId } = await client.waitFor('seated');
    return { client, seatId };
  }

  static async host(baseUrl: string, token: string) {
    const { client, seatId } = await LiveTestClient.seat(baseUrl, token);
    return { client, seatId, welcome: await client.waitFor('host-welcome') };
  }

  static async player(baseUrl: string, token: string, resumeId?: string) {
    const { client, seatId } = await LiveTestClient.seat(baseUrl, token, resumeId);
    return { client, seatId, welcome: await client.waitFor('player-welcome') };
  }
}

/** Every message a player received, in order: no key of a question not closed before it. */
export function expectNoEarlyKey(messages: readonly LiveServerMessage[]) {
  const closed = new Set<string>();
  for (const message of messages) {
    if (message.type === 'question-closed') closed.add(message.question._id);
    expect(
      answerKeysIn(message).filter((id) => !closed.has(id)),
      `${message.type} carries a key`,
    ).toEqual([]);
  }
}
