import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_CODE_ALPHABET, normalizeJoinCode } from '#shared/classes';
import { classes, classStudents, classTeachers, students } from '../../db/schema.ts';
import { classIdTaughtBy, schoolAdministrator, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz, buildStudentRegistration } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Issue 19 points 3–6 (decision 031): a teacher's classes, their co-teachers and join codes,
 * rosters for the class's teachers only, and students joining classes by code.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, patience(60_000));
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
  t.call({ method, url, payload, headers: bearer(token) });
let unique = 0;
const className = (base: string) => `${base} ${(unique += 1)}-${Math.random().toString(36).slice(2, 6)}`;

async function createClass(token: string, name = className('Class'), subject?: string) {
  const created = await call('POST', '/api/classes', token, { name, ...(subject ? { subject } : {}) });
  expect(created.status, created.raw).toBe(201);
  return created.body.data as { _id: string; name: string; joinCode: string };
}
const tableCount = async (table: typeof classes | typeof classStudents | typeof classTeachers | typeof students) =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

describe("a teacher's classes", () => {
  it('creates a class with a fresh code, lists it with its teachers and student count', async () => {
    const teacher = await signUpTeacher(t, { name: 'Ada Owner' });
    const created = await createClass(teacher.token, className('10A'), 'Maths');
    expect(created).toMatchObject({ subject: 'Maths', isArchived: false, studentCount: 0 });
    expect(created.joinCode).toMatch(new RegExp(`^[${JOIN_CODE_ALPHABET}]{4}-[${JOIN_CODE_ALPHABET}]{4}$`));
    const listed = await call('GET', '/api/classes', teacher.token);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        _id: created._id,
        teachers: [{ _id: teacher.profile._id, name: 'Ada Owner', isOwner: true }],
      }),
    ]);
    // Another teacher's list stays theirs.
    const other = await signUpTeacher(t);
    expect((await call('GET', '/api/classes', other.token)).body.data).toEqual([]);
  });

  it('refuses a name the school has, however it is spelt, and changes nothing', async () => {
    const [first, second] = [await signUpTeacher(t), await signUpTeacher(t)];
    const name = className('Ｂio Group');
    await createClass(first.token, name);
    const before = await tableCount(classes);
    for (const spelling of [name, ` ${name.toLowerCase()}  `, name.normalize('NFKC').toUpperCase()]) {
      const again = await call('POST', '/api/classes', second.token, { name: spelling });
      expect(again.status, spelling).toBe(409);
      expect(again.body).toMatchObject({ code: 'CLASS_NAME_TAKEN', errors: [{ field: 'name' }] });
    }
    expect(await tableCount(classes)).toBe(before);
    // Renaming onto a taken name is refused the same way.
    const own = await createClass(second.token);
    const rename = await call('PATCH', `/api/classes/${own._id}`, second.token, { name: name.toLowerCase() });
    expect(rename.body.code).toBe('CLASS_NAME_TAKEN');
  });

  it('refuses bad input with a 4xx that names the field', async () => {
    const teacher = await signUpTeacher(t);
    for (const payload of [
      {},
      { name: '   ' },
      { name: 'x'.repeat(51) },
      { name: 'A', extra: 1 },
      { name: 'A\u0000' },
    ]) {
      const refused = await call('POST', '/api/classes', teacher.token, payload);
      expect(refused.status, JSON.stringify(payload)).toBe(400);
    }
    expect((await call('PATCH', '/api/classes/not-an-id', teacher.token, { subject: 'x' })).status).toBe(400);
  });

  it('edits, archives and unarchives only classes the caller teaches', async () => {
    const [owner, stranger] = [await signUpTeacher(t), await signUpTeacher(t)];
    const created = await createClass(owner.token);
    const refused = await call('PATCH', `/api/classes/${created._id}`, stranger.token, { subject: 'Taken over' });
    expect(refused.status).toBe(403);
    expect((await call('POST', `/api/classes/${created._id}/archive`, stranger.token)).status).toBe(403);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await call('POST', `/api/classes/${missing}/archive`, owner.token)).status).toBe(404);

    const edited = await call('PATCH', `/api/classes/${created._id}`, owner.token, { subject: 'Physics' });
    expect(edited.body.data).toMatchObject({ subject: 'Physics', name: created.name });
    expect((await call('POST', `/api/classes/${created._id}/archive`, owner.token)).body.data.isArchived).toBe(true);
    expect((await call('POST', `/api/classes/${created._id}/unarchive`, owner.token)).body.data.isArchived).toBe(false);
  });
});

