import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  averageOf,
  type GradebookCell,
  type GradebookColumns,
  type GradebookItem,
  type GradebookQuery,
  type GradebookRow,
  type StudentGradebook,
} from '#shared/gradebook';
import type { HandInState } from '#shared/assignments';
import type { Database } from '../../db/client.ts';
import { containsPattern } from '../../db/like-pattern.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { isStudentOfClass, requireTaughtClass } from '../classes/records.ts';
import { toPage, type ListedPage } from '../quizzes/quiz-records.ts';
import { cellsPresenter, presentItem, type ItemRow, type WorkRow } from './presenters.ts';

/**
 * The gradebook (issue 33 point 4, decision 062). Its columns are the class's quizzes and the
 * assignments for it; its rows the class's students, whose totals (points earned and possible
 * over what the student sees, missing work) are computed, filtered, sorted and paged, and the
 * page's cells read, in one prepared SQL statement over the items read first (`pageStatement`).
 */

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * A quiz's score counts, and its student sees it, once submitted with every essay marked and
 * released by its review option (review-rules.ts isScoreReleased, in SQL); `i` is the quiz's item.
 */
const quizCounts = (now: SQL) =>
  sql`t.submitted_at is not null and t.essays_awaiting = 0 and (i.review_score = 'after-submit' or i.closes_at <= ${now})`;

/** A graded assignment's grade counts once returned. */
const workCounts = sql`h.state = 'returned' and i.points is not null and h.points is not null`;

/** The class's items, the teacher's view: every quiz of the class, every assignment for it. */
function itemsOf(classId: string): SQL {
  return sql`
    select 'quiz' as kind, q.id, q.title, q.total_points::float8 as points, q.deadline as due_at,
      q.closes_at as closes_at, q.archived_at is not null as archived, q.review_score
    from quizzes q where q.class_id = ${classId}
    union all
    select 'assignment', a.id, a.title, a.points::float8, a.due_at, a.due_at, a.archived_at is not null, null
    from assignment_classes ac join assignments a on a.id = ac.assignment_id
    where ac.class_id = ${classId}`;
}

/** What a student sees of them: not archived or with their work in, assignments once published. */
function studentItemsOf(classId: string, studentId: string, now: Date): SQL {
  return sql`
    select i.* from (${itemsOf(classId)}) i
    left join assignments a on i.kind = 'assignment' and a.id = i.id
    where (i.kind = 'quiz' and (not i.archived
        or exists (select 1 from quiz_attempts t where t.quiz_id = i.id and t.student_id = ${studentId})))
      or (i.kind = 'assignment' and ((not i.archived and (a.publish_at is null or a.publish_at <= ${ts(now)}))
        or exists (select 1 from hand_ins h where h.assignment_id = i.id and h.student_id = ${studentId}
          and h.state <> 'draft')))`;
}

const ITEM_ORDER = sql`due_at asc nulls last, title, id`;

/** The key of the columns' order: a page of cells laid under other columns would be wrong. */
const columnsKey = (items: { id: string }[]) =>
  createHash('sha256')
    .update(items.map((item) => item.id).join(','))
    .digest('base64url')
    .slice(0, 16);

const SORTS: Record<GradebookQuery['sort'], (order: SQL) => SQL> = {
  name: (order) => sql`name collate person_name ${order}, id`,
  'roll-number': (order) => sql`roll_number ${order}, id`,
  // Students with nothing counted yet come last either way.
  average: (order) =>
    sql`case when possible > 0 then earned / possible end ${order} nulls last, name collate person_name, id`,
};

/**
 * The items of one kind as read (`readItems`), as JSON rows for the page statement, `n` an item's
 * place among the columns: the totals and the cells are of the very items the columns' key was
 * computed from, and the items are read once a request.
 */
function itemsOfKind(items: ItemRow[], kind: ItemRow['kind']): string {
  return JSON.stringify(
    items.flatMap((item, n) => {
      const { id, points, closes_at, archived, review_score } = item;
      return item.kind === kind ? [{ n, id, points, closes_at, archived, review_score }] : [];
    }),
  );
}

