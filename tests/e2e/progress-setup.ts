import type { APIRequestContext } from '@playwright/test';
import type { StudentRegistration, TeacherRegistration } from '../../src/shared/accounts.ts';
import type { QuizQuestion } from '../../src/shared/quizzes.ts';
import { buildNewQuiz, buildStudentRegistration } from '../../src/server/testing/factories.ts';
import { RIGHT_ANSWERS } from './api-setup.ts';
import { expect } from './fixtures.ts';
import { invitedTeacher } from './school-setup.ts';

/**
 * Seeds, through the real API, two classes whose students have known results,
 * for the leaderboard and statistics scenarios. Every run gets its own class
 * names, so the desktop and mobile runs (one database) do not see each other
 * in a class's leaderboard.
 */

async function call<T>(request: APIRequestContext, url: string, data: unknown, token?: string): Promise<T> {
  const response = await request.post(url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()).data as T;
}

export async function signUpTeacher(request: APIRequestContext, subject: string) {
  const teacher = await invitedTeacher(request, { subject });
  await call(request, '/api/teacher/register', teacher);
  const token = await call<string>(request, '/api/teacher/login', { email: teacher.email, password: teacher.password });
  return { ...teacher, token };
}

/** A student registered with the class's code (decision 031). */
export async function signUpStudent(request: APIRequestContext, name: string, classCode: string) {
  const student = buildStudentRegistration({ name, classCode });
  await call(request, '/api/student/register', student);
  const token = await call<string>(request, '/api/student/login', {
    rollNumber: student.rollNumber,
    password: student.password,
  });
  return { ...student, token };
}

/** A class of the teacher's, made through the API: its join code. */
export const classCode = async (request: APIRequestContext, teacher: { token: string }, name: string) =>
  (await call<{ joinCode: string }>(request, '/api/classes', { name }, teacher.token)).joinCode;

/** The id of the teacher's class named `className`, made when they teach none of that name (decision 031). */
async function classIdOf(request: APIRequestContext, teacher: { token: string }, className: string) {
  const headers = { authorization: `Bearer ${teacher.token}` };
  const taught = (await (await request.get('/api/classes', { headers })).json()).data as {
    _id: string;
    name: string;
  }[];
  return (
    taught.find((candidate) => candidate.name === className)?._id ??
    (await call<{ _id: string }>(request, '/api/classes', { name: className }, teacher.token))._id
  );
}

export const addQuiz = async (request: APIRequestContext, teacher: { token: string }, className: string) =>
  call<{ _id: string; title: string }>(
    request,
    '/api/teacher/add-quiz',
    buildNewQuiz({ classId: await classIdOf(request, teacher, className) }),
    teacher.token,
  );

/** Starts and submits a quiz with `right` of its 3 questions answered correctly. */
export async function takeQuiz(request: APIRequestContext, student: { token: string }, quizId: string, right: number) {
  const started = await call<{ quiz: { questions: QuizQuestion[] } }>(
    request,
    `/api/quiz/${quizId}/start`,
    {},
    student.token,
  );
  const questions = started.quiz.questions.map((question, index) => {
    const answer = RIGHT_ANSWERS[question.question_text]!;
    return {
      _id: question._id,
      selectedOption: index < right ? answer : question.options!.find((option) => option.text !== answer)!.text,
    };
  });
  await call(request, '/api/student/update-student', { quiz: { _id: quizId, questions } }, student.token);
}

export type SeededStudent = StudentRegistration & { token: string };

/** What the scenarios expect to see: names in leaderboard order with their accuracy. */
export type ExpectedRow = { name: string; accuracy: string; band: 'good' | 'fair' | 'poor' };

export async function seedTwoClasses(request: APIRequestContext) {
  const suffix = Date.now().toString(36).slice(-5);
  const classA = `Lb-${suffix}-A`;
  const classB = `Lb-${suffix}-B`;
  const maths = await signUpTeacher(request, 'Mathematics');
  const physics = await signUpTeacher(request, 'Physics');
  // The Mathematics teacher makes both classes; the Physics teacher co-teaches class A.
  const [codeA, codeB] = [await classCode(request, maths, classA), await classCode(request, maths, classB)];
  // Quizzes go only into a class one teaches (decision 031): Mathematics adds Physics to class A.
  const physicsId = (await call<{ _id: string }>(request, '/api/teacher/get-teacher-by-id', {}, physics.token))._id;
  await call(
    request,
    `/api/classes/${await classIdOf(request, maths, classA)}/teachers`,
    { teacherId: physicsId },
    maths.token,
  );
  const [mathsA, physicsA, mathsB] = [
    await addQuiz(request, maths, classA),
    await addQuiz(request, physics, classA),
    await addQuiz(request, maths, classB),
  ];

  // Class A: [name, right answers in the Mathematics quiz, in the Physics quiz (null: not taken)].
  const classAResults: [string, number | null, number | null][] = [
    ['Ada Lovelace', 3, 3], // average 3, 100 %
    ['Ben Carter', 3, 2], // 2.5, (100 + 66.67) / 2 = 83.335 -> 83.34 %
    ['Cleo Park', 2, 2], // 2, 66.67 %
    ['Dev Patel', 2, 1], // 1.5, 50 %
    ['Eli Moreau', 1, null], // 1, 33.33 %
    ['Finn Walsh', 0, null], // 0, 0 %
    ['Gus Novak', null, null], // no quiz: not on the leaderboard
  ];
  const students: Record<string, SeededStudent> = {};
  for (const [name, mathsRight, physicsRight] of classAResults) {
    const student = await signUpStudent(request, name, codeA);
    students[name] = student;
    if (mathsRight !== null) await takeQuiz(request, student, mathsA._id, mathsRight);
    if (physicsRight !== null) await takeQuiz(request, student, physicsA._id, physicsRight);
  }
  for (const [name, right] of [
    ['Zoe Quinn', 3],
    ['Yan Li', 1],
  ] as const) {
    const student = await signUpStudent(request, name, codeB);
    students[name] = student;
    await takeQuiz(request, student, mathsB._id, right);
  }

  const classARanking: ExpectedRow[] = [
    { name: 'Ada Lovelace', accuracy: '100%', band: 'good' },
    { name: 'Ben Carter', accuracy: '83.34%', band: 'good' },
    { name: 'Cleo Park', accuracy: '66.67%', band: 'fair' },
    { name: 'Dev Patel', accuracy: '50%', band: 'poor' },
    { name: 'Eli Moreau', accuracy: '33.33%', band: 'poor' },
    { name: 'Finn Walsh', accuracy: '0%', band: 'poor' },
  ];
  return {
    classA,
    classB,
    teacher: maths as TeacherRegistration & { token: string },
    students,
    classARanking,
    classBRanking: ['Zoe Quinn', 'Yan Li'],
  };
}

export type SeededClasses = Awaited<ReturnType<typeof seedTwoClasses>>;