describe('join codes', () => {
  it('reads a code typed in any case, with or without the dash, and only codes of the alphabet', () => {
    expect(normalizeJoinCode('abcd-efgh')).toBe('ABCDEFGH');
    expect(normalizeJoinCode(' ab cd efgh ')).toBe('ABCDEFGH');
    expect(normalizeJoinCode('ABCD-EFG0')).toBeNull(); // no zero: it reads as O
    expect(normalizeJoinCode('ABCDEFG')).toBeNull();
  });

  it('lets a signed-in student join with the code; rotating stops the old code, turning off stops all', async () => {
    const teacher = await signUpTeacher(t);
    const created = await createClass(teacher.token);
    const student = await signUpStudent(t);
    const joined = await call('POST', '/api/student/join-class', student.token, {
      classCode: created.joinCode.toLowerCase().replace('-', ''),
    });
    expect(joined.status, joined.raw).toBe(200);
    expect(joined.body.data.map((entry: { _id: string }) => entry._id)).toContain(created._id);
    // Joining again changes nothing.
    expect((await call('POST', '/api/student/join-class', student.token, { classCode: created.joinCode })).status).toBe(
      200,
    );

    const rotated = (await call('POST', `/api/classes/${created._id}/rotate-code`, teacher.token)).body.data;
    expect(rotated.joinCode).not.toBe(created.joinCode);
    const late = await signUpStudent(t);
    const old = await call('POST', '/api/student/join-class', late.token, { classCode: created.joinCode });
    expect(old.status).toBe(400);
    expect(old.body).toMatchObject({ code: 'CLASS_CODE_INVALID', errors: [{ field: 'classCode' }] });
    expect((await call('POST', '/api/student/join-class', late.token, { classCode: rotated.joinCode })).status).toBe(
      200,
    );

    const off = (await call('POST', `/api/classes/${created._id}/turn-off-code`, teacher.token)).body.data;
    expect(off.joinCode).toBeNull();
    const third = await signUpStudent(t);
    const before = await tableCount(classStudents);
    for (const classCode of [rotated.joinCode, 'ABCD-EFGH', 'nonsense']) {
      const refused = await call('POST', '/api/student/join-class', third.token, { classCode });
      expect(refused.body.code, classCode).toBe('CLASS_CODE_INVALID');
    }
    expect(await tableCount(classStudents)).toBe(before);
  });

  it('refuses the code of an archived class', async () => {
    const teacher = await signUpTeacher(t);
    const created = await createClass(teacher.token);
    await call('POST', `/api/classes/${created._id}/archive`, teacher.token);
    const student = await signUpStudent(t);
    const refused = await call('POST', '/api/student/join-class', student.token, { classCode: created.joinCode });
    expect(refused.body.code).toBe('CLASS_CODE_INVALID');
  });

  it('locks out a student who keeps typing wrong codes, naming the class-codes limit', async () => {
    const teacher = await signUpTeacher(t);
    const created = await createClass(teacher.token);
    const student = await signUpStudent(t);
    let refusal: Awaited<ReturnType<typeof call>> | undefined;
    for (let attempt = 0; attempt < 30 && !refusal; attempt += 1) {
      const answer = await call('POST', '/api/student/join-class', student.token, { classCode: 'ABCD-EFGH' });
      if (answer.status === 429) refusal = answer;
      else expect(answer.body.code).toBe('CLASS_CODE_INVALID');
    }
    expect(refusal?.body).toMatchObject({ code: 'THROTTLED', limit: 'class-codes' });
    expect(refusal?.body.retryAfterSeconds).toBeGreaterThan(0);
    // Locked out, the right code waits too: the lock-out is the student's, not the code's.
    const right = await call('POST', '/api/student/join-class', student.token, { classCode: created.joinCode });
    expect(right.status).toBe(429);
  });

  it('is refused to teachers: joining is for students', async () => {
    const teacher = await signUpTeacher(t);
    const created = await createClass(teacher.token);
    expect((await call('POST', '/api/student/join-class', teacher.token, { classCode: created.joinCode })).status).toBe(
      403,
    );
  });
});

