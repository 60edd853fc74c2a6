import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quizAttempts, quizzes } from '../../db/schema.ts';
import { classTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * The gradebook through the API (decision 062): the columns, each cell's state, the averages
 * weighted by points over what the student sees, sorting, filtering and paging in SQL, the
 * teachers' and the student's views, and who is refused.
 */

let t: TestApp;
type Actor = { token: string; profile: { _id: string } };
const as = (actor: Actor) => bearer(actor.token);
const DAY = 86_400_000;
const statements: string[] = [];
let counting = false;

let teacher: Actor;
let coTeacher: Actor;
let otherTeacher: Actor;
let klass: { id: string; joinCode: string };
let otherClass: { id: string; joinCode: string };
let ada: Actor;
let ben: Actor & { registration: { rollNumber: string } };
let cy: Actor;
let outsider: Actor;
const ids = { pastAssignment: '', pastQuiz: '', openQuiz: '', ungraded: '' };

async function addQuiz(deadline: Date, reviewScore: 'after-submit' | 'after-deadline') {
  const created = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: as(teacher),
    payload: buildNewQuiz({ classId: klass.id }),
  });
  expect(created.status, created.raw).toBe(201);
  const id = created.body.data._id as string;
  // The deadline and the close set as the test needs them (a quiz cannot be made with a past deadline).
  await t.database.db
    .update(quizzes)
    .set({ deadline, closesAt: new Date(deadline.getTime() + 11 * 60_000), reviewScore })
    .where(eq(quizzes.id, id));
  return id;
}

async function attempt(student: Actor, quizId: string, score: number | null) {
  await t.database.db.insert(quizAttempts).values({
    quizId,
    studentId: student.profile._id,
    startedAt: new Date(Date.now() - 3 * DAY),
    endsAt: new Date(Date.now() - 3 * DAY + 600_000),
    layout: [],
    ...(score === null ? {} : { submittedAt: new Date(Date.now() - 3 * DAY), endedBy: 'submitted', score }),
  });
}

async function addAssignment(points: number | null, dueAt: Date | null) {
  const created = await t.call({
    method: 'POST',
    url: '/api/assignments',
    headers: as(teacher),
    payload: {
      classIds: [klass.id],
      title: `Homework ${points ?? 'ungraded'}`,
      instructions: '',
      points,
      dueAt: dueAt?.toISOString() ?? null,
      acceptLate: true,
    },
  });
  expect(created.status, created.raw).toBe(201);
  return created.body.data._id as string;
}

async function handIn(student: Actor, id: string) {
  const answer = await t.call({
    method: 'POST',
    url: `/api/student/assignments/${id}/hand-in`,
    headers: as(student),
    payload: { text: 'My work', version: 0 },
  });
  expect(answer.status, answer.raw).toBe(200);
}

async function grade(student: Actor, id: string, points: number, feedback: string, andReturn: boolean) {
  const graded = await t.call({
    method: 'PUT',
    url: `/api/assignments/${id}/hand-ins/${student.profile._id}/grade`,
    headers: as(teacher),
    payload: { points, feedback, version: 1 },
  });
  expect(graded.status, graded.raw).toBe(200);
  if (!andReturn) return;
  const returned = await t.call({
    method: 'POST',
    url: `/api/assignments/${id}/hand-ins/${student.profile._id}/return`,
    headers: as(teacher),
  });
  expect(returned.status, returned.raw).toBe(200);
}

const rows = (caller: Actor, query = '', classId = klass.id) =>
  t.call({ method: 'GET', url: `/api/classes/${classId}/gradebook${query}`, headers: as(caller) });
const names = async (query: string) =>
  ((await rows(teacher, query)).body.data as { name: string }[]).map((row) => row.name);

beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 }, onQuery: (query) => counting && statements.push(query) });
  teacher = await signUpTeacher(t);
  coTeacher = await signUpTeacher(t);
  otherTeacher = await signUpTeacher(t);
  klass = await classTaughtBy(t, teacher, [coTeacher]);
  otherClass = await classTaughtBy(t, otherTeacher);
  ada = await signUpStudent(t, { name: 'Ada Gradebook', classCode: klass.joinCode });
  ben = await signUpStudent(t, { name: 'Ben Gradebook', classCode: klass.joinCode });
  cy = await signUpStudent(t, { name: 'Cy Gradebook', classCode: klass.joinCode });
  outsider = await signUpStudent(t, { classCode: otherClass.joinCode });

  // Columns by due time: the assignment two days ago, the quiz yesterday, the quiz tomorrow, the undated one.
  ids.pastAssignment = await addAssignment(10, new Date(Date.now() - 2 * DAY));
  ids.pastQuiz = await addQuiz(new Date(Date.now() - DAY), 'after-deadline');
  ids.openQuiz = await addQuiz(new Date(Date.now() + DAY), 'after-submit');
  ids.ungraded = await addAssignment(null, null);

  await attempt(ada, ids.openQuiz, 3);
  await attempt(ben, ids.openQuiz, 1);
  await attempt(ada, ids.pastQuiz, 2);
  await attempt(cy, ids.pastQuiz, null);
  await handIn(ada, ids.pastAssignment);
  await handIn(ben, ids.pastAssignment);
  await grade(ada, ids.pastAssignment, 8, 'Good work', true);
  await grade(ben, ids.pastAssignment, 5, 'Not returned yet', false);
  await handIn(ada, ids.ungraded);
});
afterAll(() => t.close());

