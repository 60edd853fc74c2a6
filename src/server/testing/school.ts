import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { StudentQuizDetail } from '#shared/quizzes';
import type { Resource } from '#shared/resources';
import { signUpStudent, signUpTeacher } from './actors.ts';
import { buildNewQuiz } from './factories.ts';
import { multipartBody, SAMPLE_FILES } from './multipart.ts';
import { bearer, type TestApp } from './test-app.ts';

/**
 * A small school built through the API, for the authorization matrix and the fuzzer:
 * teacher 1 teaches class A, teacher 2 class B, one student in each. Every object the
 * matrix aims at belongs to teacher 1 / class A; teacher 2 and class B have the same
 * kinds of objects, so a list that leaks across teachers or classes shows it.
 */

export const CALLER_NAMES = ['anonymous', 'studentA', 'studentB', 'teacher1', 'teacher2'] as const;
export type CallerName = (typeof CALLER_NAMES)[number];

export type Caller =
  | { name: 'anonymous'; role: null; id: null; token: null; className: null }
  | { name: CallerName; role: 'teacher'; id: string; token: string; className: null }
  | { name: CallerName; role: 'student'; id: string; token: string; className: string };

export const CLASS_A = '7A-matrix';
export const CLASS_B = '7B-matrix';

/** A text that only some callers may ever receive (an email, a quiz title, a task…). */
export type Secret = { text: string; what: string; visibleTo: readonly CallerName[] };

export type QuizFixture = { id: string; title: string };
export type ResourceFixture = { id: string; fileName: string; className: string };

export type School = {
  callers: Record<CallerName, Caller>;
  /** Each account's password (a password change needs the current one). */
  passwords: Record<Exclude<CallerName, 'anonymous'>, string>;
  quiz1: QuizFixture;
  quiz2: QuizFixture;
  resource1: ResourceFixture;
  resource2: ResourceFixture;
  /** Grows as objects are added (addQuiz, addResource). */
  secrets: Secret[];
  addQuiz(owner: 'teacher1' | 'teacher2'): Promise<QuizFixture>;
  addResource(owner: 'teacher1' | 'teacher2'): Promise<ResourceFixture>;
  /** Starts a quiz as a student; answers the attempt as presented (questions, options). */
  startQuiz(student: 'studentA' | 'studentB', quizId: string): Promise<StudentQuizDetail>;
};

/** The caller's bearer header (none for the anonymous caller). */
export const authOf = (caller: Caller): Record<string, string> => (caller.token ? bearer(caller.token) : {});

const unique = () => Math.random().toString(36).slice(2, 10);

async function expectCall(t: TestApp, options: InjectOptions & { url: string }, status: number) {
  const response = await t.call(options);
  expect(response.status, `${options.method} ${options.url}: ${response.raw}`).toBe(status);
  return response.body;
}

/**
 * Builds the school; given the previous one (whose callers were signed out), a new one
 * beside it that still guards the previous one's secrets (its objects stay in the database).
 */
