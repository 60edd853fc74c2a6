import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Locale } from '../../src/shared/locales.ts';
import type { NewQuizPayload, QuizQuestion, StudentQuizDetail } from '../../src/shared/quizzes.ts';
import { buildNewQuiz, buildStudentRegistration } from '../../src/server/testing/factories.ts';
import { expect } from './fixtures.ts';
import { administratorToken, invitedTeacher } from './school-setup.ts';

/**
 * Set-up through the real API for scenarios whose subject is elsewhere (the
 * scenario under test still uses the UI). Same factories as the API tests.
 */
async function postOk(request: APIRequestContext, url: string, data: unknown, token?: string) {
  const response = await request.post(url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()).data;
}

/** A class made through the API (decision 031), with the join code its students register with. */
export type E2EClass = { id: string; name: string; joinCode: string };

/** A class of `token`'s teacher, made through the API; a fresh name unless given. */
export async function createClass(
  request: APIRequestContext,
  token: string,
  name = `Class-${randomBytes(3).toString('hex')}`,
): Promise<E2EClass> {
  const made = (await postOk(request, '/api/classes', { name }, token)) as {
    _id: string;
    name: string;
    joinCode: string;
  };
  return { id: made._id, name: made.name, joinCode: made.joinCode };
}

/** A teacher with a class of their own (named `quiz.class`, else fresh) and a quiz in it. */
export async function teacherWithQuiz(
  request: APIRequestContext,
  { class: className, ...quiz }: Partial<NewQuizPayload> & { class?: string } = {},
) {
  const teacher = await registeredTeacher(request);
  const token = (await postOk(request, '/api/teacher/login', {
    email: teacher.email,
    password: teacher.password,
  })) as string;
  const klass = await createClass(request, token, className);
  const created = (await postOk(
    request,
    '/api/teacher/add-quiz',
    buildNewQuiz({ ...quiz, classId: klass.id }),
    token,
  )) as {
    _id: string;
    title: string;
  };
  return { teacher, token, quiz: created, klass };
}

export async function registeredTeacher(request: APIRequestContext, overrides: { subject?: string } = {}) {
  const teacher = await invitedTeacher(request, overrides);
  await postOk(request, '/api/teacher/register', teacher);
  return teacher;
}

/** A class of an already registered teacher (`teacher`: their email and password), made through the API. */
export async function classOfTeacher(
  request: APIRequestContext,
  teacher: { email: string; password: string },
  className?: string,
) {
  const token = (await postOk(request, '/api/teacher/login', {
    email: teacher.email,
    password: teacher.password,
  })) as string;
  return createClass(request, token, className);
}

/** A registered teacher with a class of their own (named `className`, else fresh), made through the API. */
export async function teacherWithClass(request: APIRequestContext, className?: string, subject?: string) {
  const teacher = await registeredTeacher(request, subject === undefined ? {} : { subject });
  const token = (await postOk(request, '/api/teacher/login', {
    email: teacher.email,
    password: teacher.password,
  })) as string;
  return { teacher, token, klass: await createClass(request, token, className) };
}

/**
 * The join code of the administrator's homeroom, for students whose class does not matter to
 * the scenario: made by the administrator on first use (`isRetry`: made meanwhile by a scenario
 * running at the same moment).
 */
export async function homeroomCode(request: APIRequestContext, isRetry = false): Promise<string> {
  const token = await administratorToken(request);
  const taught = await request.get('/api/classes', { headers: bearer(token) });
  expect(taught.ok(), await taught.text()).toBe(true);
  const found = ((await taught.json()).data as E2EClass[]).find((candidate) => candidate.name === HOMEROOM);
  if (found) return found.joinCode;
  const made = await request.post('/api/classes', { data: { name: HOMEROOM }, headers: bearer(token) });
  if (made.status() === 409 && !isRetry) return homeroomCode(request, true);
  expect(made.ok(), `the homeroom (a quiz naming it first makes it another teacher's): ${await made.text()}`).toBe(
    true,
  );
  return (await made.json()).data.joinCode as string;
}
/** The administrator's class, for students whose class does not matter to the scenario. */
export const HOMEROOM = 'E2E Homeroom';

