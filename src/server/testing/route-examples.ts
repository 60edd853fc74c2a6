import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { decodeJwt } from 'jose';
import { expect } from 'vitest';
import { REACHES, type Reach, type RoutePolicy } from '../plugins/route-policy.ts';
import { classCodeNamed, inviteTeacher, schoolAdministrator, signUpStudent, signUpTeacher } from './actors.ts';
import {
  buildNewQuiz,
  buildSchoolSetup,
  TEST_SETUP_CODE,
  buildStudentRegistration,
  buildTeacherRegistration,
  editBodyOf,
} from './factories.ts';
import { multipartBody, SAMPLE_FILES } from './multipart.ts';
import { authOf, CLASS_A, CLASS_B, type Caller, type ResourceFixture, type School } from './school.ts';
import { bearer, TEST_JWT_SECRET, type TestApp } from './test-app.ts';
import { createFileAccess } from '../features/resources/file-access.ts';
import { presentQuizImage } from '../features/quizzes/quiz-images.ts';
import { assignmentFileLinks } from '../features/assignments/hand-in-files.ts';
import { createLiveGamePlay } from '../features/live-games/play.ts';
import { attachmentFileUrl } from '../features/assignments/records.ts';
import { STAFF_CHANGES } from '#shared/school';
import type { AnswerValue } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import { identityKey } from '#shared/identity';
import { classes, handIns, quizAccommodations, quizEssayMarks } from '../db/schema.ts';

/** A live game the matrix aims at: its id, PIN and quiz. */
type LiveGameFixture = { id: string; pin: string; quizId: string };

/** A class only students could name: no teacher teaches it (the matrix's untaught-classes routes). */
async function untaughtClass(t: TestApp): Promise<string> {
  const name = `Untaught ${crypto.randomUUID().slice(0, 8)}`;
  const [row] = await t.database.db
    .insert(classes)
    .values({ name, nameKey: identityKey(name) })
    .returning({ id: classes.id });
  return row!.id;
}

/**
 * One valid request per /api route, as each caller of the school would send it, with the
 * object it points at: the authorization matrix calls every route with them, and the fuzzer
 * starts from them (src/server/security). A new route needs one entry here (decision 020).
 */

/** "METHOD /path" of a route; a HEAD twin shares its GET's example. */
/** An answer for each question, by its type (issue 20): the first option, the first two, True, text, a number. */
function answerOfEveryType(questions: QuizQuestion[]): Record<string, AnswerValue> {
  const answerOf = (question: QuizQuestion): AnswerValue | undefined => {
    switch (question.type) {
      case 'single':
        return question.options![0]!._id;
      case 'multiple':
        return question.options!.slice(0, 2).map((option) => option._id);
      case 'true-false':
        return true;
      case 'short-text':
        return '北京';
      case 'numeric':
        return '3,5';
      case 'essay':
        return 'Because water expands as it freezes.';
      case 'matching':
        return Object.fromEntries(question.prompts!.map((prompt) => [prompt._id, question.choices![0]!._id]));
      case 'description':
        return undefined;
    }
  };
  return Object.fromEntries(
    questions.flatMap((question) => {
      const answer = answerOf(question);
      return answer === undefined ? [] : [[question._id, answer]];
    }),
  );
}

export const routeKey = (route: { method: string; url: string }) =>
  `${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`;

/**
 * What a request points at: an object of teacher 1 in class A, class A itself (its
 * leaderboard), a class record teacher 1 teaches and no other caller does, or a meeting
 * room of class A (its teachers, teacher 1 and the co-teacher, and its students), an
 * assignment teacher 1 made for class A (decision 058), or a live game of teacher 1's quiz
 * with class A (decision 066).
 */
export type Target = 'quiz' | 'resource' | 'class' | 'class-record' | 'class-meeting' | 'assignment' | 'live-game';

export type RouteExample = {
  /** The status of an accepted call (200 when omitted). */
  status?: number;
  /**
   * The status of a caller of the route's role whom no reach lets at the target (403 when
   * omitted): 404 where the route answers such a caller as it answers an unknown object.
   */
  unreachedStatus?: 404;
  /** The object of teacher 1 / class A the request names (path, body or query); omitted = none. */
  target?: Target;
  /** Fresh objects for this route (so one route's calls never depend on another's). */
  prepare?: () => Promise<any>;
  /** The request this caller sends (the method is the route's). */
  request: (caller: Caller, prepared: any) => ExampleRequest | Promise<ExampleRequest>;
  /** More checks on an accepted answer (not for HEAD, which has no body). */
  check?: (caller: Caller, body: any, prepared: any) => void | Promise<void>;
  /**
   * Accepting it ends the caller's sessions (a password change, signing out everywhere): the
   * matrix builds a fresh school after this route, since the callers' tokens no longer work;
   * the fuzzer gives the account back its session (and password) after each accepted call.
   */
  endsSessions?: boolean;
};

/** A request as inject() takes it, its address a path (the fuzzer reads it). */
type ExampleRequest = Omit<InjectOptions, 'method' | 'url'> & { url: string };

/** Does a caller reach teacher 1's / class A's object through this reach? The vocabulary's meaning, as a test. */
function reaches(reach: Reach, caller: Caller, target: Target): boolean {
  const isOwner = caller.name === 'teacher1';
  const isClassmate = caller.className === CLASS_A;
  switch (reach) {
    case 'own-quizzes':
      return target === 'quiz' && isOwner;
    case 'class-quizzes':
      return target === 'quiz' && isClassmate;
    // Teacher 1 and the co-teacher teach class A, the class of teacher 1's quizzes.
    case 'taught-quizzes':
      return target === 'quiz' && (isOwner || caller.name === 'coTeacher');
    // Teacher 1's assignment for class A: they change it; they and the co-teacher grade it; class A hands in.
    case 'own-assignments':
      return target === 'assignment' && isOwner;
    case 'taught-assignments':
      return target === 'assignment' && (isOwner || caller.name === 'coTeacher');
    case 'class-assignments':
      return target === 'assignment' && isClassmate;
    case 'own-uploads':
      return target === 'resource' && isOwner;
    case 'class-resources':
      return target === 'resource' && isClassmate;
    // Each caller holds the link signed for them: teacher 1's and class A's open the file.
    case 'linked-file':
      return target === 'resource' && (isOwner || isClassmate);
    // Student A's hand-in's file, an attachment of teacher 1's assignment: class A's student and teachers.
    case 'linked-hand-in-file':
    case 'linked-attachment':
      return target === 'assignment' && (isOwner || caller.name === 'coTeacher' || isClassmate);
    // An image of teacher 1's quiz: the quiz hands its link to those who see the quiz.
    case 'linked-quiz-image':
      return target === 'quiz' && (isOwner || isClassmate);
    case 'leaderboards':
      return target === 'class' && (caller.role === 'teacher' || isClassmate);
    // Teacher 1 and the co-teacher teach every class record the matrix aims at.
    case 'own-classes':
    case 'class-roster':
    case 'class-gradebook':
      return target === 'class-record' && (isOwner || caller.name === 'coTeacher');
    // The import the matrix reads was started by teacher 1 into their class: not even the co-teacher reads it.
    case 'own-imports':
      return target === 'class-record' && isOwner;
    // Class A's record: its students read their own grades in it.
    case 'own-grades':
      return target === 'class-record' && isClassmate;
    case 'meeting-room':
      return target === 'class-meeting' && (isOwner || caller.name === 'coTeacher' || isClassmate);
    // Teacher 1's game with class A: a host's token for its teachers, a player's for its students.
    case 'live-game-room':
      return target === 'live-game' && (isOwner || caller.name === 'coTeacher' || isClassmate);
    // Teacher 1's game with class A: its teachers host it, its students join it.
    case 'taught-live-games':
      return target === 'live-game' && (isOwner || caller.name === 'coTeacher');
    case 'class-live-games':
      return target === 'live-game' && isClassmate;
    // Class A's board: its teachers and students open it; its teachers hand the pen (decision 069).
    case 'class-board':
      return target === 'class-record' && (isOwner || caller.name === 'coTeacher' || isClassmate);
    case 'taught-class-boards':
      return target === 'class-record' && (isOwner || caller.name === 'coTeacher');
    // Reaches to none of the targets (another's quiz, resource or class).
    case 'credentials':
    case 'new-account':
    case 'nothing':
    case 'own-account':
    case 'own-statistics':
    case 'own-tasks':
    case 'own-notifications':
    case 'school-setup':
    case 'invitation':
    case 'school-staff':
    case 'untaught-classes':
    case 'colleagues':
      return false;
  }
}

/**
 * The status a caller must get, from the policy alone: 401 without a session for a route
 * that needs one, 403 for the wrong role, 403 for an object none of the route's reaches
 * gives this caller, else the route's success status.
 */
