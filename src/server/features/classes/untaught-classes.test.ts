import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityKey } from '#shared/identity';
import { classes, classStudents, classTeachers } from '../../db/schema.ts';
import { schoolAdministrator, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Classes no teacher teaches (decision 031, "Classes without a teacher"): the administrator
 * lists them and gives each an owner; no one else may; two administrators at once give it one.
 * PGlite, and PostgreSQL when TEST_DATABASE_URL is set (where the two calls really overlap).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, patience(60_000));
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.call({ method, url, payload, headers: bearer(token) });

/** A class only students named (as migration 0013 leaves one): no teacher, `students` members. */
async function untaughtClass(students = 0) {
  const name = `Drama ${randomUUID().slice(0, 8)}`;
  const [row] = await t.database.db
    .insert(classes)
    .values({ name, nameKey: identityKey(name), subject: 'Drama' })
    .returning({ id: classes.id });
  for (let index = 0; index < students; index += 1) {
    const student = await signUpStudent(t);
    await t.database.db.insert(classStudents).values({ classId: row!.id, studentId: student.profile._id });
  }
  return { id: row!.id, name };
}

const teachersOf = (classId: string) =>
  t.database.db
    .select({ teacherId: classTeachers.teacherId, isOwner: classTeachers.isOwner })
    .from(classTeachers)
    .where(eq(classTeachers.classId, classId));

async function secondAdministrator() {
  const admin = await schoolAdministrator(t);
  const other = await signUpTeacher(t);
  const made = await call('POST', `/api/school/teachers/${other.profile._id}/make-administrator`, admin.token);
  expect(made.status, made.raw).toBe(200);
  return other;
}