describe('co-teachers', () => {
  it('adds an active teacher of the school, never a deactivated one, and keeps a last teacher', async () => {
    const [owner, colleague, retired] = [await signUpTeacher(t), await signUpTeacher(t), await signUpTeacher(t)];
    const administrator = await schoolAdministrator(t);
    await call('POST', `/api/school/teachers/${retired.profile._id}/deactivate`, administrator.token);
    const created = await createClass(owner.token);

    const refused = await call('POST', `/api/classes/${created._id}/teachers`, owner.token, {
      teacherId: retired.profile._id,
    });
    expect(refused.body).toMatchObject({ code: 'TEACHER_NOT_ACTIVE', errors: [{ field: 'teacherId' }] });
    const added = await call('POST', `/api/classes/${created._id}/teachers`, owner.token, {
      teacherId: colleague.profile._id,
    });
    expect(added.body.data.teachers.map((teacher: { _id: string }) => teacher._id).sort()).toEqual(
      [owner.profile._id, colleague.profile._id].sort(),
    );
    // The co-teacher reaches the class as its owner does.
    expect((await call('GET', `/api/classes/${created._id}/students`, colleague.token)).status).toBe(200);
    expect((await call('GET', '/api/classes', colleague.token)).body.data.map((c: { _id: string }) => c._id)).toEqual([
      created._id,
    ]);

    // A co-teacher cannot take the class from its owner …
    const removeOwner = await call(
      'DELETE',
      `/api/classes/${created._id}/teachers/${owner.profile._id}`,
      colleague.token,
    );
    expect(removeOwner.status).toBe(403);
    expect(removeOwner.body.code).toBe('FORBIDDEN');
    // … but the owner may leave, handing the class to the co-teacher.
    const ownerLeaves = await call('DELETE', `/api/classes/${created._id}/teachers/${owner.profile._id}`, owner.token);
    expect(ownerLeaves.status).toBe(200);
    const [handed] = await t.database.db
      .select({ teacherId: classTeachers.teacherId, isOwner: classTeachers.isOwner })
      .from(classTeachers)
      .where(eq(classTeachers.classId, created._id));
    expect(handed).toEqual({ teacherId: colleague.profile._id, isOwner: true });
    const removeLast = await call(
      'DELETE',
      `/api/classes/${created._id}/teachers/${colleague.profile._id}`,
      colleague.token,
    );
    expect(removeLast.body.code).toBe('LAST_CLASS_TEACHER');
    // The removed owner no longer reaches it.
    expect((await call('GET', `/api/classes/${created._id}/students`, owner.token)).status).toBe(403);
  });
});

