import type { APIRequestContext } from '@playwright/test';
import type { NewQuizPayload } from '../../src/shared/quizzes.ts';
import {
  buildNewQuiz,
  buildStudentRegistration,
  buildTeacherRegistration,
} from '../../src/server/testing/factories.ts';
import { expect } from './fixtures.ts';

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
  const teacher = buildTeacherRegistration();
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
