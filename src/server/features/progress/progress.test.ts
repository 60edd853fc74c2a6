import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { identityKey } from '#shared/identity';
import { LEADERBOARD, type LeaderboardEntry } from '#shared/progress';
import type { QuizQuestion } from '#shared/quizzes';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildNewQuiz } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { classes } from '../../db/schema.ts';
import { leaderboardStatement } from './service.ts';
import { patience } from '../../testing/patience.ts';

let t: TestApp;
let queries: string[] = [];

type Teacher = Awaited<ReturnType<typeof signUpTeacher>>;
type Student = Awaited<ReturnType<typeof signUpStudent>>;
type Actor = Teacher | Student;

const as = (actor: Actor) => bearer(actor.token);
/** A class name no other test uses, so each test reads its own leaderboard. */
const newClass = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;

/** The right answer of each question of buildNewQuiz(). */
const RIGHT: Record<string, string> = {
  'What is 2 + 2?': '4',
  'What is the capital of France?': 'Paris',
  'Which is a prime number?': '7',
};

async function createQuiz(teacher: Teacher, className: string) {
  const response = await t.call({
    method: 'POST',
    url: '/api/teacher/add-quiz',
    headers: as(teacher),
    payload: buildNewQuiz({ classId: await classIdTaughtBy(t, teacher, className) }),
  });
  expect(response.status, response.raw).toBe(201);
  return response.body.data as { _id: string; subject: string };
}

const startQuiz = async (student: Student, quizId: string) => {
  const started = await t.call({ method: 'POST', url: `/api/quiz/${quizId}/start`, headers: as(student) });
  expect(started.status, started.raw).toBe(200);
  return started.body.data.quiz.questions as QuizQuestion[];
};

/** Starts and submits a quiz through the API with `right` of its 3 questions answered correctly. */
async function takeQuiz(student: Student, quizId: string, right: number, timeTakenSeconds?: number) {
  const questions = await startQuiz(student, quizId);
  const submitted = await t.call({
    method: 'POST',
    url: '/api/student/update-student',
    headers: as(student),
    payload: {
      quiz: {
        _id: quizId,
        questions: questions.map((question, index) => ({
          _id: question._id,
          selectedOption:
            index < right
              ? RIGHT[question.question_text]
              : question.options!.find((option) => option.text !== RIGHT[question.question_text])!.text,
        })),
      },
    },
  });
  expect(submitted.status, submitted.raw).toBe(200);
  expect(submitted.body.data.attempt.score).toBe(right);
  // The server times attempts itself; a test that needs a known duration sets it afterwards.
  if (timeTakenSeconds !== undefined) {
    await t.database.db.execute(sql`update quiz_attempts set time_taken_seconds = ${timeTakenSeconds}
      where quiz_id = ${quizId}::uuid and student_id = ${student.profile._id}::uuid`);
  }
}

/** The tests name their classes; the API takes ids (decision 031). A name no class has: an unused id. */
const classIds = new Map<string, string>();
async function classIdOf(name: string): Promise<string> {
  if (!name.trim()) return name;
  if (!classIds.has(name)) {
    const [found] = await t.database.db
      .select({ id: classes.id })
      .from(classes)
      .where(eq(classes.nameKey, identityKey(name)));
    classIds.set(name, found?.id ?? crypto.randomUUID());
  }
  return classIds.get(name)!;
}

/** get-students; `class` (a name) is sent as its classId. */
const getStudents = async (actor: Actor, { class: className, ...query }: Record<string, string | number> = {}) => {
  const ids = className === undefined ? {} : { classId: await classIdOf(String(className)) };
  const params = new URLSearchParams(Object.entries({ ...query, ...ids }).map(([key, value]) => [key, String(value)]));
  return t.call({ method: 'GET', url: `/api/get-students?${params}`, headers: as(actor) });
};
const namesOf = (response: { body: { data: LeaderboardEntry[] } }) => response.body.data.map((entry) => entry.name);
const ranksOf = (response: { body: { data: LeaderboardEntry[] } }) => response.body.data.map((entry) => entry.rank);
const getStatistics = (actor: Actor) => t.call({ method: 'GET', url: '/api/student/statistics', headers: as(actor) });