describe('a class and its deactivated teachers', () => {
  it('keeps an active teacher: nobody leaves a class to a deactivated colleague, who never becomes its owner', async () => {
    const owner = await signUpTeacher(t);
    const retiring = await signUpTeacher(t, { name: 'Aaron Retiring' });
    const created = await createClass(owner.token);
    const added = await call('POST', `/api/classes/${created._id}/teachers`, owner.token, {
      teacherId: retiring.profile._id,
    });
    expect(added.status, added.raw).toBe(200);
    const administrator = await schoolAdministrator(t);
    await call('POST', `/api/school/teachers/${retiring.profile._id}/deactivate`, administrator.token);

    // Leaving would hand the class to a teacher who cannot sign in.
    const leaves = await call('DELETE', `/api/classes/${created._id}/teachers/${owner.profile._id}`, owner.token);
    expect(leaves.status, leaves.raw).toBe(409);
    expect(leaves.body.code).toBe('LAST_CLASS_TEACHER');
    // With an active co-teacher, the owner may leave: the class goes to the active one, not to the
    // deactivated teacher first by name.
    const colleague = await signUpTeacher(t, { name: 'Zoe Active' });
    await call('POST', `/api/classes/${created._id}/teachers`, owner.token, { teacherId: colleague.profile._id });
    const left = await call('DELETE', `/api/classes/${created._id}/teachers/${owner.profile._id}`, owner.token);
    expect(left.status, left.raw).toBe(200);
    const owners = await t.database.db
      .select({ teacherId: classTeachers.teacherId })
      .from(classTeachers)
      .where(and(eq(classTeachers.classId, created._id), eq(classTeachers.isOwner, true)));
    expect(owners).toEqual([{ teacherId: colleague.profile._id }]);
  });

  it("leaves a deactivated teacher out of the class's teachers its colleagues see (issue 30 point 6)", async () => {
    const owner = await signUpTeacher(t);
    const retiring = await signUpTeacher(t);
    const created = await createClass(owner.token);
    await call('POST', `/api/classes/${created._id}/teachers`, owner.token, { teacherId: retiring.profile._id });
    const administrator = await schoolAdministrator(t);
    await call('POST', `/api/school/teachers/${retiring.profile._id}/deactivate`, administrator.token);

    const listed = await call('GET', '/api/classes', owner.token);
    const shown = listed.body.data.find((entry: { _id: string }) => entry._id === created._id);
    expect(shown.teachers.map((teacher: { _id: string }) => teacher._id)).toEqual([owner.profile._id]);
    // Reactivated, they are one of its teachers again (the membership was kept).
    await call('POST', `/api/school/teachers/${retiring.profile._id}/reactivate`, administrator.token);
    const again = (await call('GET', '/api/classes', owner.token)).body.data.find(
      (entry: { _id: string }) => entry._id === created._id,
    );
    expect(again.teachers.map((teacher: { _id: string }) => teacher._id).sort()).toEqual(
      [owner.profile._id, retiring.profile._id].sort(),
    );
  });
});

describe('quizzes and resources for a class (decision 031)', () => {
  it("refuses publishing into a colleague's class, and gives no say over it", async () => {
    const owner = await signUpTeacher(t);
    const created = await createClass(owner.token, className('Bridge'));
    const other = await signUpTeacher(t);
    const published = await call('POST', '/api/teacher/add-quiz', other.token, buildNewQuiz({ classId: created._id }));
    expect(published.status, published.raw).toBe(403);
    const shared = await call('POST', '/api/teacher/add-resource-link', other.token, {
      url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
      fileName: 'Not yours',
      classId: created._id,
    });
    expect(shared.status, shared.raw).toBe(403);
    expect((await call('GET', `/api/classes/${created._id}/students`, other.token)).status).toBe(403);
  });
});

