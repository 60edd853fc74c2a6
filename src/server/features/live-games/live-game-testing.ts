import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { LiveDelivery, LiveGameSummary, LiveServerMessage } from '#shared/live-games';
import type { TypedQuestionInput } from '#shared/question-types';
import { studentIdentityColumns } from '../../db/identity-keys.ts';
import { classStudents, students } from '../../db/schema.ts';
import { classTaughtBy, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz, TYPED_QUESTIONS } from '../../testing/factories.ts';
import { bearer, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { createFileAccess } from '../resources/file-access.ts';
import { createLiveGamePlay, type LiveActor } from './play.ts';

/**
 * A class for the live-game tests (decision 066): its teacher (through the API), a co-teacher,
 * students written straight to the database (the game knows them by id; a hundred sign-ups
 * would only time argon2), a quiz of the teacher's, and the play module on a clock the test moves.
 */

/** One question of every type the game plays, then an essay and a description it skips. */
export const EVERY_TYPE: TypedQuestionInput[] = [
  {
    type: 'single',
    question_text: 'What is 2 + 2?',
    points: 1,
    options: [
      { text: '4', correct: true },
      { text: '3', correct: false },
      { text: '5', correct: false },
    ],
  },
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
  options: { students?: number; questions?: TypedQuestionInput[]; clock?: ReturnType<typeof testClock> } = {},
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
  const play = createLiveGamePlay(t.database.db, createFileAccess(TEST_JWT_SECRET), { now: clock.now });
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
