import type { NewQuizPayload, StudentQuizDetail } from '#shared/quizzes';
import type { Resource } from '#shared/resources';
import { saveSession } from '../lib/session.ts';
import { buildNewQuiz, buildStudentRegistration, buildTeacherRegistration } from '../../server/testing/factories.ts';
import { callJson } from '../../server/testing/server-process.ts';

/**
 * Set-up for component tests through the real API of the test server (the document's origin),
 * as another person or another tab would act: the screen under test sees only its effects.
 * The same factories as the API and e2e tests.
 */
async function callOk<T>(method: string, url: string, options: { token?: string; body?: unknown } = {}) {
  const { status, body } = await callJson(location.origin, method, url, options);
  if (status < 200 || status >= 300) throw new Error(`${method} ${url}: ${status} ${JSON.stringify(body)}`);
  return body.data as T;
}

export type Actor = { token: string };

export async function signUpTeacher(overrides: { subject?: string } = {}) {
  const registration = buildTeacherRegistration(overrides);
  await callOk('POST', '/api/teacher/register', { body: registration });
  const credentials = { email: registration.email, password: registration.password };
  return { registration, token: await callOk<string>('POST', '/api/teacher/login', { body: credentials }) };
}

export async function signUpStudent(overrides: { class?: string } = {}) {
  const registration = buildStudentRegistration(overrides);
  await callOk('POST', '/api/student/register', { body: registration });
  const credentials = { rollNumber: registration.rollNumber, password: registration.password };
  return { registration, token: await callOk<string>('POST', '/api/student/login', { body: credentials }) };
}

/** This browser is signed in as `actor` (what the login screen stores). */
export function signInAs(actor: Actor, userType: 'teacher' | 'student') {
  saveSession({ token: actor.token, userType });
}

export const addQuiz = (teacher: Actor, quiz: Partial<NewQuizPayload> = {}) =>
  callOk<{ _id: string; title: string }>('POST', '/api/teacher/add-quiz', {
    token: teacher.token,
    body: buildNewQuiz(quiz),
  });

export const startQuiz = (student: Actor, quizId: string) =>
  callOk<StudentQuizDetail>('POST', `/api/quiz/${quizId}/start`, { token: student.token });

/** The quiz and the attempt as the server holds them for `student`. */
export const quizAsStudent = (student: Actor, quizId: string) =>
  callOk<StudentQuizDetail>('GET', `/api/quiz/${quizId}`, { token: student.token });

/** The student's saved choices by question text (null: not answered). */
export async function savedChoices(student: Actor, quizId: string) {
  const { quiz } = await quizAsStudent(student, quizId);
  return Object.fromEntries(
    quiz.questions.map((question) => [question.question_text, question.selectedOption ?? null]),
  );
}

/** The resources `actor` can list (a teacher: their own uploads), as the server holds them. */
export const listResources = (actor: Actor) => callOk<Resource[]>('GET', '/api/get-resources', { token: actor.token });
