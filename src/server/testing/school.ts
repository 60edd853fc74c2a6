import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { NewQuizPayload, StudentQuizDetail } from '#shared/quizzes';
import type { TypedQuestionInput } from '#shared/question-types';
import type { Resource } from '#shared/resources';
import { classIdTaughtBy, schoolAdministrator, signUpStudent, signUpTeacher } from './actors.ts';
import { buildNewQuiz, TYPED_QUESTIONS } from './factories.ts';
import { multipartBody, SAMPLE_FILES } from './multipart.ts';
import { bearer, type TestApp } from './test-app.ts';

/**
 * A small school built through the API, for the authorization matrix and the fuzzer:
 * teacher 1 teaches class A, teacher 2 class B, one student in each. Every object the
 * matrix aims at belongs to teacher 1 / class A; teacher 2 and class B have the same
 * kinds of objects, so a list that leaks across teachers or classes shows it. Around them
 * (decision 031): class A's co-teacher, a student who was in class A and was removed from
 * it, and a teacher the administrator deactivated.
 */

export const CALLER_NAMES = [
  'anonymous',
  'studentA',
  'studentB',
  'removedStudent',
  'teacher1',
  'coTeacher',
  'teacher2',
  'deactivatedTeacher',
  'administrator',
] as const;
export type CallerName = (typeof CALLER_NAMES)[number];

/**
 * `isAdministrator`: administers the school (decision 030), a teacher who teaches no class
 * here; `isDeactivated`: the administrator deactivated the account, so its token opens nothing.
 * A student's `className` is null once they have left their class.
 */
export type Caller =
  | {
      name: 'anonymous';
      role: null;
      id: null;
      token: null;
      className: null;
      isAdministrator: false;
      isDeactivated: false;
    }
  | {
      name: CallerName;
      role: 'teacher';
      id: string;
      token: string;
      className: null;
      isAdministrator: boolean;
      isDeactivated: boolean;
    }
  | {
      name: CallerName;
      role: 'student';
      id: string;
      token: string;
      className: string | null;
      isAdministrator: false;
      isDeactivated: false;
    };

export const CLASS_A = '7A-matrix';
export const CLASS_B = '7B-matrix';

/** A text that only some callers may ever receive (an email, a quiz title, a task…). */
export type Secret = { text: string; what: string; visibleTo: readonly CallerName[] };

export type QuizFixture = { id: string; title: string };
export type ResourceFixture = { id: string; fileName: string; className: string };

export type School = {
  callers: Record<CallerName, Caller>;
  /** Class A's co-teacher, added to every class teacher 1 makes for the matrix. */
  coTeacherId: string;
  /** Each account's password (a password change needs the current one). */
  passwords: Record<Exclude<CallerName, 'anonymous'>, string>;
  quiz1: QuizFixture;
  quiz2: QuizFixture;
  resource1: ResourceFixture;
  resource2: ResourceFixture;
  /** Class A's id (the leaderboard asks for a class by id, decision 031), and a meeting room of it opened by teacher 1 (decision 035). */
  classAId: string;
  meetingRoom: string;
  /** Grows as objects are added (addQuiz, addResource). */
  secrets: Secret[];
  addQuiz(owner: 'teacher1' | 'teacher2'): Promise<QuizFixture>;
  addResource(owner: 'teacher1' | 'teacher2'): Promise<ResourceFixture>;
  /** Starts a quiz as a student; answers the attempt as presented (questions, options). */
  startQuiz(student: 'studentA' | 'studentB', quizId: string): Promise<StudentQuizDetail>;
};

/** Questions whose keys have the fields only a Moodle import writes, so the key checks see each of them. */
const MOODLE_KEYS: TypedQuestionInput[] = [
  {
    type: 'single',
    question_text: 'Which is a mammal?',
    points: 1,
    options: [
      { text: 'Whale', correct: true, weight: 100 },
      { text: 'Shark', correct: false, weight: -50 },
    ],
  },
  {
    type: 'short-text',
    question_text: 'A word for a shade?',
    points: 1,
    accepted: ['*colour*'],
    partial: [{ text: 'colo*r', weight: 50 }],
    wildcards: true,
  },
  {
    type: 'numeric',
    question_text: 'A square root of 9?',
    points: 1,
    value: 3,
    tolerance: 0,
    partial: [
      { value: -3, tolerance: 0, weight: 100 },
      { value: 3, tolerance: 0.5, weight: 50 },
    ],
  },
];