/** A student registered with a class's code (the homeroom's unless given). */
export async function registeredStudent(
  request: APIRequestContext,
  overrides: { classCode?: string; name?: string } = {},
) {
  const student = buildStudentRegistration({
    classCode: overrides.classCode ?? (await homeroomCode(request)),
    ...(overrides.name === undefined ? {} : { name: overrides.name }),
  });
  await postOk(request, '/api/student/register', student);
  return student;
}

/** A student registered into the class of `classCode` under `name`, and signed in: their session's token. */
export async function signedInStudent(request: APIRequestContext, classCode: string, name: string) {
  const registration = await registeredStudent(request, { classCode, name });
  const token = (await postOk(request, '/api/student/login', {
    rollNumber: registration.rollNumber,
    password: registration.password,
  })) as string;
  return { registration, token };
}

/** The right answer of each question of buildNewQuiz(), by question text. */
export const RIGHT_ANSWERS: Record<string, string> = {
  'What is 2 + 2?': '4',
  'What is the capital of France?': 'Paris',
  'Which is a prime number?': '7',
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The attempt as the server holds it for the student whose token this is. */
export async function quizAsStudent(request: APIRequestContext, token: string, quizId: string) {
  const response = await request.get(`/api/quiz/${quizId}`, { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as StudentQuizDetail;
}

/** A question's saved answer, a chosen option as its text (null: not answered). */
export const responseText = (question: QuizQuestion) =>
  question.options?.find((option) => option._id === question.response)?.text ?? question.response ?? null;

/** The student's saved choices by question text, a chosen option as its text (null: not answered). */
export async function savedChoices(request: APIRequestContext, token: string, quizId: string) {
  const { quiz } = await quizAsStudent(request, token, quizId);
  return Object.fromEntries(quiz.questions.map((question) => [question.question_text, responseText(question)]));
}

/** Saves choices as another tab or device of the same student would (PUT answers). */
export async function saveChoicesElsewhere(
  request: APIRequestContext,
  token: string,
  quizId: string,
  choices: Record<string, string>,
) {
  const { quiz } = await quizAsStudent(request, token, quizId);
  // Choices are named by their text; the server takes the option's id (decision 036).
  const answers = Object.fromEntries(
    quiz.questions.flatMap((question) => {
      const chosen = question.options?.find((option) => option.text === choices[question.question_text]);
      return chosen ? [[question._id, chosen._id]] : [];
    }),
  );
  const response = await request.put(`/api/quiz/${quizId}/answers`, { data: { answers }, headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * A teacher with a class of their own and a meeting room of it, opened through the API
 * (decision 035): students who register with `klass.joinCode` may join the room.
 */
export async function teacherWithMeetingRoom(request: APIRequestContext) {
  const { teacher, token, klass } = await teacherWithClass(request);
  const room = (await postOk(request, '/api/meetings', { classId: klass.id }, token)) as { roomId: string };
  return { teacher, token, klass, roomId: room.roomId };
}

/** A file of tests/e2e/fixtures in the teacher's library for class `classId`, uploaded through the API: the resource. */
export async function uploadLibraryFile(
  request: APIRequestContext,
  token: string,
  classId: string,
  fixture: { path: string; mimeType: string },
) {
  const response = await request.post('/api/teacher/upload-resource', {
    headers: bearer(token),
    multipart: {
      classId,
      file: { name: path.basename(fixture.path), mimeType: fixture.mimeType, buffer: readFileSync(fixture.path) },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as { _id: string; fileName: string };
}

/**
 * The signed-in person of `page` chooses `locale` on their account, as the account page does
 * (POST /api/{role}/language); the caller reloads. A signed-in person's language is their
 * account's (decision 055 addendum): the signed-out pages' cookie no longer switches it.
 */
export async function chooseOwnLanguage(page: Page, locale: Locale) {
  const session = await page.evaluate(() => ({
    token: localStorage.getItem('token'),
    role: localStorage.getItem('userType'),
  }));
  expect(session.token, 'a signed-in page').toBeTruthy();
  await postOk(page.request, `/api/${session.role}/language`, { locale }, session.token!);
}