/** A class whose students got known results: names are their expected order. */
async function rankedClass(label = 'Rank') {
  const className = newClass(label);
  const teacher = await signUpTeacher(t);
  const [first, second] = [await createQuiz(teacher, className), await createQuiz(teacher, className)];
  const student = (name: string) => signUpStudent(t, { class: className, name });
  const ada = await student('Ada'); // 3/3 and 3/3: average 3, 100 %
  const ben = await student('Ben'); // 2/3: average 2, 66.67 %
  const cleo = await student('Cleo'); // 3/3 and 0/3: average 1.5, 50 %
  const eve = await student('Eve'); // 0/3: ranked (one attempt), average 0
  const dan = await student('Dan'); // never attempted: not ranked
  const fay = await student('Fay'); // started, never submitted: not ranked
  await takeQuiz(ada, first._id, 3);
  await takeQuiz(ada, second._id, 3);
  await takeQuiz(ben, first._id, 2);
  await takeQuiz(cleo, first._id, 3);
  await takeQuiz(cleo, second._id, 0);
  await takeQuiz(eve, first._id, 0);
  await startQuiz(fay, first._id);
  return { className, teacher, ada, ben, cleo, eve, dan, fay };
}

beforeAll(async () => {
  t = await createTestApp({ onQuery: (query) => queries.push(query) });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  queries = [];
});

