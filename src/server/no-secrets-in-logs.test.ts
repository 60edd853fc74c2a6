import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuizQuestion } from '#shared/quizzes';
import { students, teachers } from './db/schema.ts';
import { REDACTED } from './plugins/request-logging.ts';
import { MeetingTestClient } from './features/meetings/meeting-test-client.ts';
import {
  classIdTaughtBy,
  classTaughtBy,
  inviteTeacher,
  meetingRoomFor,
  signUpStudent,
  signUpTeacher,
} from './testing/actors.ts';
import { buildNewQuiz, buildTeacherRegistration } from './testing/factories.ts';
import { multipartBody, SAMPLE_FILES } from './testing/multipart.ts';
import { withForgedSignature } from './testing/tamper.ts';
import { bearer, createTestApp, type TestApp } from './testing/test-app.ts';

/**
 * A whole working day through the real server, every log line captured, and
 * not one of them may hold a password (old, new or wrong), a token (session,
 * from a password change, or meeting), a file link's signed access value, a
 * password hash or an answer key: at the usual level and at the most talkative one.
 */
describe.each(['info', 'trace'] as const)('log lines at %s', (logLevel) => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;
  let baseUrl: string;
  /** Everything that must never be logged, with what it is (for the failure message). */
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp({ logs: lines, logLevel });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  /** Every password hash stored right now (a password change replaces one). */
  async function rememberStoredHashes() {
    const rows = [
      ...(await t.database.db.select({ hash: teachers.passwordHash }).from(teachers)),
      ...(await t.database.db.select({ hash: students.passwordHash }).from(students)),
    ];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const { hash } of rows) secrets.set(hash, 'password hash');
  }

  it('holds no password, token, access value, hash or answer key through a whole flow', async () => {
    // Register and log in (passwords in the bodies, tokens in the answers).
    const teacher = await signUpTeacher(t);
    const student = await signUpStudent(t, { class: '10A' });
    secrets.set(teacher.registration.password, 'teacher password');
    secrets.set(student.registration.password, 'student password');
    secrets.set(teacher.token, 'teacher session token');
    secrets.set(student.token, 'student session token');

    // A quiz whose answer keys are unmistakable.
    const keys = [1, 2, 3].map((n) => `answer-key-${n}-${randomBytes(6).toString('hex')}`);
    keys.forEach((key) => secrets.set(key, 'answer key'));
    const quiz = buildNewQuiz({ classId: await classIdTaughtBy(t, teacher, '10A') });
    quiz.quiz.questions = keys.map((key, index) => ({
      question_text: `Question ${index + 1}?`,
      options: [key, `wrong option ${index + 1}`],
      answer: key,
    }));
    const created = await t.call({
      method: 'POST',
      url: '/api/teacher/add-quiz',
      headers: bearer(teacher.token),
      payload: quiz,
    });
    expect(created.status, created.raw).toBe(201);
    const quizId = created.body.data._id as string;

    // The student starts, saves right answers as they go, submits; the leaderboard follows.
    const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: bearer(student.token) });
    expect(started.status, started.raw).toBe(200);
    const questions = started.body.data.quiz.questions as QuizQuestion[];
    const rightAnswers = Object.fromEntries(
      questions.map((question) => [
        question._id,
        question.options!.find((option) => option.text.startsWith('answer-key'))!._id,
      ]),
    );
    const saved = await t.call({
      method: 'PUT',
      url: `/api/quiz/${quizId}/answers`,
      headers: bearer(student.token),
      payload: { answers: rightAnswers },
    });
    expect(saved.status, saved.raw).toBe(200);
    const submitted = await t.call({
      method: 'POST',
      url: '/api/student/update-student',
      headers: bearer(student.token),
      payload: {
        quiz: {
          _id: quizId,
          questions: Object.entries(rightAnswers).map(([_id, selectedOption]) => ({ _id, selectedOption })),
        },
      },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    const leaderboard = await t.call({
      method: 'GET',
      url: '/api/get-students?search=a',
      headers: bearer(student.token),
    });
    expect(leaderboard.status, leaderboard.raw).toBe(200);
    const review = await t.call({ method: 'GET', url: `/api/quiz/${quizId}`, headers: bearer(student.token) });
    expect(JSON.stringify(review.body)).toContain(keys[0]); // released after submitting: it did travel

    // A meeting: a room, a meeting token, a real socket that joins (the token rides in the URL).
    const { roomId } = await meetingRoomFor(t, teacher, await classIdTaughtBy(t, teacher, '10A'));
    const ticket = await t.call({
      method: 'POST',
      url: `/api/meetings/${roomId}/token`,
      headers: bearer(student.token),
    });
    const meetingToken = ticket.body.data.token as string;
    secrets.set(meetingToken, 'meeting token');
    const { client, welcome } = await MeetingTestClient.join(baseUrl, meetingToken, roomId);
    expect(welcome.roomId).toBe(roomId);
    client.close();
    await client.closedWithin();
    // A socket with a token that is not valid is refused, and its token is not logged either.
    const forged = withForgedSignature(meetingToken);
    secrets.set(forged, 'forged meeting token');
    const refused = await MeetingTestClient.connect(baseUrl, forged);
    await refused.closedWithin();

    // An upload and its signed file link, downloaded over HTTP (the access value rides in the URL).
    const upload = multipartBody({ classId: await classIdTaughtBy(t, teacher, '10A') }, [
      { name: 'notes.pdf', content: SAMPLE_FILES.pdf() },
    ]);
    const uploaded = await t.call({
      method: 'POST',
      url: '/api/teacher/upload-resource',
      headers: { ...bearer(teacher.token), ...upload.headers },
      payload: upload.payload,
    });
    expect(uploaded.status, uploaded.raw).toBe(201);
    const listed = await t.call({ method: 'GET', url: '/api/get-resources', headers: bearer(student.token) });
    const fileUrl = (listed.body.data as { fileURL: string }[])[0]!.fileURL;
    const access = new URL(fileUrl, baseUrl).searchParams.get('access')!;
    secrets.set(access, 'file access value');
    secrets.set(access.split('.').at(-1)!, 'file access signature');
    const download = await fetch(new URL(fileUrl, baseUrl));
    expect(download.status).toBe(200);
    await download.arrayBuffer();

    // A validation error whose body held a password.
    const rejectedPassword = `rejected-password-${randomBytes(6).toString('hex')}`;
    secrets.set(rejectedPassword, 'password of a rejected registration');
    const invalid = await t.call({
      method: 'POST',
      url: '/api/teacher/register',
      payload: {
        ...buildTeacherRegistration(await inviteTeacher(t)),
        email: 'not an email',
        password: rejectedPassword,
      },
    });
    expect(invalid.status).toBe(400);
    const wrongLogin = await t.call({
      method: 'POST',
      url: '/api/teacher/login',
      payload: { email: teacher.registration.email, password: rejectedPassword },
    });
    expect(wrongLogin.status).toBe(401);

    // Sessions (decision 017), for each role: a wrong current password, a password change
    // (its answer is a fresh token), signing out everywhere with that token, the token refused.
    await rememberStoredHashes();
    for (const [role, account] of [
      ['teacher', teacher],
      ['student', student],
    ] as const) {
      const wrongPassword = `wrong-current-password-${randomBytes(6).toString('hex')}`;
      const newPassword = `new-password-${randomBytes(6).toString('hex')}`;
      secrets.set(wrongPassword, `${role}'s wrong current password`);
      secrets.set(newPassword, `${role}'s new password`);
      const url = `/api/${role}/change-password`;
      const headers = bearer(account.token);
      const refused = await t.call({
        method: 'POST',
        url,
        headers,
        payload: { currentPassword: wrongPassword, newPassword },
      });
      expect(refused.status, refused.raw).toBe(400);
      const changed = await t.call({
        method: 'POST',
        url,
        headers,
        payload: { currentPassword: account.registration.password, newPassword },
      });
      expect(changed.status, changed.raw).toBe(200);
      const freshToken = changed.body.data as string;
      secrets.set(freshToken, `${role}'s token from change-password`);
      const everywhere = { method: 'POST', url: `/api/${role}/logout-everywhere`, payload: {} } as const;
      const signedOut = await t.call({ ...everywhere, headers: bearer(freshToken) });
      expect(signedOut.status, signedOut.raw).toBe(200);
      const ended = await t.call({ ...everywhere, headers: bearer(freshToken) });
      expect(ended.status, ended.raw).toBe(401);
    }

    // A teacher's reset (decision 033): the temporary password is in its answer only; the session
    // it signs in is refused elsewhere, then chooses a new password. (The accounts above signed out.)
    const resetter = await signUpTeacher(t);
    // Only a teacher of one of the student's classes resets their password (decision 031).
    const forgetful = await signUpStudent(t, { class: (await classTaughtBy(t, resetter)).name });
    secrets.set(resetter.token, 'teacher session token');
    secrets.set(forgetful.registration.password, 'student password');
    const reset = await t.call({
      method: 'POST',
      url: `/api/teacher/students/${forgetful.profile._id}/reset-password`,
      headers: bearer(resetter.token),
    });
    expect(reset.status, reset.raw).toBe(200);
    const temporaryPassword = reset.body.data.temporaryPassword as string;
    secrets.set(temporaryPassword, 'temporary password of a reset');
    const temporarySession = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: forgetful.registration.rollNumber, password: temporaryPassword },
    });
    expect(temporarySession.status, temporarySession.raw).toBe(200);
    secrets.set(temporarySession.body.data as string, 'token signed in with a temporary password');
    const blocked = await t.call({ method: 'GET', url: '/api/tasks', headers: bearer(temporarySession.body.data) });
    expect(blocked.status, blocked.raw).toBe(403);
    const chosenPassword = `chosen-password-${randomBytes(6).toString('hex')}`;
    secrets.set(chosenPassword, 'password chosen after a reset');
    const chosen = await t.call({
      method: 'POST',
      url: '/api/student/change-password',
      headers: bearer(temporarySession.body.data),
      payload: { currentPassword: temporaryPassword, newPassword: chosenPassword },
    });
    expect(chosen.status, chosen.raw).toBe(200);
    secrets.set(chosen.body.data as string, 'token from the change after a reset');
    await rememberStoredHashes();

    // An unhandled error: a failing query whose parameters hold a fresh password hash, which the
    // database itself quotes in its message (a trigger standing in for any such failure).
    const doomed = buildTeacherRegistration(await inviteTeacher(t));
    await t.database.db.execute(
      sql.raw(`create function refuse_teacher() returns trigger language plpgsql as $$
      begin raise exception 'refusing to store %', new.password_hash; end $$`),
    );
    await t.database.db.execute(
      sql.raw('create trigger refuse_teacher before insert on teachers for each row execute function refuse_teacher()'),
    );
    secrets.set(doomed.password, 'password of a registration that failed');
    try {
      const failed = await t.call({ method: 'POST', url: '/api/teacher/register', payload: doomed });
      expect(failed.status, failed.raw).toBe(500);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger refuse_teacher on teachers'));
      await t.database.db.execute(sql.raw('drop function refuse_teacher'));
    }

    // Every stored hash, too (those before the password changes were remembered then).
    await rememberStoredHashes();

    await expect.poll(() => lines.some((line) => line.msg === 'request completed' && isSocketLine(line))).toBe(true);
    const leaks = lines.flatMap((line) => {
      const text = JSON.stringify(line);
      const found = [...secrets].filter(([secret]) => text.includes(secret)).map(([, what]) => what);
      if (text.includes('$argon2')) found.push('something shaped like a password hash');
      return found.length > 0 ? [`${found.join(', ')} in: ${text}`] : [];
    });
    expect(leaks).toEqual([]);

    // The lines are there, with the secrets replaced: nothing passed by not being logged.
    const urls = lines.map((line) => (line.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toContain(`/api/meetings/ws?token=${REDACTED}`);
    expect(urls).toContain(`${new URL(fileUrl, baseUrl).pathname}?access=${REDACTED}`);
    const unhandled = lines.filter((line) => line.msg === 'unhandled error');
    expect(unhandled).toHaveLength(1);
    const err = unhandled[0]!.err as { message: string; stack: string; query: string };
    expect(err.message).toMatch(/^refusing to store \$\d$/);
    expect(err.stack).toMatch(/^FailedQuery: refusing to store \$\d\n\s+at /);
    expect(err.query).toContain('insert into "teachers"');
  });
});

const isSocketLine = (line: Record<string, unknown>) => Boolean(line.reqId) && line.res !== undefined;