export async function buildSchool(t: TestApp, previous?: School): Promise<School> {
  const [teacher1, teacher2, studentA, studentB] = await Promise.all([
    signUpTeacher(t, { subject: 'Mathematics' }),
    signUpTeacher(t, { subject: 'History' }),
    signUpStudent(t, { class: CLASS_A }),
    signUpStudent(t, { class: CLASS_B }),
  ]);
  const callers: Record<CallerName, Caller> = {
    anonymous: { name: 'anonymous', role: null, id: null, token: null, className: null },
    teacher1: { name: 'teacher1', role: 'teacher', id: teacher1.profile._id, token: teacher1.token, className: null },
    teacher2: { name: 'teacher2', role: 'teacher', id: teacher2.profile._id, token: teacher2.token, className: null },
    studentA: {
      name: 'studentA',
      role: 'student',
      id: studentA.profile._id,
      token: studentA.token,
      className: CLASS_A,
    },
    studentB: {
      name: 'studentB',
      role: 'student',
      id: studentB.profile._id,
      token: studentB.token,
      className: CLASS_B,
    },
  };
  const secrets: Secret[] = previous
    ? [...previous.secrets]
    : [{ text: '$argon2', what: 'a password hash', visibleTo: [] }];
  const own = (owner: CallerName, what: string, ...texts: string[]) =>
    texts.forEach((text) => secrets.push({ text, what: `${owner}'s ${what}`, visibleTo: [owner] }));
  for (const name of ['teacher1', 'teacher2', 'studentA', 'studentB'] as const) {
    own(name, 'session token', callers[name].token!);
  }
  own('teacher1', 'email', teacher1.registration.email);
  own('teacher2', 'email', teacher2.registration.email);
  // Teachers see every student's account (the students screen); another class's student never does.
  for (const [name, student] of [
    ['studentA', studentA],
    ['studentB', studentB],
  ] as const) {
    const { email, rollNumber, parentName, parentEmail, name: fullName } = student.registration;
    for (const [what, text] of Object.entries({ email, rollNumber, parentName, parentEmail, name: fullName })) {
      secrets.push({ text, what: `${name}'s ${what}`, visibleTo: [name, 'teacher1', 'teacher2'] });
    }
  }

  const classOf = { teacher1: CLASS_A, teacher2: CLASS_B } as const;
  const classmateOf = { teacher1: 'studentA', teacher2: 'studentB' } as const;

  async function addQuiz(owner: 'teacher1' | 'teacher2'): Promise<QuizFixture> {
    const title = `Quiz ${owner} ${unique()}`;
    const body = await expectCall(
      t,
      {
        method: 'POST',
        url: '/api/teacher/add-quiz',
        headers: authOf(callers[owner]),
        // The longest timer: no attempt of the school runs out during a long fuzz run (the sweep would close it).
        payload: buildNewQuiz({ title, class: classOf[owner], maxTime: 600 }),
      },
      201,
    );
    const quiz = { id: body.data._id as string, title };
    for (const text of [quiz.id, title]) {
      secrets.push({ text, what: `a quiz of ${owner}`, visibleTo: [owner, classmateOf[owner]] });
    }
    return quiz;
  }

  async function addResource(owner: 'teacher1' | 'teacher2'): Promise<ResourceFixture> {
    const fileName = `Notes ${owner} ${unique()}.pdf`;
    const form = multipartBody({ class: classOf[owner], fileName }, [
      { name: 'notes.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' },
    ]);
    const body = await expectCall(
      t,
      {
        method: 'POST',
        url: '/api/teacher/upload-resource',
        headers: { ...form.headers, ...authOf(callers[owner]) },
        payload: form.payload,
      },
      201,
    );
    const resource = { id: (body.data as Resource)._id, fileName, className: classOf[owner] };
    for (const text of [resource.id, fileName]) {
      secrets.push({ text, what: `a resource of ${owner}`, visibleTo: [owner, classmateOf[owner]] });
    }
    return resource;
  }

  async function startQuiz(student: 'studentA' | 'studentB', quizId: string): Promise<StudentQuizDetail> {
    const body = await expectCall(
      t,
      { method: 'POST', url: `/api/quiz/${quizId}/start`, headers: authOf(callers[student]), payload: {} },
      200,
    );
    return body.data as StudentQuizDetail;
  }

  const [quiz1, quiz2, resource1, resource2, rankedA, rankedB] = await Promise.all([
    addQuiz('teacher1'),
    addQuiz('teacher2'),
    addResource('teacher1'),
    addResource('teacher2'),
    addQuiz('teacher1'),
    addQuiz('teacher2'),
  ]);
  // Each student submits one quiz (so both are on a leaderboard) and stars their class's resource.
  for (const [student, quiz, resource] of [
    ['studentA', rankedA, resource1],
    ['studentB', rankedB, resource2],
  ] as const) {
    const started = await startQuiz(student, quiz.id);
    const questions = started.quiz.questions.map((question) => ({
      _id: question._id,
      selectedOption: question.options[0],
    }));
    const headers = authOf(callers[student]);
    await expectCall(
      t,
      { method: 'POST', url: '/api/student/update-student', headers, payload: { quiz: { _id: quiz.id, questions } } },
      200,
    );
    await expectCall(
      t,
      { method: 'POST', url: `/api/resources/${resource.id}/star`, headers, payload: { action: 'star' } },
      200,
    );
  }
  // Everyone has a task list of their own.
  for (const name of ['teacher1', 'teacher2', 'studentA', 'studentB'] as const) {
    const text = `Task of ${name} ${unique()}`;
    const role = callers[name].role;
    await expectCall(
      t,
      {
        method: 'POST',
        url: `/api/${role}/update-task`,
        headers: authOf(callers[name]),
        payload: { tasks: [{ id: unique().padEnd(9, 'x').slice(0, 9), text, isCompleted: false }], version: 0 },
      },
      200,
    );
    own(name, 'task', text);
  }

  const passwords = {
    teacher1: teacher1.registration.password,
    teacher2: teacher2.registration.password,
    studentA: studentA.registration.password,
    studentB: studentB.registration.password,
  };
  return { callers, passwords, quiz1, quiz2, resource1, resource2, secrets, addQuiz, addResource, startQuiz };
}

/** The secrets of the school that `caller` must never receive and that `text` contains. */
export function foreignSecretsIn(school: School, caller: CallerName, text: string): Secret[] {
  return school.secrets.filter((secret) => !secret.visibleTo.includes(caller) && text.includes(secret.text));
}