describe('GET /api/get-students (leaderboards)', () => {
  it('lists only students with an attempted quiz, best average first, with their rank and aggregates', async () => {
    const { className, teacher, ben } = await rankedClass();
    const response = await getStudents(teacher, { class: className });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toEqual([
      expect.objectContaining({ name: 'Ada', class: className, averageScore: 3, averageAccuracy: 100, totalScore: 6 }),
      expect.objectContaining({ name: 'Ben', averageScore: 2, averageAccuracy: 66.67, totalScore: 2 }),
      expect.objectContaining({ name: 'Cleo', averageScore: 1.5, averageAccuracy: 50, totalScore: 3 }),
      expect.objectContaining({ name: 'Eve', averageScore: 0, averageAccuracy: 0, totalScore: 0 }),
    ]);
    expect(response.body.data.map((entry: LeaderboardEntry) => entry.quizzesAttempted)).toEqual([2, 1, 2, 1]);
    expect(ranksOf(response)).toEqual([1, 2, 3, 4]);
    expect(response.body.page).toEqual({ offset: 0, limit: LEADERBOARD.pageSizeDefault, hasMore: false });

    // A student sees the same leaderboard of their class, without asking for it.
    const asStudent = await getStudents(ben);
    expect(asStudent.status).toBe(200);
    expect(asStudent.body.data).toEqual(response.body.data);
    expect((await getStudents(ben, { class: className })).body.data).toEqual(response.body.data);
  });

  it('ranks equal averages alike (1, 1, 3), lists them by name, the same way on every page', async () => {
    const className = newClass('Tie');
    const teacher = await signUpTeacher(t);
    const quiz = await createQuiz(teacher, className);
    // Signed up out of name order, so ids cannot give the order by chance.
    const results: [string, number][] = [
      ['Zed', 3],
      ['Amy', 3],
      ['Kim', 2],
      ['Max', 2],
      ['Flo', 2],
      ['Bo', 0],
    ];
    for (const [name, right] of results) {
      const student = await signUpStudent(t, { class: className, name });
      await takeQuiz(student, quiz._id, right);
    }
    const all = await getStudents(teacher, { class: className });
    expect(namesOf(all)).toEqual(['Amy', 'Zed', 'Flo', 'Kim', 'Max', 'Bo']);
    expect(ranksOf(all)).toEqual([1, 1, 3, 3, 3, 6]);
    // Pages of 2 cut through both groups of equal averages: same order, same ranks.
    const pages = [];
    for (const offset of [0, 2, 4]) {
      const page = await getStudents(teacher, { class: className, limit: 2, offset });
      pages.push(...page.body.data);
    }
    expect(pages).toEqual(all.body.data);
    // All classes: the rank counts everyone with a better average, in any class.
    const everyone: LeaderboardEntry[] = (await getStudents(teacher, { limit: LEADERBOARD.pageSizeMax })).body.data;
    for (const entry of everyone) {
      expect(entry.rank).toBe(everyone.filter((other) => other.averageScore > entry.averageScore).length + 1);
    }
    // A search keeps the rank, tie included.
    const max = await getStudents(teacher, { class: className, search: 'max' });
    expect(namesOf(max)).toEqual(['Max']);
    expect(ranksOf(max)).toEqual([3]);
  });

  it('a same name with the same average is ordered by id, so pages never overlap', async () => {
    const className = newClass('Twin');
    const teacher = await signUpTeacher(t);
    const quiz = await createQuiz(teacher, className);
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const student = await signUpStudent(t, { class: className, name: 'Sam' });
      await takeQuiz(student, quiz._id, 2);
      ids.push(student.profile._id);
    }
    const all = await getStudents(teacher, { class: className });
    expect(all.body.data.map((entry: LeaderboardEntry) => entry._id)).toEqual([...ids].sort());
    expect(ranksOf(all)).toEqual([1, 1, 1, 1]);
    const pages = [
      ...(await getStudents(teacher, { class: className, limit: 3 })).body.data,
      ...(await getStudents(teacher, { class: className, limit: 3, offset: 3 })).body.data,
    ];
    expect(pages).toEqual(all.body.data);
  });

  it('gives a teacher every class, ranked together, or one class with ranks inside it', async () => {
    const first = await rankedClass('All-1');
    const second = await rankedClass('All-2');
    const everyone = await getStudents(first.teacher, { limit: LEADERBOARD.pageSizeMax });
    expect(everyone.status).toBe(200);
    const entries: LeaderboardEntry[] = everyone.body.data;
    expect(entries.length).toBeGreaterThanOrEqual(8);
    expect(entries.map((entry) => entry.class)).toEqual(expect.arrayContaining([first.className, second.className]));
    // Both classes got the same results: equal averages share a rank (1, 1, 3, 3, ...).
    expect(entries.map((entry) => entry.rank)).toEqual(
      entries.map((entry) => entries.filter((other) => other.averageScore > entry.averageScore).length + 1),
    );
    const scores = entries.map((entry) => entry.averageScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(entries.some((entry) => ['Dan', 'Fay'].includes(entry.name))).toBe(false);

    const oneClass = await getStudents(first.teacher, { class: second.className });
    expect(oneClass.body.data.map((entry: LeaderboardEntry) => entry.class)).toEqual(Array(4).fill(second.className));
    expect(ranksOf(oneClass)).toEqual([1, 2, 3, 4]);
    // Blank class means all classes.
    expect((await getStudents(first.teacher, { class: '  ', limit: 100 })).body.data).toEqual(entries);
    expect((await getStudents(first.teacher, { class: 'No-such-class' })).body.data).toEqual([]);
  });

  it('searches names case-insensitively as a substring, taking % _ and \\ literally, and keeps the real rank', async () => {
    const className = newClass('Search');
    const teacher = await signUpTeacher(t);
    const quiz = await createQuiz(teacher, className);
    // Signed up in this order (3, 2, 1, 1, 0 right answers); the two with 1 share rank 3.
    const results: [string, number][] = [
      ['Ada Lovelace', 3],
      ['Grace 100%', 2],
      ['Bad_Ada', 1],
      ['Back\\slash', 1],
      ['Alan Turing', 0],
    ];
    for (const [name, right] of results) {
      const student = await signUpStudent(t, { class: className, name });
      await takeQuiz(student, quiz._id, right);
    }
    const search = (text: string) => getStudents(teacher, { class: className, search: text });

    const ada = await search('aDA');
    expect(namesOf(ada)).toEqual(['Ada Lovelace', 'Bad_Ada']);
    expect(ranksOf(ada)).toEqual([1, ada.body.data[1].rank]);
    expect(ada.body.data[1].rank).toBeGreaterThanOrEqual(3);
    expect(namesOf(await search('%'))).toEqual(['Grace 100%']);
    expect(namesOf(await search('_'))).toEqual(['Bad_Ada']);
    expect(namesOf(await search('\\'))).toEqual(['Back\\slash']);
    expect(namesOf(await search('a%'))).toEqual([]);
    expect(namesOf(await search('  turing '))).toEqual(['Alan Turing']);
    expect(ranksOf(await search('turing'))).toEqual([5]);
    const none = await search('zzz');
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    // A blank search lists everyone.
    expect(namesOf(await search('   '))).toHaveLength(5);
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });

  it('pages on the server and says whether more follow', async () => {
    const className = newClass('Page');
    const teacher = await signUpTeacher(t);
    const quiz = await createQuiz(teacher, className);
    for (const right of [3, 3, 2, 1, 0]) {
      const student = await signUpStudent(t, { class: className });
      await takeQuiz(student, quiz._id, right);
    }
    const page = (offset: number) => getStudents(teacher, { class: className, limit: 2, offset });
    const [first, second, third] = [await page(0), await page(2), await page(4)];
    expect(ranksOf(first)).toEqual([1, 1]);
    expect(first.body.page).toEqual({ offset: 0, limit: 2, hasMore: true });
    expect(ranksOf(second)).toEqual([3, 4]);
    expect(second.body.page.hasMore).toBe(true);
    expect(ranksOf(third)).toEqual([5]);
    expect(third.body.page).toEqual({ offset: 4, limit: 2, hasMore: false });
    expect([...first.body.data, ...second.body.data, ...third.body.data].map((entry) => entry.averageScore)).toEqual([
      3, 3, 2, 1, 0,
    ]);
  });

  it.each([
    ['limit', { limit: LEADERBOARD.pageSizeMax + 1 }],
    ['limit', { limit: 0 }],
    ['offset', { offset: -1 }],
    ['search', { search: 'x'.repeat(101) }],
    ['search', { search: 'a\u0000b' }],
    ['classId', { classId: 'not-a-class-id' }],
  ])('refuses a bad %s with 400', async (field, query) => {
    const teacher = await signUpTeacher(t);
    const response = await getStudents(teacher, query);
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('keeps a student to their own class: another class is 403, and a token is required', async () => {
    const mine = await rankedClass('Mine');
    const theirs = await rankedClass('Theirs');
    const refused = await getStudents(mine.ben, { class: theirs.className });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, data: null });
    expect(refused.raw).not.toContain('Ada');
    // Searching cannot reach out of the class either.
    const searched = await getStudents(mine.ben, { search: 'a' });
    expect(new Set(searched.body.data.map((entry: LeaderboardEntry) => entry.class))).toEqual(
      new Set([mine.className]),
    );
    expect((await t.call({ method: 'GET', url: '/api/get-students' })).status).toBe(401);
    expect(
      (await t.call({ method: 'GET', url: '/api/get-students', headers: { authorization: 'Bearer forged' } })).status,
    ).toBe(401);
  });

  it('never carries contact details, roll numbers or hashes', async () => {
    const { className, teacher, ada, ben } = await rankedClass('Private');
    for (const response of [await getStudents(teacher, { class: className }), await getStudents(ben)]) {
      expect(response.status).toBe(200);
      for (const account of [ada, ben]) {
        expect(response.raw).not.toContain(account.registration.email);
        expect(response.raw).not.toContain(account.registration.rollNumber);
        expect(response.raw).not.toContain(account.registration.parentEmail);
        expect(response.raw).not.toContain(account.registration.parentName);
      }
      expect(response.raw).not.toMatch(/email|rollNumber|parent|password|\$argon2|tasks/i);
      for (const entry of response.body.data) {
        expect(Object.keys(entry).sort()).toEqual(
          ['_id', 'averageAccuracy', 'averageScore', 'class', 'name', 'quizzesAttempted', 'rank', 'totalScore'].sort(),
        );
      }
    }
  });

  it('runs a constant number of queries however many students there are', async () => {
    const { className, teacher, ben } = await rankedClass('Count');
    const count = async (work: () => Promise<unknown>) => {
      queries = [];
      await work();
      return queries.length;
    };
    const measure = async () => ({
      teacherAll: await count(() => getStudents(teacher)),
      // Another search than the student's: the same class and search would share one cached page.
      teacherClass: await count(() => getStudents(teacher, { class: className, search: 'a' })),
      student: await count(() => getStudents(ben, { search: 'e' })),
      statistics: await count(() => getStatistics(ben)),
    });
    await getStudents(ben); // the student's classes are read once, then kept until they join or leave one
    await classIdOf(className); // the test's own look-up of the id, not the server's
    const quiz = await createQuiz(teacher, className);
    const few = await measure();
    // Nothing changed: every leaderboard page comes from the read cache (statistics are not kept:
    // the student, their attempts' review options (decision 032), the grouped figures).
    expect(await measure()).toEqual({ teacherAll: 0, teacherClass: 0, student: 0, statistics: 3 });
    for (let index = 0; index < 5; index += 1) {
      await takeQuiz(await signUpStudent(t, { class: className }), quiz._id, index % 4);
    }
    await takeQuiz(ben, quiz._id, 3);
    // Attempts closed: the pages are read again, in as many statements as before.
    expect(await measure()).toEqual(few);
    // A class is asked for by its id (decision 031): no look-up of a name first.
    expect(few).toEqual({ teacherAll: 1, teacherClass: 1, student: 1, statistics: 3 });
  });
});