/** What makes two page statements differ: each is prepared once (`pageName`). */
type PageShape = {
  /** A student reads their own row, with feedback; a teacher the class's rows. */
  viewer: 'teacher' | 'student';
  sort: GradebookQuery['sort'];
  order: 'asc' | 'desc';
  missing: boolean;
  search: boolean;
};

/** The values of a page statement's placeholders. */
type PageValues = {
  quizItems: string;
  workItems: string;
  classId: string;
  /** The student's id (viewer: student). */
  studentId?: string;
  /** containsPattern of the search (search: true). */
  pattern?: string;
  now: string;
  offset: number;
  limit: number;
};

/** A listed student's totals and their work on the items: JSON [n, …] a work (`workOf`). */
type PageRow = {
  id: string;
  name: string;
  roll_number: string;
  earned: number;
  possible: number;
  missing: number;
  cells: string;
};
/** [n, submitted, score, essays awaiting] of an attempt; [n, state, late, points, changed after return, feedback] of a hand-in. */
type CellTuple = [number, ...unknown[]];

const pageName = (shape: PageShape) =>
  `gradebook_page_${shape.viewer}_${shape.sort}_${shape.order}${shape.missing ? '_missing' : ''}${shape.search ? '_search' : ''}`;

/**
 * The statement of a page of students (decision 062), with placeholders (`PageValues`). Each
 * student's totals over the items (points earned and possible over what counts: quizzes released
 * and fully marked, graded assignments returned; the items past due with nothing of theirs) are
 * summed in one pass over the items' attempts and hand-ins (one `= any(…)` bitmap scan of each
 * table), given to the roster, filtered, sorted and paged; the listed students' work comes back as
 * one JSON array each: the driver parses one value a student much faster than a row a work.
 */
function pageStatement(shape: PageShape): SQL {
  const p = sql.placeholder;
  const now = sql`${p('now')}::timestamptz`;
  const pastDue = sql`not archived and closes_at <= ${now}`;
  const student = shape.viewer === 'student';
  const roster = student
    ? sql`select s.id, s.name, s.roll_number from students s where s.id = ${p('studentId')}`
    : sql`select s.id, s.name, s.roll_number from class_students cs
        join students s on s.id = cs.student_id
        where cs.class_id = ${p('classId')}
        ${shape.search ? sql`and (s.name ilike ${p('pattern')} escape '\\' or s.roll_number ilike ${p('pattern')} escape '\\')` : sql``}`;
  const order = SORTS[shape.sort](shape.order === 'desc' ? sql`desc` : sql`asc`);
  const listed = sql`array(select id from page where position <= ${p('offset')}::int + ${p('limit')}::int)`;
  const item = sql`as i(n int, id uuid, points float8, closes_at timestamptz, archived boolean, review_score text)`;
  return sql`
    with quiz_items as (select * from json_to_recordset(${p('quizItems')}::json) ${item}),
    work_items as (select * from json_to_recordset(${p('workItems')}::json) ${item}),
    roster as (${roster}),
    quiz_totals as (
      select t.student_id,
        coalesce(sum(t.score) filter (where ${quizCounts(now)}), 0)::float8 as earned,
        coalesce(sum(i.points) filter (where ${quizCounts(now)}), 0)::float8 as possible,
        count(*) filter (where i.closes_at <= ${now} and not i.archived)::int as past_due_done
      from quiz_attempts t join quiz_items i on i.id = t.quiz_id
      where t.quiz_id = any(array(select id from quiz_items)) ${student ? sql`and t.student_id = ${p('studentId')}` : sql``}
      group by t.student_id),
    work_totals as (
      select h.student_id,
        coalesce(sum(h.points) filter (where ${workCounts}), 0)::float8 as earned,
        coalesce(sum(i.points) filter (where ${workCounts}), 0)::float8 as possible,
        count(*) filter (where h.state <> 'draft' and i.closes_at <= ${now} and not i.archived)::int as past_due_done
      from hand_ins h join work_items i on i.id = h.assignment_id
      where h.assignment_id = any(array(select id from work_items)) ${student ? sql`and h.student_id = ${p('studentId')}` : sql``}
      group by h.student_id),
    totals as (
      select r.id, r.name, r.roll_number,
        coalesce(qt.earned, 0) + coalesce(wt.earned, 0) as earned,
        coalesce(qt.possible, 0) + coalesce(wt.possible, 0) as possible,
        (select count(*) from quiz_items where ${pastDue})::int + (select count(*) from work_items where ${pastDue})::int
          - coalesce(qt.past_due_done, 0) - coalesce(wt.past_due_done, 0) as missing
      from roster r
      left join quiz_totals qt on qt.student_id = r.id
      left join work_totals wt on wt.student_id = r.id),
    page as (
      select *, row_number() over (order by ${order}) as position from totals ${shape.missing ? sql`where missing > 0` : sql``}
      order by ${order} offset ${p('offset')} limit ${p('limit')}::int + 1),
    cells as (
      select student_id, json_agg(cell) as cells from (
        select t.student_id, json_build_array(i.n, t.submitted_at is not null, t.score::float8, t.essays_awaiting) as cell
        from quiz_attempts t join quiz_items i on i.id = t.quiz_id
        where t.quiz_id = any(array(select id from quiz_items)) and t.student_id = any(${listed})
        union all
        select h.student_id, json_build_array(i.n, h.state, h.late, h.points::float8, h.grade_changed_after_return,
          ${student ? sql`h.feedback` : sql`null`})
        from hand_ins h join work_items i on i.id = h.assignment_id
        where h.assignment_id = any(array(select id from work_items)) and h.student_id = any(${listed})) work
      group by student_id)
    select p.id, p.name, p.roll_number, p.earned, p.possible, p.missing, coalesce(c.cells, '[]')::text as cells, p.position
    from page p left join cells c on c.student_id = p.id`;
}

