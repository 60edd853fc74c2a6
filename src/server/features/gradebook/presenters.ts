import type { GradebookCell, GradebookItem } from '#shared/gradebook';
import type { HandInState } from '#shared/assignments';

/** An item as the gradebook's SQL reads it (service.ts itemsOf). */
export type ItemRow = {
  kind: 'quiz' | 'assignment';
  id: string;
  title: string;
  points: number | null;
  due_at: Date | string | null;
  /** A quiz's close for everyone, an assignment's due time: when nothing handed in becomes missing. */
  closes_at: Date | string | null;
  archived: boolean;
  review_score: 'after-submit' | 'after-deadline' | null;
};

/** A student's work on an item: their quiz attempt or their hand-in. */
export type WorkRow =
  | { kind: 'attempt'; submitted: boolean; score: number | null; essaysAwaiting: number }
  | {
      kind: 'hand-in';
      state: HandInState;
      late: boolean;
      points: number | null;
      feedback: string | null;
      changedAfterReturn: boolean;
    };

const dateOf = (value: Date | string | null) => (value === null || value instanceof Date ? value : new Date(value));

export function presentItem(row: ItemRow): GradebookItem {
  return {
    _id: row.id,
    kind: row.kind,
    title: row.title,
    points: row.points,
    dueAt: dateOf(row.due_at)?.toISOString() ?? null,
    archived: row.archived,
  };
}

const cell = (state: GradebookCell['state'], points: number | null = null, late = false): GradebookCell => ({
  state,
  points,
  late,
});

/** Points the student may not see yet: `unreleased` for teachers, `to-grade` without the points for the student. */
const hidden = (viewer: 'teacher' | 'student', points: number | null, late = false) =>
  viewer === 'teacher' ? cell('unreleased', points, late) : cell('to-grade', null, late);

/**
 * One cell (decision 062). A student never meets `unreleased`: points they may not see yet read
 * as `to-grade`, without the points. `closesAt` is the item's `closes_at` as a Date.
 */
function presentCell(
  item: ItemRow,
  closesAt: Date | null,
  work: WorkRow | null,
  now: Date,
  viewer: 'teacher' | 'student',
): GradebookCell {
  if (work?.kind === 'attempt') {
    if (!work.submitted) return cell('in-progress');
    if (work.essaysAwaiting > 0) return cell('to-grade');
    const released = item.review_score === 'after-submit' || (closesAt !== null && closesAt <= now);
    return released ? cell('scored', work.score) : hidden(viewer, work.score);
  }
  if (work?.kind === 'hand-in' && work.state !== 'draft') {
    if (item.points === null) return cell('done', null, work.late);
    if (work.state === 'handed-in') return cell('to-grade', null, work.late);
    if (work.state === 'graded') return hidden(viewer, work.points, work.late);
    return cell('scored', work.points, work.late);
  }
  if (item.archived || closesAt === null) return cell('not-handed-in');
  return cell(closesAt <= now ? 'missing' : 'not-due');
}

/**
 * Presents rows of cells under `items`, a row being a student's work by item (null: nothing of
 * theirs). A page presents each item 25 times or more: its close is parsed once, not once a cell.
 */
export function cellsPresenter(items: ItemRow[], now: Date, viewer: 'teacher' | 'student') {
  const closes = items.map((item) => dateOf(item.closes_at));
  return (work: readonly (WorkRow | null)[]): GradebookCell[] =>
    items.map((item, n) => presentCell(item, closes[n]!, work[n] ?? null, now, viewer));
}