describe('the class gradebook', () => {
  it('lists the class’s quizzes and assignments as columns, by due time', async () => {
    const columns = await t.call({
      method: 'GET',
      url: `/api/classes/${klass.id}/gradebook/columns`,
      headers: as(coTeacher),
    });
    expect(columns.status, columns.raw).toBe(200);
    expect(columns.body.data.items.map((item: { _id: string }) => item._id)).toEqual([
      ids.pastAssignment,
      ids.pastQuiz,
      ids.openQuiz,
      ids.ungraded,
    ]);
    expect(columns.body.data.items[0]).toMatchObject({ kind: 'assignment', points: 10, archived: false });
    expect(columns.body.data.items[1]).toMatchObject({ kind: 'quiz', points: 3 });
    expect(columns.body.data.items[3]).toMatchObject({ points: null, dueAt: null });
  });

  it('gives each cell its state and each student the average weighted by points over what they see', async () => {
    const answer = await rows(teacher);
    expect(answer.status, answer.raw).toBe(200);
    const [adaRow, benRow, cyRow] = answer.body.data;
    // 8/10 returned + 2/3 released after the deadline + 3/3 released at once = 13/16.
    expect(adaRow).toMatchObject({ name: 'Ada Gradebook', earned: 13, possible: 16, average: 81.25, missing: 0 });
    expect(adaRow.cells).toEqual([
      // Handed in after its due time: late, still graded.
      { state: 'scored', points: 8, late: true },
      { state: 'scored', points: 2, late: false },
      { state: 'scored', points: 3, late: false },
      { state: 'done', points: null, late: false },
    ]);
    // Ben's graded work is not returned: the teacher sees it, his average does not count it. The past quiz is missing.
    expect(benRow).toMatchObject({ earned: 1, possible: 3, average: 33.33, missing: 1 });
    expect(benRow.cells.map((cell: { state: string }) => cell.state)).toEqual([
      'unreleased',
      'missing',
      'scored',
      'not-handed-in',
    ]);
    expect(benRow.cells[0].points).toBe(5);
    expect(cyRow).toMatchObject({ average: null, earned: 0, possible: 0, missing: 1 });
    expect(cyRow.cells.map((cell: { state: string }) => cell.state)).toEqual([
      'missing',
      'in-progress',
      'not-due',
      'not-handed-in',
    ]);
  });

  it('sorts, filters and pages in SQL, with one statement for the totals', async () => {
    expect(await names('?sort=average&order=desc')).toEqual(['Ada Gradebook', 'Ben Gradebook', 'Cy Gradebook']);
    expect(await names('?sort=average&order=asc')).toEqual(['Ben Gradebook', 'Ada Gradebook', 'Cy Gradebook']);
    expect(await names('?order=desc')).toEqual(['Cy Gradebook', 'Ben Gradebook', 'Ada Gradebook']);
    expect(await names('?missing=true')).toEqual(['Ben Gradebook', 'Cy Gradebook']);
    expect(await names('?search=BEN')).toEqual(['Ben Gradebook']);
    expect(await names(`?search=${encodeURIComponent(ben.registration.rollNumber)}`)).toEqual(['Ben Gradebook']);
    expect(await names('?search=%25')).toEqual([]);
    const firstPage = await rows(teacher, '?sort=roll-number&limit=2');
    const secondPage = await rows(teacher, '?sort=roll-number&limit=2&offset=2');
    expect(firstPage.body.page).toMatchObject({ hasMore: true });
    expect(secondPage.body.page).toMatchObject({ hasMore: false });
    expect(firstPage.body.data.length + secondPage.body.data.length).toBe(3);
    // A row has the same totals and cells on whichever page it is listed, and in a filtered list.
    const everyone = (await rows(teacher, '?sort=roll-number')).body.data as { name: string }[];
    for (const [offset, row] of everyone.entries())
      expect((await rows(teacher, `?sort=roll-number&limit=1&offset=${offset}`)).body.data).toEqual([row]);
    const cyRow = everyone.find((row) => row.name === 'Cy Gradebook');
    expect((await rows(teacher, '?missing=true&search=cy')).body.data).toEqual([cyRow]);

    statements.length = 0;
    counting = true;
    await rows(teacher, '?sort=average');
    counting = false;
    // The class check, the columns, the totals, the attempts and the hand-ins: never a statement per student.
    expect(statements.length).toBeLessThanOrEqual(5);
  });

  it('refuses a page laid under other columns than the class has now', async () => {
    const { key } = (
      await t.call({ method: 'GET', url: `/api/classes/${klass.id}/gradebook/columns`, headers: as(teacher) })
    ).body.data;
    expect((await rows(teacher, `?columns=${key}`)).status).toBe(200);
    const stale = await rows(teacher, '?columns=another-order');
    expect([stale.status, stale.body.code]).toEqual([409, 'GRADEBOOK_CHANGED']);
  });

  it('is for the class’s teachers only', async () => {
    expect((await rows(coTeacher)).status).toBe(200);
    expect((await rows(otherTeacher)).status).toBe(403);
    expect((await rows(ada)).status).toBe(403);
    expect((await rows(teacher, '', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await rows(teacher, '?sort=grade')).status).toBe(400);
  });
});

describe('a student’s own grades', () => {
  const grades = (student: Actor, classId = klass.id) =>
    t.call({ method: 'GET', url: `/api/student/classes/${classId}/grades`, headers: as(student) });

  it('shows their own row with the feedback of returned work', async () => {
    const answer = await grades(ada);
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.body.data).toMatchObject({ class: { _id: klass.id }, average: 81.25, missing: 0 });
    expect(answer.body.data.grades[0]).toEqual({
      item: expect.objectContaining({ _id: ids.pastAssignment }),
      cell: { state: 'scored', points: 8, late: true },
      feedback: 'Good work',
      changedAfterReturn: false,
    });
    expect(answer.raw).not.toContain('Ben Gradebook');
  });

  it('never shows points or feedback not yet returned', async () => {
    const answer = await grades(ben);
    expect(answer.body.data).toMatchObject({ average: 33.33, missing: 1 });
    expect(answer.body.data.grades[0]).toMatchObject({ cell: { state: 'to-grade', points: null }, feedback: null });
    expect(answer.raw).not.toContain('Not returned yet');
  });

  it('is refused for a class the student is not in', async () => {
    expect((await grades(outsider)).status).toBe(403);
    expect((await grades(ada, otherClass.id)).status).toBe(403);
    expect((await grades(ada, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
