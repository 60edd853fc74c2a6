import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_LIMITS, type Notification } from '#shared/notifications';
import { notifications } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { insertQuiz } from '../quizzes/authoring.ts';
import { notify } from './notify.ts';

let t: TestApp;
/** Every statement the app sends while a test listens. */
let statements: string[] | null = null;

type Actor = { token: string; profile: { _id: string } };
const list = (actor: Actor, query = '') =>
  t.call({ method: 'GET', url: `/api/notifications${query}`, headers: bearer(actor.token) });
const unread = async (actor: Actor) => {
  const answer = await t.call({ method: 'GET', url: '/api/notifications/unread-count', headers: bearer(actor.token) });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data.unread as number;
};
/** POST add-quiz as `teacher`: the answer, whatever its status. */
const addQuiz = (teacher: Actor, quiz: Parameters<typeof buildNewQuiz>[0]) =>
  t.call({ method: 'POST', url: '/api/teacher/add-quiz', headers: bearer(teacher.token), payload: buildNewQuiz(quiz) });
const markRead = (actor: Actor, through: string) =>
  t.call({ method: 'POST', url: '/api/notifications/read', headers: bearer(actor.token), payload: { through } });

/** A notification for `student`, of a quiz titled `title` (a direct notify, as a producer would). */
const notifyStudent = (student: Actor, title: string) =>
  notify(t.database.db, [{ role: 'student', id: student.profile._id }], 'QUIZ_PUBLISHED', {
    quizId: crypto.randomUUID(),
    title,
    className: '10A',
    deadline: new Date('2027-01-01T10:00:00Z').toISOString(),
  });

const rowsOf = (recipientId: string) =>
  t.database.db.select().from(notifications).where(eq(notifications.recipientId, recipientId));

beforeAll(async () => {
  t = await createTestApp({ onQuery: (query) => statements?.push(query) });
});
afterAll(async () => {
  await t.close();
});