describe('rosters', () => {
  it("answers a class's students with contact details to its teachers only; removing keeps the account and attempts", async () => {
    const [teacher, stranger] = [await signUpTeacher(t), await signUpTeacher(t)];
    const homeroom = className('Homeroom');
    // The student's homeroom (by name, as registration still does) gets one of the teacher's quizzes.
    const quiz = await call(
      'POST',
      '/api/teacher/add-quiz',
      teacher.token,
      buildNewQuiz({ classId: await classIdTaughtBy(t, teacher, homeroom) }),
    );
    expect(quiz.status, quiz.raw).toBe(201);
    const student = await signUpStudent(t, { class: homeroom, name: 'Zoe Roster' });
    const started = await call('POST', `/api/quiz/${quiz.body.data._id}/start`, student.token, {});
    expect(started.status, started.raw).toBe(200);
    const subjectGroup = await createClass(teacher.token);
    await call('POST', '/api/student/join-class', student.token, { classCode: subjectGroup.joinCode });

    const roster = await call('GET', `/api/classes/${subjectGroup._id}/students`, teacher.token);
    expect(roster.body.data).toEqual([
      {
        _id: student.profile._id,
        name: 'Zoe Roster',
        rollNumber: student.registration.rollNumber,
        email: student.registration.email,
        parentName: student.registration.parentName,
        parentEmail: student.registration.parentEmail,
        joinedAt: expect.any(String),
      },
    ]);
    expect((await call('GET', `/api/classes/${subjectGroup._id}/students`, stranger.token)).status).toBe(403);
    expect((await call('GET', `/api/classes/${subjectGroup._id}/students`, student.token)).status).toBe(403);
    const strangerRemove = await call(
      'DELETE',
      `/api/classes/${subjectGroup._id}/students/${student.profile._id}`,
      stranger.token,
    );
    expect(strangerRemove.status).toBe(403);

    const classesOf = async () =>
      (await call('GET', '/api/student/classes', student.token)).body.data.map((entry: { name: string }) => entry.name);
    expect((await classesOf()).sort()).toEqual([homeroom, subjectGroup.name].sort());
    const removed = await call(
      'DELETE',
      `/api/classes/${subjectGroup._id}/students/${student.profile._id}`,
      teacher.token,
    );
    expect(removed.body.data).toEqual([]);
    expect(await classesOf()).toEqual([homeroom]);
    // Removing again: not in the class.
    const again = await call(
      'DELETE',
      `/api/classes/${subjectGroup._id}/students/${student.profile._id}`,
      teacher.token,
    );
    expect(again.status).toBe(404);
    // The account and the attempt stay.
    const [row] = await t.database.db
      .select({ id: students.id })
      .from(students)
      .where(eq(students.id, student.profile._id));
    expect(row).toBeDefined();
    const attempts = await t.database.db.execute(
      sql`select count(*)::int as n from quiz_attempts where student_id = ${student.profile._id}`,
    );
    expect((attempts as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });
});

describe("reads through a student's classes", () => {
  it('lists the quizzes, library and leaderboards of every class; leaving keeps past attempts only', async () => {
    const teacher = await signUpTeacher(t);
    const homeroom = className('Home');
    const student = await signUpStudent(t, { class: homeroom, name: 'Mia Multi' });
    const group = await createClass(teacher.token, className('Group'));
    await call('POST', '/api/student/join-class', student.token, { classCode: group.joinCode });

    const addQuiz = async (target: string, title: string) => {
      const classId = await classIdTaughtBy(t, teacher, target);
      const added = await call('POST', '/api/teacher/add-quiz', teacher.token, buildNewQuiz({ classId, title }));
      expect(added.status, added.raw).toBe(201);
      return added.body.data._id as string;
    };
    await addQuiz(homeroom, 'Home quiz');
    const groupQuiz = await addQuiz(group.name, 'Group quiz');
    const otherQuiz = await addQuiz(group.name, 'Group quiz, never taken');
    const titles = async () =>
      (await call('GET', '/api/get-all-quiz?limit=100', student.token)).body.data
        .map((quiz: { title: string }) => quiz.title)
        .sort();
    expect(await titles()).toEqual(['Group quiz', 'Group quiz, never taken', 'Home quiz']);

    // A resource in each class; the library shows both, the class filter one.
    for (const [target, fileName] of [
      [homeroom, 'Home video'],
      [group.name, 'Group video'],
    ]) {
      const shared = await call('POST', '/api/teacher/add-resource-link', teacher.token, {
        url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ',
        fileName,
        classId: await classIdTaughtBy(t, teacher, target!),
      });
      expect(shared.status, shared.raw).toBe(201);
    }
    const library = async (filter = '') =>
      (await call('GET', `/api/get-resources?limit=100${filter}`, student.token)).body.data
        .map((resource: { fileName: string }) => resource.fileName)
        .sort();
    expect(await library()).toEqual(['Group video', 'Home video']);
    expect(await library(`&classId=${group._id}`)).toEqual(['Group video']);
    const elsewhere = await createClass(teacher.token);
    expect((await call('GET', `/api/get-resources?classId=${elsewhere._id}`, student.token)).status).toBe(403);

    // The group quiz taken: the student ranks on the group's leaderboard, chosen by id.
    const started = await call('POST', `/api/quiz/${groupQuiz}/start`, student.token, {});
    const questions = started.body.data.quiz.questions.map((question: { _id: string; options: { _id: string }[] }) => ({
      _id: question._id,
      selectedOption: question.options[0]!._id,
    }));
    const submitted = await call('POST', '/api/student/update-student', student.token, {
      quiz: { _id: groupQuiz, questions },
    });
    expect(submitted.status, submitted.raw).toBe(200);
    const board = async (classId: string) =>
      (await call('GET', `/api/get-students?classId=${classId}`, student.token)).body.data.map(
        (entry: { name: string }) => entry.name,
      );
    expect(await board(group._id)).toEqual(['Mia Multi']);

    // Removed from the group: its open quiz and library go; the attempted quiz stays for review.
    await call('DELETE', `/api/classes/${group._id}/students/${student.profile._id}`, teacher.token);
    expect(await titles()).toEqual(['Group quiz', 'Home quiz']);
    expect(await library()).toEqual(['Home video']);
    expect((await call('GET', `/api/quiz/${groupQuiz}`, student.token)).status).toBe(200);
    expect((await call('POST', `/api/quiz/${otherQuiz}/start`, student.token, {})).status).toBe(403);
    expect((await call('GET', `/api/get-students?classId=${group._id}`, student.token)).status).toBe(403);
    // The teacher's roster and leaderboard of the group no longer list the student.
    expect((await call('GET', `/api/get-students?classId=${group._id}`, teacher.token)).body.data).toEqual([]);
  });
});

describe('adding a student into a class', () => {
  it('creates the account in an active class of the caller only, and changes nothing when refused', async () => {
    const [teacher, stranger] = [await signUpTeacher(t), await signUpTeacher(t)];
    const created = await createClass(teacher.token);
    const { classCode: _ignored, ...registration } = buildStudentRegistration({ name: 'Noor Added' });
    const before = await tableCount(students);
    expect((await call('POST', `/api/classes/${created._id}/students`, stranger.token, registration)).status).toBe(403);
    const withClass = await call('POST', `/api/classes/${created._id}/students`, teacher.token, {
      ...registration,
      class: 'Elsewhere',
    });
    expect(withClass.body.code).toBe('UNKNOWN_FIELD');
    await call('POST', `/api/classes/${created._id}/archive`, teacher.token);
    const archived = await call('POST', `/api/classes/${created._id}/students`, teacher.token, registration);
    expect(archived.body.code).toBe('CLASS_ARCHIVED');
    expect(await tableCount(students)).toBe(before);

    await call('POST', `/api/classes/${created._id}/unarchive`, teacher.token);
    const added = await call('POST', `/api/classes/${created._id}/students`, teacher.token, registration);
    expect(added.status, added.raw).toBe(201);
    expect(added.body.data).toMatchObject({ name: 'Noor Added', rollNumber: registration.rollNumber });
    const again = await call('POST', `/api/classes/${created._id}/students`, teacher.token, registration);
    expect(again.body.code).toBe('ROLL_NUMBER_TAKEN');
    expect(await tableCount(students)).toBe(before + 1);

    const login = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: registration.rollNumber, password: registration.password },
    });
    const theirClasses = await call('GET', '/api/student/classes', login.body.data as string);
    expect(theirClasses.body.data.map((entry: { _id: string }) => entry._id)).toEqual([created._id]);
  });
});