/** An add-quiz body with one question of each type after its single-choice ones. */
const withEveryType = (body: NewQuizPayload): NewQuizPayload => ({
  ...body,
  quiz: {
    ...body.quiz,
    questions: [
      ...body.quiz.questions,
      ...TYPED_QUESTIONS,
      // Its guidance is for markers only (decision 046): no student response may carry it.
      { type: 'essay', question_text: 'Why do we sleep?', points: 2, guidance: 'Names memory and rest.' },
      // Moodle's keys (decisions 043, 049): option weights, partial and further full answers, wildcards.
      ...MOODLE_KEYS,
    ],
  },
});

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
  const [teacher1, teacher2, administrator, coTeacher, deactivatedTeacher] = await Promise.all([
    signUpTeacher(t, { subject: 'Mathematics' }),
    signUpTeacher(t, { subject: 'History' }),
    signUpTeacher(t, { subject: 'Administration' }),
    signUpTeacher(t, { subject: 'Mathematics' }),
    signUpTeacher(t, { subject: 'Retired' }),
  ]);
  // Teacher 1 makes class A and teacher 2 class B through the API. Beside a previous school the
  // classes exist, taught by its teachers (signed out now): the new teachers join them as
  // co-teachers, as those teachers would have added them (decision 031).
  const classIdOf = {
    teacher1: await classIdTaughtBy(t, teacher1, CLASS_A),
    teacher2: await classIdTaughtBy(t, teacher2, CLASS_B),
  };
  // The students register with their class's code.
  const [studentA, studentB, removedStudent] = await Promise.all([
    signUpStudent(t, { class: CLASS_A }),
    signUpStudent(t, { class: CLASS_B }),
    signUpStudent(t, { class: CLASS_A }),
  ]);
  // An administrator of this school's own (the previous school's may have signed out everywhere).
  await expectCall(
    t,
    {
      method: 'POST',
      url: `/api/school/teachers/${administrator.profile._id}/make-administrator`,
      headers: bearer((await schoolAdministrator(t)).token),
    },
    200,
  );
  const teacherCaller = (
    name: CallerName,
    account: typeof teacher1,
    isAdministrator = false,
    isDeactivated = false,
  ): Caller => ({
    name,
    role: 'teacher',
    id: account.profile._id,
    token: account.token,
    className: null,
    isAdministrator,
    isDeactivated,
  });
  const studentCaller = (name: CallerName, account: typeof studentA, className: string | null): Caller => ({
    name,
    role: 'student',
    id: account.profile._id,
    token: account.token,
    className,
    isAdministrator: false,
    isDeactivated: false,
  });
  const callers: Record<CallerName, Caller> = {
    anonymous: {
      name: 'anonymous',
      role: null,
      id: null,
      token: null,
      className: null,
      isAdministrator: false,
      isDeactivated: false,
    },
    teacher1: teacherCaller('teacher1', teacher1),
    coTeacher: teacherCaller('coTeacher', coTeacher),
    teacher2: teacherCaller('teacher2', teacher2),
    deactivatedTeacher: teacherCaller('deactivatedTeacher', deactivatedTeacher, false, true),
    administrator: teacherCaller('administrator', administrator, true),
    studentA: studentCaller('studentA', studentA, CLASS_A),
    studentB: studentCaller('studentB', studentB, CLASS_B),
    removedStudent: studentCaller('removedStudent', removedStudent, null),
  };
  await expectCall(
    t,
    {
      method: 'POST',
      url: `/api/school/teachers/${deactivatedTeacher.profile._id}/deactivate`,
      headers: bearer(administrator.token),
    },
    200,
  );
  const secrets: Secret[] = previous
    ? [...previous.secrets]
    : [{ text: '$argon2', what: 'a password hash', visibleTo: [] }];
  const own = (owner: CallerName, what: string, ...texts: string[]) =>
    texts.forEach((text) => secrets.push({ text, what: `${owner}'s ${what}`, visibleTo: [owner] }));
  for (const name of CALLER_NAMES) {
    if (name !== 'anonymous') own(name, 'session token', callers[name].token!);
  }
  // A teacher's email: their own, and the staff list of the administrators.
  for (const [name, teacher] of [
    ['teacher1', teacher1],
    ['teacher2', teacher2],
  ] as const) {
    secrets.push({ text: teacher.registration.email, what: `${name}'s email`, visibleTo: [name, 'administrator'] });
  }
  // A student's contact details reach only the teachers of their classes (issue 19 point 8):
  // class A's teacher and co-teacher, class B's teacher; nobody's for the student removed from
  // class A. Names are also on the leaderboards, which every teacher sees.
  const classTeachersOf = {
    studentA: ['teacher1', 'coTeacher'],
    studentB: ['teacher2'],
    removedStudent: [],
  } as const satisfies Record<string, readonly CallerName[]>;
  for (const [name, student] of [
    ['studentA', studentA],
    ['studentB', studentB],
    ['removedStudent', removedStudent],
  ] as const) {
    const { email, rollNumber, parentName, parentEmail, name: fullName } = student.registration;
    for (const [what, text] of Object.entries({ email, rollNumber, parentName, parentEmail })) {
      secrets.push({ text, what: `${name}'s ${what}`, visibleTo: [name, ...classTeachersOf[name]] });
    }
    secrets.push({
      text: fullName,
      what: `${name}'s name`,
      visibleTo: [name, 'teacher1', 'coTeacher', 'teacher2', 'administrator'],
    });
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
        // Every question type (issue 20), so each response is checked for every kind of key.
        payload: withEveryType(buildNewQuiz({ title, classId: classIdOf[owner], maxTime: 600 })),
      },
      201,
    );
    const quiz = { id: body.data._id as string, title };
    // Teacher 1's class A is co-taught: its gradebook shows the co-teacher its quizzes (decision 062).
    const coTeachers: CallerName[] = owner === 'teacher1' ? ['coTeacher'] : [];
    for (const text of [quiz.id, title]) {
      secrets.push({ text, what: `a quiz of ${owner}`, visibleTo: [owner, classmateOf[owner], ...coTeachers] });
    }
    return quiz;
  }

  async function addResource(owner: 'teacher1' | 'teacher2'): Promise<ResourceFixture> {
    const fileName = `Notes ${owner} ${unique()}.pdf`;
    const form = multipartBody({ classId: classIdOf[owner], fileName }, [
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
    // SPEC §7's shape names choices: the typed questions go unanswered.
    const questions = started.quiz.questions
      .filter((question) => question.type === 'single')
      .map((question) => ({ _id: question._id, selectedOption: question.options![0]!._id }));
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

  // Class A (made by the first registration naming it) gets its co-teacher; the removed
  // student leaves it, with no attempt: nothing of class A is theirs any more.
  const classesOfTeacher1 = await expectCall(
    t,
    { method: 'GET', url: '/api/classes', headers: authOf(callers.teacher1) },
    200,
  );
  const classA = (classesOfTeacher1.data as { _id: string; name: string }[]).find((entry) => entry.name === CLASS_A)!;
  await expectCall(
    t,
    {
      method: 'POST',
      url: `/api/classes/${classA._id}/teachers`,
      headers: authOf(callers.teacher1),
      payload: { teacherId: coTeacher.profile._id },
    },
    200,
  );
  await expectCall(
    t,
    {
      method: 'DELETE',
      url: `/api/classes/${classA._id}/students/${removedStudent.profile._id}`,
      headers: authOf(callers.teacher1),
    },
    200,
  );

  const meetingRoom = await expectCall(
    t,
    { method: 'POST', url: '/api/meetings', headers: authOf(callers.teacher1), payload: { classId: classA._id } },
    201,
  );

  const passwords = {
    teacher1: teacher1.registration.password,
    coTeacher: coTeacher.registration.password,
    teacher2: teacher2.registration.password,
    deactivatedTeacher: deactivatedTeacher.registration.password,
    studentA: studentA.registration.password,
    studentB: studentB.registration.password,
    removedStudent: removedStudent.registration.password,
    administrator: administrator.registration.password,
  };
  return {
    callers,
    coTeacherId: coTeacher.profile._id,
    passwords,
    quiz1,
    quiz2,
    resource1,
    resource2,
    classAId: classA._id,
    meetingRoom: meetingRoom.data.roomId as string,
    secrets,
    addQuiz,
    addResource,
    startQuiz,
  };
}

/** The secrets of the school that `caller` must never receive and that `text` contains. */
export function foreignSecretsIn(school: School, caller: CallerName, text: string): Secret[] {
  return school.secrets.filter((secret) => !secret.visibleTo.includes(caller) && text.includes(secret.text));
}