describe('publishing a quiz', () => {
  it('notifies each student of the class once, in one statement, with the quiz as data', async () => {
    const teacher = await signUpTeacher(t);
    const otherTeacher = await signUpTeacher(t);
    const taught = await classTaughtBy(t, teacher, [otherTeacher]);
    const elsewhere = await classTaughtBy(t, otherTeacher);
    const students = await Promise.all([1, 2, 3].map(() => signUpStudent(t, { classCode: taught.joinCode })));
    const outsider = await signUpStudent(t, { classCode: elsewhere.joinCode });

    statements = [];
    const created = await addQuiz(teacher, { title: 'Fractions <b>week</b>', classId: taught.id });
    const inserts = statements.filter((query) => /insert into "notifications"/i.test(query));
    statements = null;
    expect(created.status, created.raw).toBe(201);
    expect(inserts).toHaveLength(1);

    for (const student of students) {
      expect(await unread(student)).toBe(1);
      const listed = await list(student);
      expect(listed.status, listed.raw).toBe(200);
      expect(listed.body.data).toEqual([
        {
          _id: expect.any(String),
          kind: 'QUIZ_PUBLISHED',
          params: {
            quizId: created.body.data._id,
            title: 'Fractions <b>week</b>',
            className: taught.name,
            deadline: expect.any(String),
          },
          createdAt: expect.any(String),
          readAt: null,
        },
      ]);
    }
    // Neither the student of another class nor the teachers.
    for (const actor of [outsider, teacher, otherTeacher]) expect(await unread(actor)).toBe(0);
  });

  it('duplicating a quiz into a class notifies that class’s students', async () => {
    const teacher = await signUpTeacher(t);
    const first = await classTaughtBy(t, teacher);
    const second = await classTaughtBy(t, teacher);
    const student = await signUpStudent(t, { classCode: second.joinCode });
    const created = await addQuiz(teacher, { classId: first.id });
    expect(created.status, created.raw).toBe(201);
    expect(await unread(student)).toBe(0);
    const copied = await t.call({
      method: 'POST',
      url: `/api/quizzes/${created.body.data._id}/duplicate`,
      headers: bearer(teacher.token),
      payload: { classId: second.id, title: 'The copy', deadline: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(copied.status, copied.raw).toBe(201);
    const [notification] = (await list(student)).body.data as Notification[];
    expect(notification).toMatchObject({
      kind: 'QUIZ_PUBLISHED',
      params: { quizId: copied.body.data._id, title: 'The copy' },
    });
  });

  it('writes no notification when the publishing transaction fails', async () => {
    const teacher = await signUpTeacher(t);
    const taught = await classTaughtBy(t, teacher);
    const student = await signUpStudent(t, { classCode: taught.joinCode });
    const failure = new Error('a later step of the publish failed');
    await expect(
      t.database.db.transaction(async (tx) => {
        await insertQuiz(tx, {
          title: 'Never published',
          teacher: { id: teacher.profile._id, subject: 'Maths' },
          classId: taught.id,
          className: taught.name,
          deadline: new Date(Date.now() + 86_400_000),
          maxTimeMinutes: 10,
          review: { reviewAnswers: 'after-deadline', reviewScore: 'after-submit' },
          background: 'none',
          questions: [],
        });
        const [inside] = await tx
          .select()
          .from(notifications)
          .where(eq(notifications.recipientId, student.profile._id));
        expect(inside).toMatchObject({ kind: 'QUIZ_PUBLISHED' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await rowsOf(student.profile._id)).toEqual([]);

    // Refused by the API (a class the teacher does not teach): nothing either.
    const stranger = await signUpTeacher(t);
    const refused = await addQuiz(stranger, { classId: taught.id });
    expect(refused.status).toBe(403);
    expect(await unread(student)).toBe(0);
  });
});

describe('a class’s notifications follow membership', () => {
  it('a student removed from the class reads nothing of it any more, and again once back', async () => {
    const teacher = await signUpTeacher(t);
    const taught = await classTaughtBy(t, teacher);
    const student = await signUpStudent(t, { classCode: taught.joinCode });
    const created = await addQuiz(teacher, { classId: taught.id });
    expect(created.status, created.raw).toBe(201);
    expect(await unread(student)).toBe(1);
    const removed = await t.call({
      method: 'DELETE',
      url: `/api/classes/${taught.id}/students/${student.profile._id}`,
      headers: bearer(teacher.token),
    });
    expect(removed.status, removed.raw).toBe(200);
    expect(await unread(student)).toBe(0);
    expect((await list(student)).body.data).toEqual([]);
    const rejoined = await t.call({
      method: 'POST',
      url: '/api/student/join-class',
      headers: bearer(student.token),
      payload: { classCode: taught.joinCode },
    });
    expect(rejoined.status, rejoined.raw).toBe(200);
    expect(await unread(student)).toBe(1);
  });
});

describe('the bell’s routes', () => {
  it('lists only the caller’s own notifications, whatever the query names', async () => {
    const [mine, theirs] = [await signUpStudent(t), await signUpStudent(t)];
    await notifyStudent(mine, 'Mine');
    await notifyStudent(theirs, 'Theirs');
    // A teacher and a student may share an id space: the role is part of the recipient.
    await notify(t.database.db, [{ role: 'teacher', id: mine.profile._id }], 'QUIZ_PUBLISHED', {
      quizId: crypto.randomUUID(),
      title: 'For a teacher of that id',
      className: '10A',
      deadline: new Date().toISOString(),
    });
    const listed = await list(mine, `?recipientId=${theirs.profile._id}`);
    expect(listed.status, listed.raw).toBe(200);
    expect(listed.body.data.map((item: Notification) => item.params.title)).toEqual(['Mine']);
    expect(await unread(mine)).toBe(1);
  });

  it('pages newest first, sorted by the database', async () => {
    const student = await signUpStudent(t);
    for (let index = 0; index < 5; index += 1) await notifyStudent(student, `Quiz ${index}`);
    // Distinct, known times (one statement's now() is shared): Quiz 4 newest.
    await t.database.db.execute(
      sql`update notifications set created_at = timestamptz '2026-01-01' + (right(params->>'title', 1)::int) * interval '1 minute'
          where recipient_id = ${student.profile._id}`,
    );
    const first = await list(student, '?limit=2');
    expect(first.body.data.map((item: Notification) => item.params.title)).toEqual(['Quiz 4', 'Quiz 3']);
    expect(first.body.page).toEqual({ offset: 0, limit: 2, hasMore: true });
    const last = await list(student, '?offset=4&limit=2');
    expect(last.body.data.map((item: Notification) => item.params.title)).toEqual(['Quiz 0']);
    expect(last.body.page).toEqual({ offset: 4, limit: 2, hasMore: false });
    const tooMany = await list(student, `?limit=${NOTIFICATION_LIMITS.pageSizeMax + 1}`);
    expect(tooMany.status).toBe(400);
  });

  it('marks read up to the newest listed, keeps a later one unread, and never another’s', async () => {
    const [student, classmate] = [await signUpStudent(t), await signUpStudent(t)];
    await notifyStudent(student, 'Listed 1');
    await notifyStudent(student, 'Listed 2');
    await notifyStudent(classmate, 'Not mine');
    const shown = (await list(student)).body.data as Notification[];
    expect(await unread(student)).toBe(2);
    // Arrives while the bell is open: a later time than the newest shown.
    await notifyStudent(student, 'Arrived later');
    await t.database.db.execute(
      // (Not in the future: the bell lists nothing before its time, decision 061.)
      sql`update notifications set created_at = greatest(created_at, ${shown[0]!.createdAt}::timestamptz + interval '1 millisecond')
          where params->>'title' = 'Arrived later' and recipient_id = ${student.profile._id}`,
    );
    const marked = await markRead(student, shown[0]!.createdAt);
    expect(marked.status, marked.raw).toBe(200);
    expect(marked.body.data).toEqual({ unread: 1 });
    const after = (await list(student)).body.data as Notification[];
    expect(after.map((item) => [item.params.title, item.readAt === null])).toEqual([
      ['Arrived later', true],
      ...shown.map((item) => [item.params.title, false]),
    ]);
    // Read again: nothing changes, read times stay the first ones.
    const again = await markRead(student, shown[0]!.createdAt);
    expect(again.body.data).toEqual({ unread: 1 });
    expect(((await list(student)).body.data as Notification[]).slice(1)).toEqual(after.slice(1));
    expect(await unread(classmate)).toBe(1);
  });

  it('counts unread up to its limit', async () => {
    const teacher = await signUpTeacher(t);
    const many = Array.from({ length: NOTIFICATION_LIMITS.unreadCountMax + 5 }, () => ({
      role: 'teacher' as const,
      id: teacher.profile._id,
    }));
    await notify(t.database.db, many, 'HAND_IN_COMMENT', {
      assignmentId: crypto.randomUUID(),
      handInId: crypto.randomUUID(),
      studentId: crypto.randomUUID(),
      title: 'Essay',
      authorName: 'Ana',
    });
    expect(await unread(teacher)).toBe(NOTIFICATION_LIMITS.unreadCountMax);
  });

  it('refuses bad input and strangers with a clear 4xx', async () => {
    const student = await signUpStudent(t);
    expect((await t.call({ method: 'GET', url: '/api/notifications' })).status).toBe(401);
    expect((await markRead(student, 'yesterday')).status).toBe(400);
    const extra = await t.call({
      method: 'POST',
      url: '/api/notifications/read',
      headers: bearer(student.token),
      payload: { through: new Date().toISOString(), recipientId: crypto.randomUUID() },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('UNKNOWN_FIELD');
  });
});
