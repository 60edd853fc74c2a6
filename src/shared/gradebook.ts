import { z } from 'zod/mini';
import { optionalQueryText, pagingFields, queryFlag } from './fields.ts';

/**
 * The gradebook (issue 33 point 4, decision 062): a class's students × its quizzes and
 * assignments, each cell a state code and the points, each student's average weighted by points.
 * The server sends codes; the client words them (and builds the CSV's headers in the reader's language).
 */

export const GRADEBOOK_LIMITS = {
  pageSizeDefault: 25,
  pageSizeMax: 100,
  search: 100,
} as const;

export const GRADEBOOK_ITEM_KINDS = ['quiz', 'assignment'] as const;
export type GradebookItemKind = (typeof GRADEBOOK_ITEM_KINDS)[number];

/**
 * What a cell says (decision 062):
 * - scored: points the student sees (a quiz's released score, a returned assignment's grade): they count;
 * - unreleased: points the student does not see yet (a quiz's score before its release, graded work not
 *   returned): the teachers' view only, counted nowhere;
 * - to-grade: work is in, no final points yet (a hand-in not graded, a quiz with essays to mark);
 * - in-progress: a quiz attempt still open;
 * - missing: nothing handed in, past due; not-due: nothing yet, due later;
 * - not-handed-in: nothing handed in, no due time (or an archived item); done: ungraded work handed in.
 */
export const GRADEBOOK_CELL_STATES = [
  'scored',
  'unreleased',
  'to-grade',
  'in-progress',
  'missing',
  'not-due',
  'not-handed-in',
  'done',
] as const;
export type GradebookCellState = (typeof GRADEBOOK_CELL_STATES)[number];

export const GRADEBOOK_SORTS = ['name', 'roll-number', 'average'] as const;
export type GradebookSort = (typeof GRADEBOOK_SORTS)[number];

/** A column: a quiz or an assignment of the class, by due time (undated last), then title. */
export const gradebookItemSchema = z.strictObject({
  _id: z.string(),
  kind: z.enum(GRADEBOOK_ITEM_KINDS),
  title: z.string(),
  /** What it is out of; null: an ungraded assignment. */
  points: z.nullable(z.number()),
  /** A quiz's deadline, an assignment's due time. */
  dueAt: z.nullable(z.iso.datetime()),
  archived: z.boolean(),
});
export type GradebookItem = z.infer<typeof gradebookItemSchema>;

/** The columns, and the key of their order: a page of rows asked with another key is refused (GRADEBOOK_CHANGED). */
export const gradebookColumnsSchema = z.strictObject({
  key: z.string(),
  items: z.array(gradebookItemSchema),
});
export type GradebookColumns = z.infer<typeof gradebookColumnsSchema>;

export const gradebookCellSchema = z.strictObject({
  state: z.enum(GRADEBOOK_CELL_STATES),
  /** Points earned where the state has them (scored, unreleased; to-grade: a quiz's points so far is not shown). */
  points: z.nullable(z.number()),
  /** Handed in after the due time (assignments). */
  late: z.boolean(),
});
export type GradebookCell = z.infer<typeof gradebookCellSchema>;

/** A student's totals: points earned and possible over what counts, the average as a percentage (null: nothing counts yet). */
const totalsShape = {
  average: z.nullable(z.number()),
  earned: z.number(),
  possible: z.number(),
  /** Items past due with nothing handed in. */
  missing: z.int(),
};

/** One student's row: their cells in the order of the columns. */
export const gradebookRowSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  rollNumber: z.string(),
  ...totalsShape,
  cells: z.array(gradebookCellSchema),
});
export type GradebookRow = z.infer<typeof gradebookRowSchema>;

/** GET /api/classes/:id/gradebook: sorted, filtered and paged in SQL. */
export const gradebookQuerySchema = z.object({
  sort: z._default(z.enum(GRADEBOOK_SORTS), 'name'),
  order: z._default(z.enum(['asc', 'desc']), 'asc'),
  /** Case-insensitive plain text found in the student's name or roll number. */
  search: optionalQueryText(GRADEBOOK_LIMITS.search),
  /** Only students with missing work. */
  missing: queryFlag,
  /** The columns' key the client lays the cells under; absent: not checked. */
  columns: z.optional(z.string().check(z.maxLength(64))),
  ...pagingFields(GRADEBOOK_LIMITS),
});
export type GradebookQuery = z.infer<typeof gradebookQuerySchema>;

/** One item of the student's own gradebook: the cell and, once returned, the teacher's feedback. */
export const studentGradeSchema = z.strictObject({
  item: gradebookItemSchema,
  cell: gradebookCellSchema,
  feedback: z.nullable(z.string()),
  /** The grade changed after it was returned (decision 058). */
  changedAfterReturn: z.boolean(),
});
export type StudentGrade = z.infer<typeof studentGradeSchema>;

/** GET /api/student/classes/:id/grades: the calling student's own row of one class, with feedback. */
export const studentGradebookSchema = z.strictObject({
  class: z.strictObject({ _id: z.string(), name: z.string() }),
  ...totalsShape,
  grades: z.array(studentGradeSchema),
});
export type StudentGradebook = z.infer<typeof studentGradebookSchema>;

/** The average of `earned` out of `possible`, a percentage with two decimals; null when nothing counts. */
export const averageOf = (earned: number, possible: number): number | null =>
  possible > 0 ? Math.round((earned / possible) * 10_000) / 100 : null;