describe('GET /api/student/statistics', () => {
  it('computes the caller’s averages per subject of the quiz and overall, to 2 decimals', async () => {
    const className = newClass('Stats');
    const maths = await signUpTeacher(t, { subject: 'Mathematics' });
    const physics = await signUpTeacher(t, { subject: 'Physics' });
    const [algebra, geometry] = [await createQuiz(maths, className), await createQuiz(maths, className)];
    const motion = await createQuiz(physics, className);
    const unfinished = await createQuiz(physics, className);
    expect([algebra.subject, motion.subject]).toEqual(['Mathematics', 'Physics']);

    const me = await signUpStudent(t, { class: className, name: 'Marie Curie' });
    await takeQuiz(me, algebra._id, 3, 90); // 100 %
    await takeQuiz(me, geometry._id, 1, 150); // 33.33 %
    await takeQuiz(me, motion._id, 2, 100); // 66.67 %
    await startQuiz(me, unfinished._id); // in progress: not counted
    // A classmate's attempts are theirs alone.
    const classmate = await signUpStudent(t, { class: className });
    await takeQuiz(classmate, algebra._id, 0, 500);
    await takeQuiz(classmate, unfinished._id, 3, 30);

    const response = await getStatistics(me);
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toEqual({
      name: 'Marie Curie',
      averageScore: 2,
      averageAccuracy: 66.67,
      quizzesAttempted: 3,
      subjects: [
        // (100 + 33.33) / 2 = 66.665 -> 66.67; (90 + 150) / 2 s = 2 minutes.
        { subject: 'Mathematics', averageAccuracy: 66.67, averageScore: 2, testsAttempted: 2, averageTimeMinutes: 2 },
        // 100 s = 1.666… minutes.
        { subject: 'Physics', averageAccuracy: 66.67, averageScore: 2, testsAttempted: 1, averageTimeMinutes: 1.67 },
      ],
    });

    // The leaderboard's stored aggregates agree with the statistics computed from the attempts.
    const [entry] = (await getStudents(me, { search: 'Marie Curie' })).body.data;
    expect(entry).toMatchObject({ averageScore: 2, averageAccuracy: 66.67, quizzesAttempted: 3, totalScore: 6 });

    const theirs = await getStatistics(classmate);
    expect(theirs.body.data.subjects).toEqual([
      { subject: 'Mathematics', averageAccuracy: 0, averageScore: 0, testsAttempted: 1, averageTimeMinutes: 8.33 },
      { subject: 'Physics', averageAccuracy: 100, averageScore: 3, testsAttempted: 1, averageTimeMinutes: 0.5 },
    ]);
  });

  it('is empty for a student with no submitted quiz', async () => {
    const student = await signUpStudent(t, { class: newClass('Empty'), name: 'New Kid' });
    const response = await getStatistics(student);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      name: 'New Kid',
      averageScore: 0,
      averageAccuracy: 0,
      quizzesAttempted: 0,
      subjects: [],
    });
  });

  it('is for students only, and only ever about the caller', async () => {
    const teacher = await signUpTeacher(t);
    expect((await getStatistics(teacher)).status).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/student/statistics' })).status).toBe(401);
    // There is no way to name another student: a query for one is ignored.
    const { ada, ben } = await rankedClass('Own');
    const response = await t.call({
      method: 'GET',
      url: `/api/student/statistics?studentId=${ada.profile._id}`,
      headers: as(ben),
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ name: 'Ben', quizzesAttempted: 1, averageScore: 2 });
  });
});

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Parent Relationship'?: string; Plans?: PlanNode[] };