export function expectedStatus(policy: RoutePolicy, caller: Caller, entry: RouteExample): number {
  const success = entry.status ?? 200;
  const needsSession = ['signed-in', 'teacher', 'administrator', 'student'].includes(policy.caller);
  // A deactivated teacher's sessions ended with the deactivation (decision 030).
  if (needsSession && (!caller.role || caller.isDeactivated)) return 401;
  if ((policy.caller === 'teacher' || policy.caller === 'student') && caller.role !== policy.caller) return 403;
  if (policy.caller === 'administrator' && !caller.isAdministrator) return 403;
  if (!entry.target) return success;
  // With a link or a meeting token the credential speaks, not a session: reaches of an "anonymous" holder.
  const role = needsSession ? caller.role! : 'anonymous';
  const applicable = policy.touches.filter((reach) => (REACHES[reach].roles as readonly string[]).includes(role));
  return applicable.some((reach) => reaches(reach, caller, entry.target!)) ? success : (entry.unreachedStatus ?? 403);
}

/** The valid request of every route, keyed by routeKey(). */
export function routeExamples(t: TestApp, school: School): Record<string, RouteExample> {
  /** A file link of this caller's own list, for the resource `ownId`. */
  async function ownFileLink(caller: Caller, ownId: string): Promise<string> {
    const listed = await t.call({ method: 'GET', url: '/api/get-resources?limit=100', headers: authOf(caller) });
    const resource = (listed.body.data as { _id: string; fileURL: string }[]).find((item) => item._id === ownId);
    if (!resource) throw new Error(`${caller.name} does not list ${ownId}`);
    return resource.fileURL;
  }

  /** A quiz image uploaded by `owner`: its file key. */
  async function uploadQuizImage(owner: Caller): Promise<string> {
    const form = multipartBody({}, [{ name: 'figure.png', content: SAMPLE_FILES.png(), contentType: 'image/png' }]);
    const uploaded = await t.call({
      method: 'POST',
      url: '/api/quizzes/images',
      headers: { ...form.headers, ...authOf(owner) },
      payload: form.payload,
    });
    if (uploaded.status !== 201) throw new Error(`quiz image upload: ${uploaded.status} ${uploaded.raw}`);
    return uploaded.body.data.fileKey as string;
  }
  /** Quiz presenters sign image links for the quiz's viewers (decision 036); the matrix signs as they will. */
  const quizImageLink = (fileKey: string, userId: string) =>
    presentQuizImage(createFileAccess(TEST_JWT_SECRET), { fileKey, alt: 'A figure' }, userId).url;

  async function taskVersion(caller: Caller): Promise<number> {
    if (!caller.token) return 0;
    const list = await t.call({ method: 'GET', url: '/api/tasks', headers: authOf(caller) });
    return list.status === 200 ? (list.body.data.version as number) : 0;
  }

  /** An assignment of teacher 1 for class A (decision 058), due tomorrow: its id. */
  async function addAssignment(): Promise<string> {
    const created = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: authOf(school.callers.teacher1),
      payload: assignmentBody(),
    });
    if (created.status !== 201) throw new Error(`assignment: ${created.status} ${created.raw}`);
    return created.body.data._id as string;
  }
  const assignmentBody = () => ({
    classIds: [school.classAId],
    title: 'Matrix homework',
    instructions: 'Read chapter 3',
    points: 10,
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    acceptLate: true,
  });
  /** Teacher 1's assignment with student A's work handed in, and graded when `graded`. */
  async function handedInAssignment(graded = false): Promise<string> {
    const id = await addAssignment();
    const handedIn = await t.call({
      method: 'POST',
      url: `/api/student/assignments/${id}/hand-in`,
      headers: authOf(school.callers.studentA),
      payload: { text: 'My matrix work', version: 0 },
    });
    if (handedIn.status !== 200) throw new Error(`hand-in: ${handedIn.status} ${handedIn.raw}`);
    if (graded) {
      const grade = await t.call({
        method: 'PUT',
        url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}/grade`,
        headers: authOf(school.callers.teacher1),
        payload: { points: 8, feedback: 'Well done', version: 1 },
      });
      if (grade.status !== 200) throw new Error(`grade: ${grade.status} ${grade.raw}`);
    }
    return id;
  }
  /** Student A's hand-in's version now (each accepted grade moves it). */
  async function handInVersion(assignmentId: string): Promise<number> {
    const [row] = await t.database.db
      .select({ version: handIns.version })
      .from(handIns)
      .where(and(eq(handIns.assignmentId, assignmentId), eq(handIns.studentId, school.callers.studentA.id!)));
    return row?.version ?? 0;
  }

  /** Teacher 1's assignment with a file in student A's draft, handed in when `handIn`. */
  async function handInWithFile(handIn: boolean): Promise<{ id: string; fileId: string }> {
    const id = await addAssignment();
    const form = multipartBody({}, [{ name: 'photo.png', content: SAMPLE_FILES.png(), contentType: 'image/png' }]);
    const uploaded = await t.call({
      method: 'POST',
      url: `/api/student/assignments/${id}/files`,
      headers: { ...form.headers, ...authOf(school.callers.studentA) },
      payload: form.payload,
    });
    if (uploaded.status !== 201) throw new Error(`hand-in file: ${uploaded.status} ${uploaded.raw}`);
    if (handIn) {
      const handedIn = await t.call({
        method: 'POST',
        url: `/api/student/assignments/${id}/hand-in`,
        headers: authOf(school.callers.studentA),
        payload: { text: 'See the photo', version: uploaded.body.data.version },
      });
      if (handedIn.status !== 200) throw new Error(`hand-in: ${handedIn.status} ${handedIn.raw}`);
    }
    return { id, fileId: uploaded.body.data.file._id as string };
  }
  /** Addresses signed as the server signs them (decision 061): for a caller who never listed one, a valid signature the server must still refuse. */
  const fileLinks = assignmentFileLinks(createFileAccess(TEST_JWT_SECRET));
  /** Teacher 1's assignment for class A with teacher 1's resource attached. */
  async function assignmentWithAttachment(): Promise<{ id: string; resourceId: string }> {
    const resource = await school.addResource('teacher1');
    const created = await t.call({
      method: 'POST',
      url: '/api/assignments',
      headers: authOf(school.callers.teacher1),
      payload: { ...assignmentBody(), attachments: [resource.id] },
    });
    if (created.status !== 201) throw new Error(`assignment: ${created.status} ${created.raw}`);
    return { id: created.body.data._id as string, resourceId: resource.id };
  }

  /** A live game of teacher 1's quiz with class A (decision 066), in its lobby. */
  async function liveGame(): Promise<LiveGameFixture> {
    const quiz = await school.addQuiz('teacher1');
    const created = await t.call({
      method: 'POST',
      url: '/api/live-games',
      headers: authOf(school.callers.teacher1),
      payload: { quizId: quiz.id, classId: school.classAId },
    });
    if (created.status !== 201) throw new Error(`live game: ${created.status} ${created.raw}`);
    return { id: created.body.data._id as string, pin: created.body.data.pin as string, quizId: quiz.id };
  }
  /** The same, played to its end: student A joined, answered the first question, the host ended it. */
  async function finishedLiveGame(): Promise<LiveGameFixture> {
    const game = await liveGame();
    const play = createLiveGamePlay(t.database.db, createFileAccess(TEST_JWT_SECRET));
    const host = { id: school.callers.teacher1.id!, role: 'teacher' as const };
    const player = { id: school.callers.studentA.id!, role: 'student' as const };
    const outcomes = [await play.joinAsPlayer(player, game.id), await play.host(host, game.id, { type: 'start' })];
    const opened = outcomes[1]!.deliveries.find((delivery) => delivery.message.type === 'question-opened')!.message;
    if (opened.type !== 'question-opened') throw new Error('live game: no question opened');
    const question = opened.question;
    const value: AnswerValue =
      question.type === 'single' ? question.options![0]!._id : question.type === 'true-false' ? true : 'an answer';
    outcomes.push(await play.answer(player, game.id, { questionId: question._id, value }));
    outcomes.push(await play.host(host, game.id, { type: 'end' }));
    const refused = outcomes.find((outcome) => outcome.refused);
    if (refused) throw new Error(`live game: ${refused.refused}`);
    return game;
  }

  const everyItem = (body: any, predicate: (item: any) => boolean) =>
    expect((body.data as any[]).filter((item) => !predicate(item))).toEqual([]);

  /** Teacher 1's quiz with student A's essay submitted, awaiting marking (decision 046). */
  async function submittedEssay() {
    const quiz = await school.addQuiz('teacher1');
    const started = await school.startQuiz('studentA', quiz.id);
    const essay = started.quiz.questions.find((question: QuizQuestion) => question.type === 'essay')!;
    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: authOf(school.callers.studentA),
      payload: { quiz: { _id: quiz.id, questions: [{ _id: essay._id, response: 'Sleep keeps memories.' }] } },
    });
    if (submitted.status !== 200) throw new Error(`essay submission: ${submitted.status} ${submitted.raw}`);
    const [attempt] = await t.database.db
      .select({ id: quizEssayMarks.attemptId })
      .from(quizEssayMarks)
      .where(eq(quizEssayMarks.quizId, quiz.id));
    return { quiz, attemptId: attempt!.id, questionId: essay._id };
  }

  let classCount = 0;
  /** A fresh class of teacher 1's (only teacher 1 teaches it), with its join code. */
  async function teacher1Class(): Promise<{ id: string; joinCode: string }> {
    classCount += 1;
    const created = await t.call({
      method: 'POST',
      url: '/api/classes',
      headers: authOf(school.callers.teacher1),
      payload: { name: `Matrix class ${classCount} ${Math.random().toString(36).slice(2, 8)}` },
    });
    expect(created.status, created.raw).toBe(201);
    const added = await t.call({
      method: 'POST',
      url: `/api/classes/${created.body.data._id}/teachers`,
      headers: authOf(school.callers.teacher1),
      payload: { teacherId: school.coTeacherId },
    });
    expect(added.status, added.raw).toBe(200);
    return { id: created.body.data._id as string, joinCode: created.body.data.joinCode as string };
  }
  /** The member a removal example named last (its check looks for them). */
  let lastMember = '';
  /** A fresh student who joined the class of `joinCode`: their account. */
  async function joinedAccount(joinCode: string) {
    const student = await signUpStudent(t, { class: `Matrix homeroom ${classCount}` });
    const joined = await t.call({
      method: 'POST',
      url: '/api/student/join-class',
      headers: bearer(student.token),
      payload: { classCode: joinCode },
    });
    expect(joined.status, joined.raw).toBe(200);
    return student;
  }
  const joinedStudent = async (joinCode: string) => (await joinedAccount(joinCode)).profile._id;
  /** A fresh class of teacher 1's with one student in it. */
  async function studentOfTeacher1Class() {
    const created = await teacher1Class();
    return { ...created, student: await joinedAccount(created.joinCode) };
  }
  let importedRows = 0;
  /** A class list of `count` students no one has yet, passwords to generate. */
  const classListCsv = (count: number) =>
    [
      'Name,Roll number,Email,Parent name,Parent email',
      ...Array.from({ length: count }, () => {
        importedRows += 1;
        const id = `imp${importedRows}-${Math.random().toString(36).slice(2, 8)}`;
        return `Imported ${id},${id},${id}@example.com,Parent ${id},parent-${id}@example.com`;
      }),
    ].join('\n');
  /** Reads the import until it has ended: its last answer. */
  async function importOutcome(caller: Caller, importId: string) {
    for (;;) {
      const status = await t.call({ method: 'GET', url: `/api/imports/${importId}`, headers: authOf(caller) });
      expect(status.status, status.raw).toBe(200);
      if (status.body.data.state === 'done' || status.body.data.state === 'failed') return status.body.data;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const teachesEach = (caller: Caller, body: any) =>
    everyItem(body, (entry) => entry.teachers.some((teacher: { _id: string }) => teacher._id === caller.id));

  return {
    'GET /api/health': { request: () => ({ url: '/api/health' }) },
    'GET /api/quote': { request: () => ({ url: '/api/quote' }) },
    'GET /api/openapi.json': { request: () => ({ url: '/api/openapi.json' }) },
    'GET /api/docs': { request: () => ({ url: '/api/docs' }) },
    'GET /api/docs/reference.css': { request: () => ({ url: '/api/docs/reference.css' }) },

    'POST /api/teacher/register': {
      status: 201,
      request: async (caller) => ({
        url: '/api/teacher/register',
        headers: authOf(caller),
        payload: buildTeacherRegistration(await inviteTeacher(t)),
      }),
    },

    // The school (decision 030): set up once, before the matrix ran: a second setup is a 409 for anyone.
    'GET /api/school': { request: (caller) => ({ url: '/api/school', headers: authOf(caller) }) },
    'POST /api/school/setup': {
      status: 409,
      request: (caller) => ({ url: '/api/school/setup', headers: authOf(caller), payload: buildSchoolSetup() }),
    },
    'POST /api/school/demo': {
      status: 409,
      request: (caller) => ({
        url: '/api/school/demo',
        headers: authOf(caller),
        payload: { setupCode: TEST_SETUP_CODE },
      }),
    },
    'POST /api/school/setup-code': {
      status: 409,
      request: (caller) => ({
        url: '/api/school/setup-code',
        headers: authOf(caller),
        payload: { setupCode: TEST_SETUP_CODE },
      }),
    },
    // The matrix's school has no demo: removing it removes nothing (decision 050).
    'DELETE /api/school/demo': {
      request: (caller) => ({ method: 'DELETE', url: '/api/school/demo', headers: authOf(caller) }),
    },
    'POST /api/school/rename': {
      request: (caller) => ({
        url: '/api/school/rename',
        headers: authOf(caller),
        payload: { name: `Matrix school ${caller.name}` },
      }),
    },
    'POST /api/school/language': {
      request: (caller) => ({ url: '/api/school/language', headers: authOf(caller), payload: { defaultLocale: 'ar' } }),
      check: (_caller, body) => expect(body.data).toMatchObject({ defaultLocale: 'ar' }),
    },
    'POST /api/school/time-zone': {
      request: (caller) => ({
        url: '/api/school/time-zone',
        headers: authOf(caller),
        payload: { timeZone: 'Europe/Madrid' },
      }),
      check: (_caller, body) => expect(body.data).toMatchObject({ timeZone: 'Europe/Madrid' }),
    },
    'POST /api/teacher/invitation': {
      request: async (caller) => ({
        url: '/api/teacher/invitation',
        headers: authOf(caller),
        payload: { invitation: await inviteTeacher(t) },
      }),
    },
    'GET /api/school/invitations': {
      request: (caller) => ({ url: '/api/school/invitations?limit=100', headers: authOf(caller) }),
    },
    'POST /api/school/invitations': {
      status: 201,
      request: (caller) => ({ url: '/api/school/invitations', headers: authOf(caller), payload: { note: 'Matrix' } }),
    },
    'POST /api/school/invitations/:id/revoke': {
      request: async (caller) => {
        const administrator = await schoolAdministrator(t);
        const created = await t.call({
          method: 'POST',
          url: '/api/school/invitations',
          headers: bearer(administrator.token),
          payload: {},
        });
        return { url: `/api/school/invitations/${created.body.data.invitation._id}/revoke`, headers: authOf(caller) };
      },
    },
    // Names only, for any teacher: never an email (the matrix's secrets say whose they are).
    'GET /api/school/colleagues': {
      request: (caller) => ({ url: '/api/school/colleagues', headers: authOf(caller) }),
      check: (caller, body) => expect(body.data.map((entry: { _id: string }) => entry._id)).toContain(caller.id),
    },
    'GET /api/school/teachers': {
      request: (caller) => ({ url: '/api/school/teachers?limit=100', headers: authOf(caller) }),
    },
    ...Object.fromEntries(
      STAFF_CHANGES.map((change): [string, RouteExample] => [
        `POST /api/school/teachers/:id/${change}`,
        {
          // A teacher of their own for each call: the school's callers keep their sessions and roles.
          request: async (caller) => {
            const teacher = await signUpTeacher(t, { subject: 'Staff changes' });
            return { url: `/api/school/teachers/${teacher.profile._id}/${change}`, headers: authOf(caller) };
          },
        },
      ]),
    ),
    // A class no teacher teaches, made for this route: only the administrator sees it and gives it a teacher.
    'GET /api/school/untaught-classes': {
      prepare: () => untaughtClass(t),
      request: (caller) => ({ url: '/api/school/untaught-classes?limit=100', headers: authOf(caller) }),
      check: (_caller, body, prepared: string) =>
        expect(body.data.map((entry: { _id: string }) => entry._id)).toContain(prepared),
    },
    'POST /api/school/untaught-classes/:id/teacher': {
      prepare: () => untaughtClass(t),
      request: (caller, prepared: string) => ({
        url: `/api/school/untaught-classes/${prepared}/teacher`,
        headers: authOf(caller),
        payload: { teacherId: caller.id ?? '00000000-0000-4000-8000-000000000000' },
      }),
    },
    'POST /api/student/register': {
      status: 201,
      prepare: () => classCodeNamed(t, CLASS_A),
      request: (caller, classCode) => ({
        url: '/api/student/register',
        headers: authOf(caller),
        payload: buildStudentRegistration({ classCode }),
      }),
    },
    'POST /api/teacher/login': {
      prepare: () => signUpTeacher(t),
      request: (caller, account) => ({
        url: '/api/teacher/login',
        headers: authOf(caller),
        payload: { email: account.registration.email, password: account.registration.password },
      }),
    },
    'POST /api/student/login': {
      prepare: () => signUpStudent(t, { class: CLASS_A }),
      request: (caller, account) => ({
        url: '/api/student/login',
        headers: authOf(caller),
        payload: { rollNumber: account.registration.rollNumber, password: account.registration.password },
      }),
    },
    // SPEC §7 sends nothing; ids in the body are ignored: the token says whose profile it is.
    'POST /api/teacher/get-teacher-by-id': {
      request: (caller) => ({
        url: '/api/teacher/get-teacher-by-id',
        headers: authOf(caller),
        payload: { _id: school.callers.teacher1.id, teacherID: school.callers.teacher1.id },
      }),
      check: (caller, body) => expect(body.data._id).toBe(caller.id),
    },
    'POST /api/student/get-student-by-id': {
      request: (caller) => ({
        url: '/api/student/get-student-by-id',
        headers: authOf(caller),
        payload: { _id: school.callers.studentA.id, studentID: school.callers.studentA.id },
      }),
      check: (caller, body) => expect(body.data._id).toBe(caller.id),
    },
    // Sessions (decision 017): accepted, they end the caller's sessions (see `endsSessions`).
    ...Object.fromEntries(
      (['teacher', 'student'] as const).flatMap((role): [string, RouteExample][] => [
        [
          `POST /api/${role}/change-password`,
          {
            endsSessions: true,
            request: (caller) => ({
              url: `/api/${role}/change-password`,
              headers: authOf(caller),
              payload: {
                currentPassword: caller.name === 'anonymous' ? 'not-signed-in' : school.passwords[caller.name],
                newPassword: 'a new password for the matrix',
              },
            }),
            // A fresh token (as login answers it) for the caller's own account.
            check: (caller, body) => expect(decodeJwt(body.data as string)).toMatchObject({ sub: caller.id }),
          },
        ],
        [
          `POST /api/${role}/logout-everywhere`,
          {
            endsSessions: true,
            request: (caller) => ({ url: `/api/${role}/logout-everywhere`, headers: authOf(caller), payload: {} }),
          },
        ],
        [
          `POST /api/${role}/language`,
          {
            request: (caller) => ({ url: `/api/${role}/language`, headers: authOf(caller), payload: { locale: 'es' } }),
            check: (_caller, body) => expect(body.data).toEqual({ locale: 'es' }),
          },
        ],
      ]),
    ),
    // Into a class teacher 1 teaches (and the co-teacher): another teacher's class is refused (decision 031).
    'POST /api/teacher/add-quiz': {
      status: 201,
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: '/api/teacher/add-quiz',
        headers: authOf(caller),
        payload: buildNewQuiz({ classId: created.id, createdBy: { _id: school.callers.teacher1.id } }),
      }),
      check: (caller, body) => expect(body.data.createdBy._id).toBe(caller.id),
    },
    'GET /api/get-all-quiz': {
      request: (caller) => ({ url: '/api/get-all-quiz?limit=100&offset=0', headers: authOf(caller) }),
      check: (caller, body) => {
        if (caller.role === 'teacher') everyItem(body, (quiz) => quiz.createdBy._id === caller.id);
        else everyItem(body, (quiz) => quiz.class === caller.className);
        if (caller.name === 'teacher1' || caller.name === 'studentA') {
          expect(body.data.map((quiz: { _id: string }) => quiz._id)).toContain(school.quiz1.id);
        }
      },
    },
    'GET /api/quiz/:id': {
      target: 'quiz',
      request: (caller) => ({ url: `/api/quiz/${school.quiz1.id}`, headers: authOf(caller) }),
      check: (_caller, body) => expect(body.data._id).toBe(school.quiz1.id),
    },
    'GET /api/quizzes/:id/export': {
      target: 'quiz',
      // A text/plain attachment: no envelope to check (export.test.ts reads it back).
      request: (caller) => ({ url: `/api/quizzes/${school.quiz1.id}/export?format=gift`, headers: authOf(caller) }),
    },
    'POST /api/quiz/:id/start': {
      target: 'quiz',
      prepare: () => school.addQuiz('teacher1'),
      request: (caller, quiz) => ({ url: `/api/quiz/${quiz.id}/start`, headers: authOf(caller), payload: {} }),
      check: (_caller, body) => expect(body.data.attempt.status).toBe('in-progress'),
    },
    'PUT /api/quiz/:id/answers': {
      target: 'quiz',
      prepare: async () => {
        const quiz = await school.addQuiz('teacher1');
        return { quiz, started: await school.startQuiz('studentA', quiz.id) };
      },
      request: (caller, { quiz, started }) => ({
        url: `/api/quiz/${quiz.id}/answers`,
        headers: authOf(caller),
        payload: { answers: answerOfEveryType(started.quiz.questions) },
      }),
    },
    // Accommodations (decision 036): teacher 1's quiz, for student A of its class.
    'GET /api/quiz/:id/accommodations': {
      target: 'quiz',
      prepare: async () => {
        const quiz = await school.addQuiz('teacher1');
        await t.database.db
          .insert(quizAccommodations)
          .values({ quizId: quiz.id, studentId: school.callers.studentA.id!, extraMinutes: 5 });
        return quiz;
      },
      request: (caller, quiz) => ({ url: `/api/quiz/${quiz.id}/accommodations`, headers: authOf(caller) }),
      check: (_caller, body) =>
        expect(body.data.map((entry: { student: { _id: string } }) => entry.student._id)).toEqual([
          school.callers.studentA.id,
        ]),
    },
    'PUT /api/quiz/:id/accommodations/:studentId': {
      target: 'quiz',
      prepare: () => school.addQuiz('teacher1'),
      request: (caller, quiz) => ({
        url: `/api/quiz/${quiz.id}/accommodations/${school.callers.studentA.id}`,
        headers: authOf(caller),
        payload: { extraMinutes: 5, extraPercent: 50 },
      }),
      check: (_caller, body) => expect(body.data.effectiveMaxTime).toBeGreaterThan(5),
    },
    'DELETE /api/quiz/:id/accommodations/:studentId': {
      target: 'quiz',
      prepare: () => school.addQuiz('teacher1'),
      // Each accepted caller removes one that exists (teacher 1, then the co-teacher).
      request: async (caller, quiz) => {
        await t.database.db
          .insert(quizAccommodations)
          .values({ quizId: quiz.id, studentId: school.callers.studentA.id!, extraMinutes: 5 })
          .onConflictDoNothing();
        return { url: `/api/quiz/${quiz.id}/accommodations/${school.callers.studentA.id}`, headers: authOf(caller) };
      },
    },
    // Marking essays (decision 046): student A's essay on teacher 1's quiz, submitted.
    'GET /api/quiz/:id/essays': {
      target: 'quiz',
      prepare: () => submittedEssay(),
      request: (caller, { quiz }) => ({ url: `/api/quiz/${quiz.id}/essays`, headers: authOf(caller) }),
      check: (_caller, body) =>
        expect(body.data.map((essay: { student: { _id: string } }) => essay.student._id)).toEqual([
          school.callers.studentA.id,
        ]),
    },
    'PUT /api/quiz/:id/essays/:attemptId/:questionId': {
      target: 'quiz',
      prepare: () => submittedEssay(),
      // Each accepted caller marks the essay as it stands (teacher 1, then the co-teacher).
      request: async (caller, { quiz, attemptId, questionId }) => {
        const [essay] = await t.database.db
          .select({ version: quizEssayMarks.version })
          .from(quizEssayMarks)
          .where(eq(quizEssayMarks.attemptId, attemptId));
        return {
          url: `/api/quiz/${quiz.id}/essays/${attemptId}/${questionId}`,
          headers: authOf(caller),
          payload: { points: 1.5, comment: 'Clear.', version: essay?.version ?? 0 },
        };
      },
      check: (_caller, body) => expect(body.data.mark.points).toBe(1.5),
    },
    // update-student names its quiz in the body (SPEC §7).
    'POST /api/student/update-student': {
      target: 'quiz',
      prepare: async () => {
        const quiz = await school.addQuiz('teacher1');
        return { quiz, started: await school.startQuiz('studentA', quiz.id) };
      },
      request: (caller, { quiz, started }) => ({
        url: '/api/student/update-student',
        headers: authOf(caller),
        payload: {
          quiz: {
            _id: quiz.id,
            // SPEC §7's shape names choices only: the typed questions go unanswered.
            questions: started.quiz.questions
              .filter((question: QuizQuestion) => question.type === 'single')
              .map((question: QuizQuestion) => ({ _id: question._id, selectedOption: question.options![0]!._id })),
          },
          score: 100,
          user: { _id: school.callers.studentA.id },
        },
      }),
      check: (_caller, body) => expect(body.data.attempt.status).toBe('submitted'),
    },

    // A quiz's life after publishing (decision 036): teacher 1's own quiz, fresh each time.
    'PUT /api/quizzes/:id': {
      target: 'quiz',
      prepare: async () => {
        const quiz = await school.addQuiz('teacher1');
        const read = await t.call({
          method: 'GET',
          url: `/api/quiz/${quiz.id}`,
          headers: authOf(school.callers.teacher1),
        });
        return { quiz, body: { ...editBodyOf(read.body.data), title: `${quiz.title} edited` } };
      },
      request: (caller, { quiz, body }) => ({ url: `/api/quizzes/${quiz.id}`, headers: authOf(caller), payload: body }),
      check: (_caller, body, { quiz }) => expect(body.data.quiz.title).toBe(`${quiz.title} edited`),
    },
    'POST /api/quizzes/:id/duplicate': {
      status: 201,
      target: 'quiz',
      prepare: () => school.addQuiz('teacher1'),
      request: async (caller, quiz) => {
        const read = await t.call({
          method: 'GET',
          url: `/api/quiz/${quiz.id}`,
          headers: authOf(school.callers.teacher1),
        });
        return {
          url: `/api/quizzes/${quiz.id}/duplicate`,
          headers: authOf(caller),
          payload: { classId: read.body.data.classId, deadline: new Date(Date.now() + 86_400_000).toISOString() },
        };
      },
      check: (caller, body) => expect(body.data.createdBy._id).toBe(caller.id),
    },
    'DELETE /api/quizzes/:id': {
      target: 'quiz',
      prepare: () => school.addQuiz('teacher1'),
      request: (caller, quiz) => ({ url: `/api/quizzes/${quiz.id}`, headers: authOf(caller) }),
      check: (_caller, body) => expect(body.data).toEqual({ outcome: 'deleted' }),
    },

    // The leaderboard of class A: teachers see every class; a student only their own.
    'GET /api/get-students': {
      target: 'class',
      request: (caller) => ({
        url: `/api/get-students?classId=${school.classAId}&search=Student&offset=0&limit=50`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => {
        everyItem(body, (entry) => entry.class === CLASS_A);
        expect(body.data.length).toBeGreaterThan(0);
        // Ranking fields only: no email, roll number or parent contact on any leaderboard.
        expect(JSON.stringify(body.data)).not.toMatch(/@|rollNumber|parent/);
      },
    },
    'GET /api/student/statistics': {
      request: (caller) => ({ url: '/api/student/statistics', headers: authOf(caller) }),
    },
    // The students of the caller's classes only; the secrets check holds their contact details to it.
    'GET /api/teacher/students': {
      request: (caller) => ({ url: '/api/teacher/students?offset=0&limit=100', headers: authOf(caller) }),
      check: (caller, body) => {
        const ids = body.data.map((entry: { _id: string }) => entry._id);
        if (caller.name === 'teacher1' || caller.name === 'coTeacher')
          expect(ids).toContain(school.callers.studentA.id);
        if (caller.name === 'teacher2') expect(ids).toContain(school.callers.studentB.id);
        if (caller.name === 'administrator') expect(ids).toEqual([]);
      },
    },
    'GET /api/teacher/classes': {
      request: (caller) => ({ url: '/api/teacher/classes', headers: authOf(caller) }),
      check: (caller, body) => {
        if (caller.name === 'teacher1' || caller.name === 'coTeacher') expect(body.data).toContain(CLASS_A);
        expect(body.data).not.toContain(caller.name === 'teacher2' ? CLASS_A : CLASS_B);
      },
    },
    // A teacher's changes to a student (decision 033): only the teachers of one of the student's
    // classes (teacher 1 and the co-teacher here) may make them (issue 19 point 8).
    'PATCH /api/teacher/students/:id': {
      target: 'class-record',
      prepare: studentOfTeacher1Class,
      request: (caller, { student }) => {
        const { name, rollNumber, email, parentName, parentEmail } = student.registration;
        return {
          url: `/api/teacher/students/${student.profile._id}`,
          headers: authOf(caller),
          payload: { name: `${name} Edited`, rollNumber, email, parentName, parentEmail },
        };
      },
      check: (_caller, body, { student }) => {
        expect(body.data._id).toBe(student.profile._id);
        expect(body.data.name).toMatch(/ Edited$/);
      },
    },
    'POST /api/teacher/students/:id/reset-password': {
      target: 'class-record',
      prepare: studentOfTeacher1Class,
      request: (caller, { student }) => ({
        url: `/api/teacher/students/${student.profile._id}/reset-password`,
        headers: authOf(caller),
        payload: {},
      }),
      check: (_caller, body) => expect(body.data.temporaryPassword).toMatch(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/),
    },

    // Classes as records (decision 031): each route on a fresh class only teacher 1 teaches.
    'GET /api/classes': {
      request: (caller) => ({ url: '/api/classes', headers: authOf(caller) }),
      check: teachesEach,
    },
    'POST /api/classes': {
      status: 201,
      request: (caller) => ({
        url: '/api/classes',
        headers: authOf(caller),
        payload: { name: `Created by ${caller.name} ${Math.random().toString(36).slice(2, 8)}`, subject: 'Art' },
      }),
      check: (caller, body) =>
        expect(body.data.teachers).toEqual([{ _id: caller.id, name: expect.any(String), isOwner: true }]),
    },
    'PATCH /api/classes/:id': {
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: `/api/classes/${created.id}`,
        headers: authOf(caller),
        payload: { subject: `Changed by ${caller.name}` },
      }),
    },
    ...Object.fromEntries(
      ['archive', 'unarchive', 'rotate-code', 'turn-off-code'].map((change): [string, RouteExample] => [
        `POST /api/classes/:id/${change}`,
        {
          target: 'class-record',
          prepare: teacher1Class,
          request: (caller, created) => ({ url: `/api/classes/${created.id}/${change}`, headers: authOf(caller) }),
        },
      ]),
    ),
    'POST /api/classes/:id/teachers': {
      target: 'class-record',
      prepare: async () => ({ ...(await teacher1Class()), colleague: await signUpTeacher(t, { subject: 'Drama' }) }),
      request: (caller, prepared) => ({
        url: `/api/classes/${prepared.id}/teachers`,
        headers: authOf(caller),
        payload: { teacherId: prepared.colleague.profile._id },
      }),
    },
    'POST /api/classes/:id/students': {
      status: 201,
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => {
        const { classCode: _none, ...registration } = buildStudentRegistration();
        return { url: `/api/classes/${created.id}/students`, headers: authOf(caller), payload: registration };
      },
      check: (_caller, body) => expect(body.data.email).toContain('@'),
    },
    // Each caller removes a member of their own (two callers are accepted: teacher 1 and the co-teacher).
    'DELETE /api/classes/:id/teachers/:memberId': {
      target: 'class-record',
      prepare: teacher1Class,
      request: async (caller, created) => {
        const colleague = await signUpTeacher(t, { subject: 'Drama' });
        lastMember = colleague.profile._id;
        const added = await t.call({
          method: 'POST',
          url: `/api/classes/${created.id}/teachers`,
          headers: authOf(school.callers.teacher1),
          payload: { teacherId: colleague.profile._id },
        });
        expect(added.status, added.raw).toBe(200);
        // The owner removes another teacher; a co-teacher may only leave (decision 031).
        if (caller.id === school.coTeacherId) lastMember = caller.id;
        return { url: `/api/classes/${created.id}/teachers/${lastMember}`, headers: authOf(caller) };
      },
      check: (caller, body) => {
        const ids = body.data.teachers.map((teacher: { _id: string }) => teacher._id);
        if (lastMember !== caller.id) expect(ids).toContain(caller.id);
        expect(ids).not.toContain(lastMember);
      },
    },
    'GET /api/classes/:id/students': {
      target: 'class-record',
      prepare: async () => {
        const created = await teacher1Class();
        return { ...created, studentId: await joinedStudent(created.joinCode) };
      },
      request: (caller, prepared) => ({ url: `/api/classes/${prepared.id}/students`, headers: authOf(caller) }),
      check: (_caller, body, prepared) =>
        expect(body.data.map((entry: { _id: string }) => entry._id)).toEqual([prepared.studentId]),
    },
    'DELETE /api/classes/:id/students/:memberId': {
      target: 'class-record',
      prepare: teacher1Class,
      request: async (caller, created) => {
        lastMember = await joinedStudent(created.joinCode);
        return { url: `/api/classes/${created.id}/students/${lastMember}`, headers: authOf(caller) };
      },
      check: (_caller, body) => expect(body.data.map((entry: { _id: string }) => entry._id)).not.toContain(lastMember),
    },
    // Class lists from CSV (decision 034): a fresh class, rows no one has yet.
    'POST /api/classes/:id/import/check': {
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: `/api/classes/${created.id}/import/check`,
        headers: authOf(caller),
        payload: { csv: classListCsv(2) },
      }),
      check: (_caller, body) => expect(body.data.rowsWithProblems).toBe(0),
    },
    'POST /api/classes/:id/import': {
      status: 202,
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: `/api/classes/${created.id}/import`,
        headers: authOf(caller),
        payload: { csv: classListCsv(2) },
      }),
      // The import ends before the next call, so its rows never land in another route's snapshot.
      check: async (caller, body) => expect((await importOutcome(caller, body.data.importId)).state).toBe('done'),
    },
    'GET /api/imports/:id': {
      target: 'class-record',
      prepare: async () => {
        const created = await teacher1Class();
        const started = await t.call({
          method: 'POST',
          url: `/api/classes/${created.id}/import`,
          headers: authOf(school.callers.teacher1),
          payload: { csv: classListCsv(1) },
        });
        expect(started.status, started.raw).toBe(202);
        await importOutcome(school.callers.teacher1, started.body.data.importId);
        return { importId: started.body.data.importId as string };
      },
      request: (caller, prepared) => ({ url: `/api/imports/${prepared.importId}`, headers: authOf(caller) }),
      // The passwords were answered once, to the read that saw it done.
      check: (_caller, body) => expect(body.data).toEqual({ state: 'done', done: 1, total: 1, imported: 1 }),
    },
    // Each caller moves a student of their own from one class record of teacher 1 to another.
    'POST /api/classes/:id/students/:memberId/move': {
      target: 'class-record',
      prepare: async () => ({ from: await teacher1Class(), to: await teacher1Class() }),
      request: async (caller, { from, to }) => {
        lastMember = await joinedStudent(from.joinCode);
        return {
          url: `/api/classes/${from.id}/students/${lastMember}/move`,
          headers: authOf(caller),
          payload: { toClassId: to.id },
        };
      },
      check: (_caller, body) => expect(body.data._id).toBe(lastMember),
    },
    'GET /api/student/classes': {
      request: (caller) => ({ url: '/api/student/classes', headers: authOf(caller) }),
      // A student's classes carry names only: never a join code or a roster.
      check: (caller, body) => {
        const names = body.data.map((entry: { name: string }) => entry.name);
        // The removed student is in no class: class A is gone from their list.
        if (caller.className === null) expect(names).not.toContain(CLASS_A);
        else expect(names).toContain(caller.className);
        expect(JSON.stringify(body.data)).not.toMatch(/joinCode|teachers|@/);
      },
    },
    'POST /api/student/join-class': {
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: '/api/student/join-class',
        headers: authOf(caller),
        payload: { classCode: created.joinCode.toLowerCase().replace('-', '') },
      }),
      check: async (caller, body, created) => {
        expect(body.data.map((entry: { _id: string }) => entry._id)).toContain(created.id);
        // The student leaves again, so teacher 1 does not become a teacher of every student of
        // the school (whose contact details only their classes' teachers may receive).
        const left = await t.call({
          method: 'DELETE',
          url: `/api/classes/${created.id}/students/${caller.id}`,
          headers: authOf(school.callers.teacher1),
        });
        expect(left.status, left.raw).toBe(200);
      },
    },

    'GET /api/tasks': {
      request: (caller) => ({ url: '/api/tasks', headers: authOf(caller) }),
    },
    // teacherID / studentID name another account's list (SPEC §7): the token decides whose list changes.
    'POST /api/teacher/update-task': {
      request: async (caller) => ({
        url: '/api/teacher/update-task',
        headers: authOf(caller),
        payload: {
          teacherID: school.callers.teacher1.id,
          tasks: [{ id: 'matrix001', text: `Matrix task of ${caller.name}`, isCompleted: false }],
          version: await taskVersion(caller),
        },
      }),
    },
    'POST /api/student/update-task': {
      request: async (caller) => ({
        url: '/api/student/update-task',
        headers: authOf(caller),
        payload: {
          studentID: school.callers.studentA.id,
          tasks: [{ id: 'matrix001', text: `Matrix task of ${caller.name}`, isCompleted: false }],
          version: await taskVersion(caller),
        },
      }),
    },

    // The bell (decision 059): the caller's own notifications, whoever a query names. Class A's
    // student was told of teacher 1's quizzes; the student removed from class A reads nothing of it.
    'GET /api/notifications': {
      request: (caller) => ({
        url: `/api/notifications?offset=0&limit=50&recipientId=${school.callers.studentA.id}`,
        headers: authOf(caller),
      }),
      check: (caller, body) => {
        // A quiz's notice names the caller's class; the assignments' notices (decision 061) are
        // the caller's by the recipient column, which the foreign-secrets check above covers.
        everyItem(body, (item) => item.kind !== 'QUIZ_PUBLISHED' || item.params.className === caller.className);
        if (caller.name === 'studentA') expect(body.data.length).toBeGreaterThan(0);
      },
    },
    'GET /api/notifications/unread-count': {
      request: (caller) => ({ url: '/api/notifications/unread-count', headers: authOf(caller) }),
    },
    'POST /api/notifications/read': {
      request: (caller) => ({
        url: '/api/notifications/read',
        headers: authOf(caller),
        payload: { through: new Date().toISOString() },
      }),
      check: (_caller, body) => expect(body.data).toEqual({ unread: 0 }),
    },

    // Each caller opens a room for a class record of teacher 1's (taught by the co-teacher too).
    'POST /api/meetings': {
      status: 201,
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: '/api/meetings',
        headers: authOf(caller),
        payload: { classId: created.id },
      }),
      check: (caller, body, created) =>
        expect(body.data).toMatchObject({ class: { _id: created.id }, createdBy: { _id: caller.id } }),
    },
    // The rooms of the caller's own classes only: class A's room to its teachers and its student.
    'GET /api/meetings': {
      request: (caller) => ({ url: '/api/meetings', headers: authOf(caller) }),
      check: (caller, body) => {
        const rooms = (body.data as { roomId: string; class: { name: string } }[]).map((room) => room.roomId);
        const ofClassA = ['teacher1', 'coTeacher'].includes(caller.name) || caller.className === CLASS_A;
        if (ofClassA) expect(rooms).toContain(school.meetingRoom);
        else expect(rooms).not.toContain(school.meetingRoom);
        if (caller.role === 'student') everyItem(body, (room) => room.class.name === caller.className);
      },
    },
    'POST /api/meetings/:roomId/token': {
      target: 'class-meeting',
      request: (caller) => ({ url: `/api/meetings/${school.meetingRoom}/token`, headers: authOf(caller) }),
    },
    // Without an upgrade: the socket itself is checked below (meeting tokens).
    'GET /api/meetings/ws': {
      status: 426,
      request: (caller) => ({ url: '/api/meetings/ws', headers: authOf(caller) }),
    },

    'POST /api/quizzes/images': {
      status: 201,
      request: (caller) => {
        const form = multipartBody({}, [{ name: 'figure.png', content: SAMPLE_FILES.png(), contentType: 'image/png' }]);
        return { url: '/api/quizzes/images', headers: { ...form.headers, ...authOf(caller) }, payload: form.payload };
      },
      check: (_caller, body) => expect(body.data.fileKey).toMatch(/^[A-Za-z0-9_-]{24}$/),
    },
    // No session: those who see teacher 1's quiz hold a link signed for them; the others present
    // a link signed for them for another image, with this image's key in it; anonymous, none.
    'GET /api/quizzes/images/:fileKey': {
      target: 'quiz',
      prepare: async () => ({
        fileKey: await uploadQuizImage(school.callers.teacher1),
        otherKey: await uploadQuizImage(school.callers.teacher2),
      }),
      request: (caller, images: { fileKey: string; otherKey: string }) => {
        if (!caller.id) return { url: `/api/quizzes/images/${images.fileKey}` };
        const holdsLink = caller.name === 'teacher1' || caller.className === CLASS_A;
        if (holdsLink) return { url: quizImageLink(images.fileKey, caller.id) };
        return { url: quizImageLink(images.otherKey, caller.id).replace(images.otherKey, images.fileKey) };
      },
    },

    'GET /api/get-resources': {
      request: (caller) => ({
        url: '/api/get-resources?sortBy=fileName&sortOrder=asc&starred=false&offset=0&limit=100',
        headers: authOf(caller),
      }),
      check: (caller, body) => {
        if (caller.role === 'teacher') everyItem(body, (resource) => resource.uploadedBy._id === caller.id);
        else everyItem(body, (resource) => resource.class === caller.className);
        if (caller.name === 'teacher1' || caller.name === 'studentA') {
          expect(body.data.map((resource: { _id: string }) => resource._id)).toContain(school.resource1.id);
        }
      },
    },
    'GET /api/teacher/upload-limits': {
      request: (caller) => ({ url: '/api/teacher/upload-limits', headers: authOf(caller) }),
    },
    // uploadedBy in the form names teacher 1 (SPEC §7): the token decides the uploader.
    'POST /api/teacher/upload-resource': {
      status: 201,
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => {
        const form = multipartBody(
          {
            classId: created.id,
            subject: 'Geometry',
            fileName: 'Matrix notes.pdf',
            description: 'Notes for the matrix',
            tags: 'matrix, notes',
            uploadedBy: JSON.stringify({ _id: school.callers.teacher1.id }),
          },
          [{ name: 'matrix.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' }],
        );
        return {
          url: '/api/teacher/upload-resource',
          headers: { ...form.headers, ...authOf(caller) },
          payload: form.payload,
        };
      },
      check: (caller, body) => expect(body.data.uploadedBy._id).toBe(caller.id),
    },
    'POST /api/teacher/add-resource-link': {
      status: 201,
      target: 'class-record',
      prepare: teacher1Class,
      request: (caller, created) => ({
        url: '/api/teacher/add-resource-link',
        headers: authOf(caller),
        payload: {
          url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
          fileName: 'Matrix video',
          classId: created.id,
          subject: 'Geometry',
          description: 'A video for the matrix',
          tags: ['matrix', 'video'],
          uploadedBy: { _id: school.callers.teacher1.id },
        },
      }),
      check: (caller, body) => expect(body.data.uploadedBy._id).toBe(caller.id),
    },
    'PATCH /api/teacher/resources/:id': {
      target: 'resource',
      prepare: () => school.addResource('teacher1'),
      request: (caller, resource: ResourceFixture) => ({
        url: `/api/teacher/resources/${resource.id}`,
        headers: authOf(caller),
        payload: { description: `Changed by ${caller.name}`, fileName: 'Renamed notes.pdf', tags: 'changed' },
      }),
    },
    'DELETE /api/teacher/resources/:id': {
      target: 'resource',
      prepare: () => school.addResource('teacher1'),
      request: (caller, resource: ResourceFixture) => ({
        url: `/api/teacher/resources/${resource.id}`,
        headers: authOf(caller),
      }),
    },
    // studentId in the body names student A (SPEC §7): the token decides who stars.
    'POST /api/resources/:id/star': {
      target: 'resource',
      prepare: () => school.addResource('teacher1'),
      request: (caller, resource: ResourceFixture) => ({
        url: `/api/resources/${resource.id}/star`,
        headers: authOf(caller),
        payload: { action: 'star', studentId: school.callers.studentA.id },
      }),
      check: (caller, body) => expect(body.data.starredBy).toEqual([caller.id]),
    },
    // No session here: each caller presents the link signed for them; those who cannot list
    // this file present their own file's link with this file's id in it.
    // ---- Assignments and hand-ins (decision 058) ------------------------------------------
    'POST /api/assignments': {
      status: 201,
      target: 'class-record',
      request: (caller) => ({ url: '/api/assignments', headers: authOf(caller), payload: assignmentBody() }),
      check: (caller, body) => expect(body.data.createdBy._id).toBe(caller.id),
    },
    'PUT /api/assignments/:id': {
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}`,
        headers: authOf(caller),
        payload: { ...assignmentBody(), title: 'Matrix homework, edited', version: 1 },
      }),
      check: (_caller, body) => expect(body.data).toMatchObject({ title: 'Matrix homework, edited', version: 2 }),
    },
    'POST /api/assignments/:id/duplicate': {
      status: 201,
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/duplicate`,
        headers: authOf(caller),
        payload: { classIds: [school.classAId] },
      }),
    },
    'DELETE /api/assignments/:id': {
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({ url: `/api/assignments/${id}`, headers: authOf(caller) }),
      check: (_caller, body) => expect(body.data).toEqual({ outcome: 'deleted' }),
    },
    'GET /api/assignments/:id': {
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({ url: `/api/assignments/${id}`, headers: authOf(caller) }),
    },
    'GET /api/classes/:id/assignments': {
      target: 'class-record',
      prepare: addAssignment,
      request: (caller) => ({ url: `/api/classes/${school.classAId}/assignments`, headers: authOf(caller) }),
      check: (_caller, body, id: string) => expect(body.data.map((item: any) => item._id)).toContain(id),
    },
    'GET /api/assignments/:id/hand-ins': {
      target: 'assignment',
      prepare: () => handedInAssignment(),
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/hand-ins?classId=${school.classAId}`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data.map((row: any) => row.state)).toContain('handed-in'),
    },
    'GET /api/assignments/:id/hand-ins/:studentId': {
      target: 'assignment',
      prepare: () => handedInAssignment(),
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data.text).toBe('My matrix work'),
    },
    'PUT /api/assignments/:id/hand-ins/:studentId/grade': {
      target: 'assignment',
      prepare: () => handedInAssignment(),
      request: async (caller, id: string) => ({
        url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}/grade`,
        headers: authOf(caller),
        payload: { points: 9, feedback: 'Good', version: await handInVersion(id) },
      }),
      check: (_caller, body) => expect(body.data).toMatchObject({ state: 'graded', points: 9 }),
    },
    'POST /api/assignments/:id/hand-ins/:studentId/return': {
      target: 'assignment',
      prepare: () => handedInAssignment(true),
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}/return`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data.state).toBe('returned'),
    },
    'POST /api/assignments/:id/return-all': {
      target: 'assignment',
      prepare: () => handedInAssignment(true),
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/return-all`,
        headers: authOf(caller),
        payload: {},
      }),
    },
    'GET /api/classes/:id/gradebook/columns': {
      target: 'class-record',
      prepare: () => handedInAssignment(true),
      request: (caller) => ({ url: `/api/classes/${school.classAId}/gradebook/columns`, headers: authOf(caller) }),
      check: (_caller, body, id: string) => expect(body.data.items.map((item: any) => item._id)).toContain(id),
    },
    'GET /api/classes/:id/gradebook': {
      target: 'class-record',
      prepare: () => handedInAssignment(true),
      request: (caller) => ({
        url: `/api/classes/${school.classAId}/gradebook?sort=average&order=desc&missing=false`,
        headers: authOf(caller),
      }),
      check: (_caller, body) =>
        expect(body.data.flatMap((row: any) => row.cells.map((cell: any) => cell.state))).toContain('unreleased'),
    },
    'GET /api/student/classes/:id/grades': {
      target: 'class-record',
      prepare: () => handedInAssignment(true),
      request: (caller) => ({ url: `/api/student/classes/${school.classAId}/grades`, headers: authOf(caller) }),
      // Graded, not returned: the student sees it handed in, without its points.
      check: (_caller, body, id: string) =>
        expect(body.data.grades.find((grade: any) => grade.item._id === id).cell).toEqual({
          state: 'to-grade',
          points: null,
          late: false,
        }),
    },
    'GET /api/student/assignments': {
      request: (caller) => ({ url: '/api/student/assignments?group=todo', headers: authOf(caller) }),
    },
    'GET /api/student/assignments/:id': {
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({ url: `/api/student/assignments/${id}`, headers: authOf(caller) }),
      check: (_caller, body) => expect(body.data.group).toBe('todo'),
    },
    'PUT /api/student/assignments/:id/draft': {
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({
        url: `/api/student/assignments/${id}/draft`,
        headers: authOf(caller),
        payload: { text: 'A first draft', version: 0 },
      }),
      check: (_caller, body) => expect(body.data.handIn).toMatchObject({ state: 'draft', version: 1 }),
    },
    'POST /api/student/assignments/:id/hand-in': {
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({
        url: `/api/student/assignments/${id}/hand-in`,
        headers: authOf(caller),
        payload: { text: 'Done', version: 0 },
      }),
      check: (_caller, body) => expect(body.data.handIn).toMatchObject({ state: 'handed-in', late: false }),
    },
    'POST /api/student/assignments/:id/take-back': {
      target: 'assignment',
      prepare: () => handedInAssignment(),
      request: (caller, id: string) => ({
        url: `/api/student/assignments/${id}/take-back`,
        headers: authOf(caller),
        payload: { version: 1 },
      }),
      check: (_caller, body) => expect(body.data.handIn.state).toBe('draft'),
    },
    // ---- Hand-in files, attachments, the private thread (decision 061) ---------------------
    'POST /api/student/assignments/:id/files': {
      status: 201,
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => {
        const form = multipartBody({}, [{ name: 'photo.png', content: SAMPLE_FILES.png(), contentType: 'image/png' }]);
        return {
          url: `/api/student/assignments/${id}/files`,
          headers: { ...form.headers, ...authOf(caller) },
          payload: form.payload,
        };
      },
      check: (_caller, body) => expect(body.data).toMatchObject({ file: { mimeType: 'image/png' }, version: 1 }),
    },
    'GET /api/student/assignments/:id/files': {
      target: 'assignment',
      prepare: () => handInWithFile(false),
      request: (caller, prepared: { id: string }) => ({
        url: `/api/student/assignments/${prepared.id}/files`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data).toHaveLength(1),
    },
    'DELETE /api/student/assignments/:id/files/:fileId': {
      target: 'assignment',
      prepare: () => handInWithFile(false),
      request: (caller, prepared: { id: string; fileId: string }) => ({
        url: `/api/student/assignments/${prepared.id}/files/${prepared.fileId}`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data.version).toBe(2),
    },
    'GET /api/assignments/:id/hand-ins/:studentId/files': {
      target: 'assignment',
      prepare: () => handInWithFile(true),
      request: (caller, prepared: { id: string }) => ({
        url: `/api/assignments/${prepared.id}/hand-ins/${school.callers.studentA.id}/files`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data).toHaveLength(1),
    },
    'GET /api/hand-in-files/:id': {
      target: 'assignment',
      prepare: () => handInWithFile(true),
      request: (caller, prepared: { fileId: string }) => ({
        url: caller.id ? fileLinks.handInFileUrl(prepared.fileId, caller.id) : `/api/hand-in-files/${prepared.fileId}`,
      }),
    },
    'GET /api/assignments/:id/attachments/:resourceId/file': {
      target: 'assignment',
      prepare: assignmentWithAttachment,
      request: (caller, prepared: { id: string; resourceId: string }) => ({
        url: attachmentFileUrl(
          prepared.id,
          prepared.resourceId,
          caller.id ? fileLinks.signAttachment(caller.id)(prepared.id, prepared.resourceId) : '',
        ),
      }),
    },
    'GET /api/student/assignments/:id/comments': {
      target: 'assignment',
      prepare: async () => {
        const id = await handedInAssignment();
        await t.call({
          method: 'POST',
          url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}/comments`,
          headers: authOf(school.callers.teacher1),
          payload: { text: 'Where is your source?' },
        });
        return id;
      },
      request: (caller, id: string) => ({ url: `/api/student/assignments/${id}/comments`, headers: authOf(caller) }),
      check: (_caller, body) => expect(body.data).toMatchObject([{ text: 'Where is your source?', mine: false }]),
    },
    'POST /api/student/assignments/:id/comments': {
      status: 201,
      target: 'assignment',
      prepare: addAssignment,
      request: (caller, id: string) => ({
        url: `/api/student/assignments/${id}/comments`,
        headers: authOf(caller),
        payload: { text: 'May I hand in a photo?' },
      }),
      check: (_caller, body) => expect(body.data).toMatchObject({ mine: true, author: { role: 'student' } }),
    },
    'GET /api/assignments/:id/hand-ins/:studentId/comments': {
      target: 'assignment',
      prepare: () => handedInAssignment(),
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}/comments`,
        headers: authOf(caller),
      }),
      check: (_caller, body) => expect(body.data).toEqual([]),
    },
    'POST /api/assignments/:id/hand-ins/:studentId/comments': {
      status: 201,
      target: 'assignment',
      prepare: () => handedInAssignment(),
      request: (caller, id: string) => ({
        url: `/api/assignments/${id}/hand-ins/${school.callers.studentA.id}/comments`,
        headers: authOf(caller),
        payload: { text: 'Cite your source, please.' },
      }),
      check: (_caller, body) => expect(body.data).toMatchObject({ mine: true, author: { role: 'teacher' } }),
    },
    // ---- Live games (decision 066) ----------------------------------------------------------
    'POST /api/live-games': {
      status: 201,
      target: 'quiz',
      request: (caller) => ({
        url: '/api/live-games',
        headers: authOf(caller),
        payload: { quizId: school.quiz1.id, classId: school.classAId },
      }),
      check: (_caller, body) =>
        expect(body.data).toMatchObject({ state: 'lobby', pin: expect.stringMatching(/^\d{6}$/) }),
    },
    'GET /api/live-games': {
      prepare: liveGame,
      request: (caller) => ({ url: '/api/live-games', headers: authOf(caller) }),
      // Class A's teachers list its game; no other teacher does.
      check: (caller, body, game: LiveGameFixture) =>
        expect(body.data.some((item: any) => item._id === game.id)).toBe(
          caller.name === 'teacher1' || caller.name === 'coTeacher',
        ),
    },
    'GET /api/live-games/:id': {
      target: 'live-game',
      prepare: liveGame,
      request: (caller, game: LiveGameFixture) => ({ url: `/api/live-games/${game.id}`, headers: authOf(caller) }),
      check: (_caller, body, game: LiveGameFixture) => expect(body.data.pin).toBe(game.pin),
    },
    'PUT /api/live-games/:id/leaderboard': {
      target: 'live-game',
      prepare: liveGame,
      request: (caller, game: LiveGameFixture) => ({
        url: `/api/live-games/${game.id}/leaderboard`,
        headers: authOf(caller),
        payload: { countsTowardLeaderboard: true },
      }),
      check: (_caller, body) => expect(body.data.countsTowardLeaderboard).toBe(true),
    },
    'GET /api/student/live-games': {
      prepare: liveGame,
      request: (caller) => ({ url: '/api/student/live-games', headers: authOf(caller) }),
      check: (caller, body, game: LiveGameFixture) =>
        expect(body.data.some((item: any) => item._id === game.id)).toBe(caller.className === CLASS_A),
    },
    'GET /api/student/live-games/pin/:pin': {
      target: 'live-game',
      // Another class's student is told what an unknown PIN tells (decision 066).
      unreachedStatus: 404,
      prepare: liveGame,
      request: (caller, game: LiveGameFixture) => ({
        url: `/api/student/live-games/pin/${game.pin}`,
        headers: authOf(caller),
      }),
      check: (_caller, body, game: LiveGameFixture) => expect(body.data._id).toBe(game.id),
    },
    'POST /api/live-games/:id/token': {
      target: 'live-game',
      // Anyone outside the game's class is told what an unknown game tells (decision 066).
      unreachedStatus: 404,
      prepare: liveGame,
      request: (caller, game: LiveGameFixture) => ({
        url: `/api/live-games/${game.id}/token`,
        headers: authOf(caller),
      }),
      check: (caller, body, game: LiveGameFixture) =>
        expect(body.data).toMatchObject({ gameId: game.id, host: caller.role === 'teacher' }),
    },
    'POST /api/class-boards/:classId/token': {
      target: 'class-record',
      // Anyone outside the class is told what an unknown class tells (decision 069).
      unreachedStatus: 404,
      request: (caller) => ({ url: `/api/class-boards/${school.classAId}/token`, headers: authOf(caller) }),
      check: (caller, body) =>
        expect(body.data).toMatchObject({ classId: school.classAId, teacher: caller.role === 'teacher' }),
    },
    'GET /api/class-boards/:classId/document': {
      target: 'class-record',
      // Anyone outside the class is told what an unknown class tells (decision 069).
      unreachedStatus: 404,
      // A Yjs update (application/octet-stream): no envelope to check (board-download.test.ts reads it).
      request: (caller) => ({ url: `/api/class-boards/${school.classAId}/document`, headers: authOf(caller) }),
    },
    'GET /api/class-boards/:classId/pen': {
      target: 'class-record',
      request: (caller) => ({ url: `/api/class-boards/${school.classAId}/pen`, headers: authOf(caller) }),
      check: (_caller, body) => expect(body.data).toMatchObject({ classId: school.classAId }),
    },
    'PUT /api/class-boards/:classId/pen': {
      target: 'class-record',
      request: (caller) => ({
        url: `/api/class-boards/${school.classAId}/pen`,
        headers: authOf(caller),
        payload: { mode: 'named', studentIds: [school.callers.studentA.id] },
      }),
      check: (_caller, body) =>
        expect(body.data).toEqual({
          classId: school.classAId,
          mode: 'named',
          studentIds: [school.callers.studentA.id],
        }),
    },
    // Without an upgrade: the socket itself is checked in board-socket.test.ts.
    'GET /api/class-boards/ws': {
      status: 426,
      request: (caller) => ({ url: '/api/class-boards/ws', headers: authOf(caller) }),
    },
    // Without an upgrade: the socket itself is checked in live-socket.test.ts.
    'GET /api/live-games/ws': {
      status: 426,
      request: (caller) => ({ url: '/api/live-games/ws', headers: authOf(caller) }),
    },
    'GET /api/quizzes/:id/live-games': {
      target: 'quiz',
      prepare: finishedLiveGame,
      request: (caller, game: LiveGameFixture) => ({
        url: `/api/quizzes/${game.quizId}/live-games`,
        headers: authOf(caller),
      }),
      check: (_caller, body, game: LiveGameFixture) =>
        expect(body.data.map((item: any) => item._id)).toContain(game.id),
    },
    'GET /api/quizzes/:id/live-games/:gameId': {
      target: 'quiz',
      prepare: finishedLiveGame,
      request: (caller, game: LiveGameFixture) => ({
        url: `/api/quizzes/${game.quizId}/live-games/${game.id}`,
        headers: authOf(caller),
      }),
      check: (_caller, body) =>
        expect(body.data.players).toEqual([
          expect.objectContaining({ student: expect.objectContaining({ _id: school.callers.studentA.id }), rank: 1 }),
        ]),
    },
    'GET /api/resources/:id/file': {
      target: 'resource',
      prepare: () => school.addResource('teacher1'),
      request: async (caller, resource: ResourceFixture) => {
        // These have no file here to sign a link for (or cannot sign in): the bare address.
        const hasNoLink = ['administrator', 'coTeacher', 'deactivatedTeacher', 'removedStudent'].includes(caller.name);
        if (!caller.token || hasNoLink) return { url: `/api/resources/${resource.id}/file` };
        const mayList = caller.name === 'teacher1' || caller.className === CLASS_A;
        const ownId = mayList ? resource.id : school.resource2.id;
        return { url: (await ownFileLink(caller, ownId)).replace(ownId, resource.id) };
      },
    },
  };
}
