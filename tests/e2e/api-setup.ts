import type { APIRequestContext } from '@playwright/test';
import type { NewQuizPayload, StudentQuizDetail } from '../../src/shared/quizzes.ts';
import { buildNewQuiz, buildStudentRegistration } from '../../src/server/testing/factories.ts';
import { expect } from './fixtures.ts';
import { invitedTeacher } from './school-setup.ts';

/**
 * Set-up through the real API for scenarios whose subject is elsewhere (the
 * scenario under test still uses the UI). Same factories as the API tests.
 */
async function postOk(request: APIRequestContext, url: string, data: unknown, token?: string) {
  const response = await request.post(url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()).data;
}

export async function teacherWithQuiz(request: APIRequestContext, quiz: Partial<NewQuizPayload> = {}) {
  const teacher = await registeredTeacher(request);
  const token = (await postOk(request, '/api/teacher/login', {
    email: teacher.email,
    password: teacher.password,
  })) as string;
  const created = (await postOk(request, '/api/teacher/add-quiz', buildNewQuiz(quiz), token)) as {
    _id: string;
    title: string;
  };
  return { teacher, token, quiz: created };
}

export async function registeredTeacher(request: APIRequestContext) {
  const teacher = await invitedTeacher(request);
  await postOk(request, '/api/teacher/register', teacher);
  return teacher;
}

export async function registeredStudent(request: APIRequestContext, overrides: { class?: string } = {}) {
  const student = buildStudentRegistration(overrides);
  await postOk(request, '/api/student/register', student);
  return student;
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

/** The student's saved choices by question text (null: not answered). */
export async function savedChoices(request: APIRequestContext, token: string, quizId: string) {
  const { quiz } = await quizAsStudent(request, token, quizId);
  return Object.fromEntries(
    quiz.questions.map((question) => [question.question_text, question.selectedOption ?? null]),
  );
}

/** Saves choices as another tab or device of the same student would (PUT answers). */
export async function saveChoicesElsewhere(
  request: APIRequestContext,
  token: string,
  quizId: string,
  choices: Record<string, string>,
) {
  const { quiz } = await quizAsStudent(request, token, quizId);
  const answers = Object.fromEntries(
    quiz.questions.flatMap((question) =>
      question.question_text in choices ? [[question._id, choices[question.question_text]]] : [],
    ),
  );
  const response = await request.put(`/api/quiz/${quizId}/answers`, { data: { answers }, headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
}