/** A student's work by item, in the columns' order (null: nothing of theirs). */
function workOf(items: ItemRow[], cells: string): (WorkRow | null)[] {
  const work: (WorkRow | null)[] = items.map(() => null);
  for (const done of JSON.parse(cells) as CellTuple[]) {
    const n = done[0];
    work[n] =
      items[n]!.kind === 'quiz'
        ? {
            kind: 'attempt',
            submitted: done[1] as boolean,
            score: done[2] as number | null,
            essaysAwaiting: done[3] as number,
          }
        : {
            kind: 'hand-in',
            state: done[1] as HandInState,
            late: done[2] as boolean,
            points: done[3] as number | null,
            changedAfterReturn: done[4] as boolean,
            feedback: done[5] as string | null,
          };
  }
  return work;
}

export function createGradebook(db: Database) {
  const now = () => new Date();

  /** The items in the columns' order, as one JSON value: the driver parses 200 rows of 8 columns slower. */
  async function readItems(items: SQL): Promise<ItemRow[]> {
    const [row] = rowsOf<{ items: string }>(
      await db.execute(sql`select coalesce(json_agg(i order by ${ITEM_ORDER}), '[]')::text as items from (${items}) i`),
    );
    return JSON.parse(row!.items) as ItemRow[];
  }

  /**
   * The page statements, prepared per shape (as the resources' pages): PostgreSQL parses and plans
   * each once per connection instead of every request, which was a fifth of its time here.
   */
  const pages = new Map<string, ReturnType<typeof preparePage>>();
  function preparePage(shape: PageShape) {
    return db
      .select({
        id: sql<string>`id`,
        name: sql<string>`name`,
        roll_number: sql<string>`roll_number`,
        earned: sql<number>`earned`,
        possible: sql<number>`possible`,
        missing: sql<number>`missing`,
        cells: sql<string>`cells`,
      })
      .from(sql`(${pageStatement(shape)}) listed`)
      .orderBy(sql`position`)
      .prepare(pageName(shape));
  }

  /** A page of students with their totals and their work on `items`. */
  async function readPage(
    shape: PageShape,
    items: ItemRow[],
    values: Omit<PageValues, 'quizItems' | 'workItems' | 'now'>,
    now: Date,
  ): Promise<PageRow[]> {
    const name = pageName(shape);
    const prepared = pages.get(name) ?? preparePage(shape);
    pages.set(name, prepared);
    return prepared.execute({
      ...values,
      quizItems: itemsOfKind(items, 'quiz'),
      workItems: itemsOfKind(items, 'assignment'),
      now: now.toISOString(),
    } satisfies PageValues);
  }

  return {
    /** GET /api/classes/:id/gradebook/columns. */
    async columns(teacherId: string, classId: string): Promise<GradebookColumns> {
      await requireTaughtClass(db, teacherId, classId);
      const items = await readItems(itemsOf(classId));
      return { key: columnsKey(items), items: items.map(presentItem) };
    },

    /** GET /api/classes/:id/gradebook: one page of rows, filtered, sorted and paged in SQL. */
    async rows(teacherId: string, classId: string, query: GradebookQuery): Promise<ListedPage<GradebookRow>> {
      await requireTaughtClass(db, teacherId, classId);
      const at = now();
      const items = await readItems(itemsOf(classId));
      if (query.columns !== undefined && query.columns !== columnsKey(items))
        throw conflict('GRADEBOOK_CHANGED', "The class's quizzes or assignments changed: read the columns again");
      const listed = toPage(
        await readPage(
          {
            viewer: 'teacher',
            sort: query.sort,
            order: query.order,
            missing: query.missing,
            search: query.search !== undefined,
          },
          items,
          {
            classId,
            offset: query.offset,
            limit: query.limit,
            ...(query.search === undefined ? {} : { pattern: containsPattern(query.search) }),
          },
          at,
        ),
        query.limit,
      );
      const cellsOf = cellsPresenter(items, at, 'teacher');
      return {
        items: listed.items.map((row) => ({
          _id: row.id,
          name: row.name,
          rollNumber: row.roll_number,
          average: averageOf(row.earned, row.possible),
          earned: row.earned,
          possible: row.possible,
          missing: row.missing,
          cells: cellsOf(workOf(items, row.cells)),
        })),
        hasMore: listed.hasMore,
      };
    },

    /** GET /api/student/classes/:id/grades: the student's own row, with feedback, of a class they belong to. */
    async forStudent(studentId: string, classId: string): Promise<StudentGradebook> {
      const [klass] = rowsOf<{ id: string; name: string }>(
        await db.execute(sql`select id, name from classes where id = ${classId}`),
      );
      if (!klass) throw notFound('This class does not exist');
      if (!(await isStudentOfClass(db, studentId, classId))) throw forbidden('You are not in this class');
      const at = now();
      const items = await readItems(studentItemsOf(classId, studentId, at));
      const [row] = await readPage(
        { viewer: 'student', sort: 'name', order: 'asc', missing: false, search: false },
        items,
        { classId, studentId, offset: 0, limit: 1 },
        at,
      );
      const work = row ? workOf(items, row.cells) : items.map(() => null);
      const cells = cellsPresenter(items, at, 'student')(work);
      return {
        class: { _id: klass.id, name: klass.name },
        average: averageOf(row?.earned ?? 0, row?.possible ?? 0),
        earned: row?.earned ?? 0,
        possible: row?.possible ?? 0,
        missing: row?.missing ?? 0,
        grades: items.map((item, n) => {
          const done = work[n] ?? null;
          const cell: GradebookCell = cells[n]!;
          const returned = done?.kind === 'hand-in' && done.state === 'returned';
          return {
            item: presentItem(item) satisfies GradebookItem,
            cell,
            feedback: returned ? done.feedback : null,
            changedAfterReturn: returned ? done.changedAfterReturn : false,
          };
        }),
      };
    },
  };
}

export type Gradebook = ReturnType<typeof createGradebook>;
