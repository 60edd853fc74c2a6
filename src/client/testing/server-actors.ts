import type { EndpointData, EndpointInput, EnvelopeEndpoint } from '#shared/contract/endpoint';
import * as quizzes from '#shared/contract/quizzes';
import * as resources from '#shared/contract/resources';
import * as school from '#shared/contract/school';
import * as signIn from '#shared/contract/sign-in';
import * as accounts from '#shared/contract/accounts';
import * as classes from '#shared/contract/classes';
import * as meetings from '#shared/contract/meetings';
import * as students from '#shared/contract/students';
import * as marking from '#shared/contract/quiz-marking';
import * as assignments from '#shared/contract/assignments';
import * as liveGames from '#shared/contract/live-games';
import { inject } from 'vitest';
import type { NewQuizPayload } from '#shared/quizzes';
import type { NewAssignmentInput } from '#shared/assignments';
import type { AnswerValue } from '#shared/question-types';
import { urlOf } from '../lib/api.ts';
import { saveSession } from '../lib/session.ts';
import { buildNewQuiz, buildStudentRegistration, buildTeacherRegistration } from '../../server/testing/factories.ts';
import { callJson } from '../../server/testing/server-process.ts';
import { studentView } from '../features/quizzes/quiz-views.ts';
import { responseText, semicolonList } from '../features/quizzes/question-response.ts';

/**
 * Set-up for component tests through the real API of the test server (the document's origin),
 * as another person or another tab would act: the screen under test sees only its effects.
 * The same factories as the API and e2e tests.
 */