/**
 * The plan's nodes, outermost first, without its SubPlans: a row's class names (classNamesOf,
 * run for the page's rows only, sorting that student's few classes) are not the board's walk.
 */
function planNodes(node: PlanNode): PlanNode[] {
  const children = (node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan');
  return [node, ...children.flatMap(planNodes)];
}

const describePlan = (nodes: PlanNode[]) =>
  nodes.map((node) => node['Node Type'] + (node['Index Name'] ? ` using ${node['Index Name']}` : '')).join(' > ');

// Last in the file: it adds 100,000 ranked students, which every later all-classes read would see.
describe('leaderboard at scale', () => {
  it('walks the leaderboard indexes with 100,000 ranked students', { timeout: patience(180_000) }, async () => {
    const db = t.database.db;
    const inserting = performance.now();
    await db.execute(sql`
      insert into students (name, roll_number, roll_number_key, email, email_key, parent_name, parent_email, password_hash,
                            average_score, average_accuracy, total_score, quizzes_attempted)
      -- ASCII identities: their keys (decision 024) are their lower case.
      select 'Scale student ' || g, 'scale-' || g, 'scale-' || g, 'scale.' || g || '@school.test',
             'scale.' || g || '@school.test', 'Parent ' || g, 'parent.' || g || '@family.test', 'not-a-hash',
             s.score, s.score * 10, s.score * 3, 3
      -- Averages spread over 0..10 in steps of 0.01, with many ties, as in a real school.
      from generate_series(1, 100000) as g, lateral (select ((g * 7919) % 1001) / 100.0 as score) as s`);
    // Each in one of 40 class records (decision 031): student g in class Scale-(g % 40).
    await db.execute(
      sql`insert into classes (name, name_key) select 'Scale-' || c, 'scale-' || c from generate_series(0, 39) as c`,
    );
    await db.execute(sql`
      insert into class_students (class_id, student_id)
      select classes.id, students.id from students
      join classes on classes.name_key = 'scale-' || (substring(students.roll_number_key from 7)::int % 40)
      where students.roll_number_key like 'scale-%'`);
    await db.execute(sql`analyze students`);
    await db.execute(sql`analyze class_students`);
    const insertMs = performance.now() - inserting;

    const explain = async (statement: ReturnType<typeof leaderboardStatement>) => {
      const result = await db.execute(sql`explain (format json) ${statement}`);
      const row = (result as { rows: Record<string, unknown>[] }).rows[0]!;
      const plan = Object.values(row)[0];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
      return planNodes(parsed[0]!.Plan);
    };
    const page = { offset: 0, limit: LEADERBOARD.pageSizeDefault };

    /**
     * The board's head is cut (Limit) straight from the walk of the index, then ranked: nothing
     * sorts, not even a tie group (an Incremental Sort by name and id after the window sorted the
     * 100 students of each average here, and every tie group a page reached).
     */
    const expectIndexWalk = (nodes: PlanNode[], index: string) => {
      const window = nodes.findIndex((node) => node['Node Type'] === 'WindowAgg');
      expect(window, describePlan(nodes)).toBeGreaterThanOrEqual(0);
      const limit = nodes.findIndex((node, at) => at > window && node['Node Type'] === 'Limit');
      expect(nodes[limit + 1], describePlan(nodes)).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': index });
      expect(
        nodes.map((node) => node['Node Type']).filter((type) => type.endsWith('Sort')),
        describePlan(nodes),
      ).toEqual([]);
    };

    const allClasses = await explain(leaderboardStatement(db, {}, page));
    expectIndexWalk(allClasses, 'students_leaderboard_idx');
    const [scale7] = (
      (await db.execute(sql`select id from classes where name_key = ${identityKey('Scale-7')}`)) as {
        rows: { id: string }[];
      }
    ).rows;
    const oneClass = await explain(leaderboardStatement(db, { classId: scale7!.id }, page));
    // One class: the walk of the whole school's index, each student probed in the class's
    // memberships (an index of class_students, whichever the planner picks), cut by the Limit,
    // then ranked; nothing sorts.
    expect(describePlan(oneClass)).toContain(
      'Limit > Nested Loop > Index Scan using students_leaderboard_idx > Index Only Scan using class_students_',
    );
    expect(oneClass.map((node) => node['Node Type']).filter((type) => type.endsWith('Sort'))).toEqual([]);
    // A deep page walks down to its end and ranks that head, still without a sort.
    expectIndexWalk(
      await explain(leaderboardStatement(db, {}, { offset: 5000, limit: 50 })),
      'students_leaderboard_idx',
    );

    // A search ranks the whole leaderboard before filtering names: one pass, whichever way the planner picks.
    const searched = await explain(leaderboardStatement(db, { search: '99' }, page));

    // Timings are information for the report, not assertions: machines differ.
    const teacher = await signUpTeacher(t);
    const timed = async (query: Record<string, string | number>) => {
      const started = performance.now();
      const response = await getStudents(teacher, query);
      expect(response.status).toBe(200);
      return { ms: Math.round(performance.now() - started), rows: response.body.data.length };
    };
    await timed({}); // warm-up
    const timings = {
      firstPage: await timed({}),
      deepPage: await timed({ offset: 5000 }),
      oneClass: await timed({ class: 'Scale-7' }),
      search: await timed({ search: 'student 9999' }),
      searchInClass: await timed({ class: 'Scale-7', search: '77' }),
    };
    const top = (await getStudents(teacher, { limit: 3 })).body.data as LeaderboardEntry[];
    // Many students share the best average: they share rank 1.
    expect(top.map((entry) => entry.rank)).toEqual(
      top.map((entry) => top.filter((other) => other.averageScore > entry.averageScore).length + 1),
    );
    expect(top[0]!.averageScore).toBeGreaterThanOrEqual(top[2]!.averageScore);
    console.info(
      `[leaderboard at scale, ${t.database.kind}] insert+analyze 100k: ${Math.round(insertMs)} ms;`,
      JSON.stringify(timings),
      '\nplans:',
      JSON.stringify({
        allClasses: describePlan(allClasses),
        oneClass: describePlan(oneClass),
        searched: describePlan(searched),
      }),
    );
  });
});