describe('classes without a teacher', { timeout: patience(60_000) }, () => {
  it('lists them to the administrator only, by name, with their student count and never a code', async () => {
    const admin = await schoolAdministrator(t);
    const drama = await untaughtClass(2);
    const teacher = await signUpTeacher(t);
    const taught = await call('POST', '/api/classes', teacher.token, { name: `Taught ${randomUUID().slice(0, 8)}` });
    expect(taught.status, taught.raw).toBe(201);

    const listed = await call('GET', '/api/school/untaught-classes?limit=100', admin.token);
    expect(listed.status, listed.raw).toBe(200);
    const ids = listed.body.data.map((entry: { _id: string }) => entry._id);
    expect(ids).toContain(drama.id);
    expect(ids).not.toContain(taught.body.data._id);
    expect(listed.body.data.find((entry: { _id: string }) => entry._id === drama.id)).toEqual({
      _id: drama.id,
      name: drama.name,
      subject: 'Drama',
      isArchived: false,
      studentCount: 2,
    });

    const student = await signUpStudent(t);
    for (const token of [teacher.token, student.token]) {
      expect((await call('GET', '/api/school/untaught-classes', token)).status).toBe(403);
    }
  });

  it('gives one its owner: the teacher then teaches it, and it leaves the list', async () => {
    const admin = await schoolAdministrator(t);
    const drama = await untaughtClass(1);
    const teacher = await signUpTeacher(t, { name: 'Dana Drama' });

    const assigned = await call('POST', `/api/school/untaught-classes/${drama.id}/teacher`, admin.token, {
      teacherId: teacher.profile._id,
    });
    expect(assigned.status, assigned.raw).toBe(200);
    expect(assigned.body.data).toEqual({
      _id: drama.id,
      name: drama.name,
      subject: 'Drama',
      isArchived: false,
      studentCount: 1,
      teachers: [{ _id: teacher.profile._id, name: 'Dana Drama', isOwner: true }],
    });
    const mine = await call('GET', '/api/classes', teacher.token);
    expect(mine.body.data.map((entry: { _id: string }) => entry._id)).toContain(drama.id);
    const listed = await call('GET', '/api/school/untaught-classes?limit=100', admin.token);
    expect(listed.body.data.map((entry: { _id: string }) => entry._id)).not.toContain(drama.id);

    // Taught now: a second assignment is refused, the class keeps its owner.
    const again = await call('POST', `/api/school/untaught-classes/${drama.id}/teacher`, admin.token, {
      teacherId: admin.profile._id,
    });
    expect(again.status, again.raw).toBe(409);
    expect(again.body.code).toBe('CLASS_HAS_TEACHER');
    expect(await teachersOf(drama.id)).toEqual([{ teacherId: teacher.profile._id, isOwner: true }]);
  });

  it('counts a class whose teachers were all deactivated: the new owner joins them, who stay co-teachers', async () => {
    const admin = await schoolAdministrator(t);
    const gone = await signUpTeacher(t);
    const created = await call('POST', '/api/classes', gone.token, { name: `Left ${randomUUID().slice(0, 8)}` });
    const classId = created.body.data._id as string;
    const url = '/api/school/untaught-classes?limit=100';
    expect((await call('GET', url, admin.token)).body.data.map((entry: { _id: string }) => entry._id)).not.toContain(
      classId,
    );
    expect((await call('POST', `/api/school/teachers/${gone.profile._id}/deactivate`, admin.token)).status).toBe(200);
    expect((await call('GET', url, admin.token)).body.data.map((entry: { _id: string }) => entry._id)).toContain(
      classId,
    );

    const teacher = await signUpTeacher(t);
    const assigned = await call('POST', `/api/school/untaught-classes/${classId}/teacher`, admin.token, {
      teacherId: teacher.profile._id,
    });
    expect(assigned.status, assigned.raw).toBe(200);
    expect((await teachersOf(classId)).sort((a, b) => Number(b.isOwner) - Number(a.isOwner))).toEqual([
      { teacherId: teacher.profile._id, isOwner: true },
      { teacherId: gone.profile._id, isOwner: false },
    ]);
  });

  it('refuses a deactivated or unknown teacher, an unknown class and a non-administrator, changing nothing', async () => {
    const admin = await schoolAdministrator(t);
    const drama = await untaughtClass();
    const gone = await signUpTeacher(t);
    expect((await call('POST', `/api/school/teachers/${gone.profile._id}/deactivate`, admin.token)).status).toBe(200);
    const url = `/api/school/untaught-classes/${drama.id}/teacher`;

    for (const teacherId of [gone.profile._id, randomUUID()]) {
      const refused = await call('POST', url, admin.token, { teacherId });
      expect(refused.status, refused.raw).toBe(400);
      expect(refused.body).toMatchObject({ code: 'TEACHER_NOT_ACTIVE', errors: [{ field: 'teacherId' }] });
    }
    const badBody = await call('POST', url, admin.token, { teacherId: 'not-an-id' });
    expect(badBody.status).toBe(400);
    const unknown = await call('POST', `/api/school/untaught-classes/${randomUUID()}/teacher`, admin.token, {
      teacherId: admin.profile._id,
    });
    expect(unknown.status).toBe(404);
    const teacher = await signUpTeacher(t);
    const notAdmin = await call('POST', url, teacher.token, { teacherId: teacher.profile._id });
    expect(notAdmin.status).toBe(403);
    expect(await teachersOf(drama.id)).toEqual([]);
  });

  it('of two administrators assigning at once, one wins and the other gets 409', async () => {
    const [admin, other] = [await schoolAdministrator(t), await secondAdministrator()];
    const [first, second] = [await signUpTeacher(t), await signUpTeacher(t)];
    for (let round = 0; round < 3; round += 1) {
      const drama = await untaughtClass();
      const url = `/api/school/untaught-classes/${drama.id}/teacher`;
      const answers = await Promise.all([
        call('POST', url, admin.token, { teacherId: first.profile._id }),
        call('POST', url, other.token, { teacherId: second.profile._id }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers[0].status === 200 ? first : second;
      expect(await teachersOf(drama.id)).toEqual([{ teacherId: winner.profile._id, isOwner: true }]);
    }
  });
});