async function callOk<E extends EnvelopeEndpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  token?: string,
): Promise<EndpointData<E>> {
  const { params, query, body } = input as { params?: object; query?: object; body?: unknown };
  const url = urlOf(endpoint, { params, query });
  const answer = await callJson(location.origin, endpoint.method, url, { token, body });
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${endpoint.method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return (answer.body as { data: EndpointData<E> }).data;
}

export type Actor = { token: string };

/** The component server's school administrator (set up with the server). */
export const administrator = (): Actor => ({ token: inject('componentAdministratorToken') });

/** A fresh invitation's code, as the administrator's link carries it. */
export async function invitationCode(note = '') {
  return (await callOk(school.createInvitation, { body: { note } }, administrator().token)).code;
}

/** An invitation that can no longer be used: revoked by the administrator. */
export async function revokedInvitationCode() {
  const { code, invitation } = await callOk(school.createInvitation, { body: {} }, administrator().token);
  await callOk(school.revokeInvitation, { params: { id: invitation._id } }, administrator().token);
  return code;
}

export async function signUpTeacher(overrides: { subject?: string; name?: string; email?: string } = {}) {
  const registration = buildTeacherRegistration(await invitationCode(), overrides);
  await callOk(signIn.registerTeacher, { body: registration });
  const credentials = { email: registration.email, password: registration.password };
  return { registration, token: await callOk(signIn.logInTeacher, { body: credentials }) };
}

/**
 * The join code of `teacher`'s class named `className` (the administrator's by default), made
 * through the API on first use: what a student registers with.
 */
export async function classCodeOf(className = '10A', teacher: Actor = administrator()) {
  const taught = await callOk(classes.listMyClasses, {}, teacher.token);
  const existing = taught.find((candidate) => candidate.name === className);
  const found = existing ?? (await callOk(classes.createClass, { body: { name: className } }, teacher.token));
  return found.joinCode!;
}

/**
 * A fresh class of the teacher's (decision 031), by name: students who register with
 * `{ class: name, teacher }` join it, and the teacher's students screen lists them.
 */
export async function classTaughtBy(teacher: Actor) {
  return (await classRecordTaughtBy(teacher)).name;
}

/** A new class the teacher teaches: its id (what filters send, decision 031) and name. */
export async function classRecordTaughtBy(teacher: Actor) {
  const name = `C${Math.random().toString(36).slice(2, 9)}`;
  const made = await callOk(classes.createClass, { body: { name } }, teacher.token);
  return { id: made._id, name: made.name };
}

type StudentOverrides = { class?: string; classCode?: string; name?: string; teacher?: Actor };

/**
 * A student who registered with `classCode`, else into `teacher`'s class named `class` (the
 * administrator's by default; never signed in here).
 */
export async function registerStudent({ class: className, classCode, teacher, ...overrides }: StudentOverrides = {}) {
  const registration = buildStudentRegistration({
    ...overrides,
    classCode: classCode ?? (await classCodeOf(className, teacher)),
  });
  await callOk(signIn.registerStudent, { body: registration });
  return registration;
}

export async function signUpStudent(overrides: StudentOverrides = {}) {
  const registration = await registerStudent(overrides);
  const credentials = { rollNumber: registration.rollNumber, password: registration.password };
  return { registration, token: await callOk(signIn.logInStudent, { body: credentials }) };
}

/**
 * A student whose password a teacher reset (decision 033), signed in elsewhere with the
 * temporary password: that session may only choose a new one.
 */
export async function studentAfterReset(student: Actor & { registration: { rollNumber: string } }) {
  const { _id } = await callOk(accounts.getStudentProfile, {}, student.token);
  const { temporaryPassword } = await callOk(
    students.resetStudentPassword,
    { params: { id: _id } },
    administrator().token,
  );
  const credentials = { rollNumber: student.registration.rollNumber, password: temporaryPassword };
  return { temporaryPassword, token: await callOk(signIn.logInStudent, { body: credentials }) };
}

/** A student's session, by signing in (to check a password works). */
export const logInStudent = (rollNumber: string, password: string) =>
  callOk(signIn.logInStudent, { body: { rollNumber, password } });

/** This browser is signed in as `actor` (what the login screen stores). */
/** `actor`'s own language, kept on their account as the account page keeps it (issue 32). */
export async function chooseLanguageOf(actor: Actor, role: 'teacher' | 'student', locale: 'en' | 'es' | 'ar' | null) {
  await callOk(accounts.chooseLanguage[role], { body: { locale } }, actor.token);
}

export function signInAs(actor: Actor, userType: 'teacher' | 'student') {
  saveSession({ token: actor.token, userType });
}

/** A quiz of `teacher`'s into their class named `class` (made when new; default 10A). */
export async function addQuiz(
  teacher: Actor,
  { class: className = '10A', ...quiz }: Partial<NewQuizPayload> & { class?: string } = {},
) {
  await classCodeOf(className, teacher);
  const taught = await callOk(classes.listMyClasses, {}, teacher.token);
  const classId = taught.find((candidate) => candidate.name === className)!._id;
  return callOk(quizzes.addQuiz, { body: buildNewQuiz({ ...quiz, classId }) }, teacher.token);
}

/** A live game of `teacher`'s quiz with one of their classes, in the lobby, with its PIN (issue 34). */
export const openLiveGame = (teacher: Actor, quizId: string, classId: string) =>
  callOk(liveGames.createLiveGame, { body: { quizId, classId } }, teacher.token);

export const startQuiz = (student: Actor, quizId: string) =>
  callOk(quizzes.startQuiz, { params: { id: quizId } }, student.token);

/** The quiz and the attempt as the server holds them for `student`. */
export const quizAsStudent = (student: Actor, quizId: string) =>
  callOk(quizzes.getQuiz, { params: { id: quizId } }, student.token).then(studentView);

/** The student's saved answers by question text, as text (an option's text, True/False; null: not answered). */
export async function savedChoices(student: Actor, quizId: string) {
  const { quiz } = await quizAsStudent(student, quizId);
  return Object.fromEntries(
    quiz.questions.map((question) => [
      question.question_text,
      responseText(question, question.response, semicolonList) || null,
    ]),
  );
}

/** The resources `actor` can list (a teacher: their own uploads), as the server holds them. */
export const listResources = (actor: Actor) => callOk(resources.listResources, {}, actor.token);

/** Submits the student's attempt with these choices (none: the saved answers are scored). */
export const submitQuiz = (
  student: Actor,
  quizId: string,
  questions: { _id: string; response: AnswerValue | null }[] = [],
) => callOk(quizzes.submitQuiz, { body: { quiz: { _id: quizId, questions } } }, student.token);

/** The teacher's own quizzes as the server lists them (first page). */
export const teacherQuizzes = (teacher: Actor) =>
  callOk(quizzes.listQuizzes, { query: { offset: 0, limit: 50 } }, teacher.token);

/** A class `teacher` creates (decision 031), with its join code as shown (`ABCD-EFGH`). */
export const createClass = (teacher: Actor, input: { name?: string; subject?: string } = {}) =>
  callOk(
    classes.createClass,
    { body: { name: input.name ?? `Class ${Math.random().toString(36).slice(2, 9)}`, subject: input.subject } },
    teacher.token,
  );

/** The classes `teacher` teaches, as the server lists them. */
export const teacherClasses = (teacher: Actor) => callOk(classes.listMyClasses, {}, teacher.token);

/** `student` joins the class of a code; their classes as the server answers. */
export const joinClass = (student: Actor, classCode: string) =>
  callOk(classes.joinClass, { body: { classCode } }, student.token);

/** `teacher` adds a co-teacher to a class. */
export const addCoTeacher = (teacher: Actor, classId: string, teacherId: string) =>
  callOk(classes.addCoTeacher, { params: { id: classId }, body: { teacherId } }, teacher.token);

/** `teacher` shares a video link with a class (a resource of its library). */
export const shareVideoLink = (teacher: Actor, classId: string, fileName: string) =>
  callOk(
    resources.addResourceLink,
    { body: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', fileName, classId } },
    teacher.token,
  );

/** `teacher` leaves a class (or, as its owner, removes another teacher). */
export const removeClassTeacher = (teacher: Actor, classId: string, memberId: string) =>
  callOk(classes.removeClassTeacher, { params: { id: classId, memberId } }, teacher.token);

/** The profile of a teacher, for their id. */
export const teacherProfile = (teacher: Actor) => callOk(accounts.getTeacherProfile, {}, teacher.token);

/** The roster of a class of the teacher's, as the server holds it. */
export const classRoster = (teacher: Actor, classId: string) =>
  callOk(classes.listRoster, { params: { id: classId } }, teacher.token);

/** `teacher` archives a class of theirs. */
export const archiveClass = (teacher: Actor, classId: string) =>
  callOk(classes.changeClass.archive, { params: { id: classId } }, teacher.token);

/** `teacher` opens a meeting room for a class of theirs (decision 035). */
export const openMeetingRoom = (teacher: Actor, classId: string) =>
  callOk(meetings.createMeetingRoom, { body: { classId } }, teacher.token);

/** A quiz's essays as a teacher of its class lists them (decision 046), awaiting marking or marked. */
export const essaysOf = (teacher: Actor, quizId: string, view: 'awaiting' | 'marked' = 'awaiting') =>
  callOk(marking.listEssaysToMark, { params: { id: quizId }, query: { view, offset: 0, limit: 50 } }, teacher.token);

/** Marks one essay through the API, as another teacher would. */
export const markEssayAs = (
  teacher: Actor,
  quizId: string,
  essay: { attemptId: string; question: { _id: string }; version: number },
  points: number,
) =>
  callOk(
    marking.markEssay,
    {
      params: { id: quizId, attemptId: essay.attemptId, questionId: essay.question._id },
      body: { points, version: essay.version },
    },
    teacher.token,
  );

/** An assignment of `teacher`'s for their classes (issue 33): due in a day and worth 10 points unless told. */
export const createAssignmentFor = (teacher: Actor, classIds: string[], overrides: Partial<NewAssignmentInput> = {}) =>
  callOk(
    assignments.createAssignment,
    {
      body: {
        classIds,
        title: `Homework ${Math.random().toString(36).slice(2, 7)}`,
        instructions: '',
        points: 10,
        dueAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
        acceptLate: true,
        ...overrides,
      },
    },
    teacher.token,
  );

/** The assignment and the student's hand-in as the server holds them. */
export const assignmentAsStudent = (student: Actor, id: string) =>
  callOk(assignments.getStudentAssignment, { params: { id } }, student.token);

/** Saves a draft as another tab or device of the student would, at the version it read. */
export const saveDraftElsewhere = (student: Actor, id: string, text: string, version: number) =>
  callOk(assignments.saveHandInDraft, { params: { id }, body: { text, version } }, student.token);

/** The profile of a student, for their id. */
export const studentProfile = (student: Actor) => callOk(accounts.getStudentProfile, {}, student.token);

/** Another editor's save of an assignment: a new title over the version they read. */
export const retitleAssignment = async (teacher: Actor, id: string, title: string) => {
  const read = await callOk(assignments.getAssignment, { params: { id } }, teacher.token);
  return callOk(
    assignments.editAssignment,
    {
      params: { id },
      body: {
        title,
        instructions: read.instructions,
        points: read.points,
        dueAt: read.dueAt,
        acceptLate: read.acceptLate,
        publishAt: read.publishAt,
        classIds: read.classes.map((entry) => entry._id),
        attachments: read.attachments.map((entry) => entry._id),
        version: read.version,
      },
    },
    teacher.token,
  );
};

/** `student` hands in `text` (their hand-in at `version`: 0 for none yet); their view as answered. */
export const handInAs = (student: Actor, id: string, text: string, version = 0) =>
  callOk(assignments.handInWork, { params: { id }, body: { text, version } }, student.token);

/** `student` takes their hand-in back (at `version`). */
export const takeBackAs = (student: Actor, id: string, version: number) =>
  callOk(assignments.takeBackHandIn, { params: { id }, body: { version } }, student.token);

/** The teacher grades the student's first hand-in (version 1), without returning it. */
export const gradeFirstHandIn = (
  teacher: Actor,
  assignmentId: string,
  studentId: string,
  points: number,
  feedback: string,
) =>
  callOk(
    assignments.gradeHandIn,
    { params: { id: assignmentId, studentId }, body: { points, feedback, version: 1 } },
    teacher.token,
  );

/** The teacher grades the student's first hand-in (version 1) and returns it. */
export async function gradeAndReturn(
  teacher: Actor,
  assignmentId: string,
  studentId: string,
  points: number,
  feedback: string,
) {
  await gradeFirstHandIn(teacher, assignmentId, studentId, points, feedback);
  await callOk(assignments.returnHandIn, { params: { id: assignmentId, studentId } }, teacher.token);
}

/** An assignment as its teacher reads it (GET /api/assignments/{id}). */
export const assignmentAsTeacher = (teacher: Actor, id: string) =>
  callOk(assignments.getAssignment, { params: { id } }, teacher.token);
