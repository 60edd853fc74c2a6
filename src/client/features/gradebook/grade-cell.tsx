import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { GradebookCell, GradebookCellState } from '#shared/gradebook';
import { formatNumber, formatScore } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';

/** The words of each cell state (decision 062): the server sends the code, the reader's language says it. */
export const CELL_STATE_WORDS: Record<GradebookCellState, MessageDescriptor> = {
  scored: msg({ comment: 'Gradebook cell: points the student sees', message: 'Scored' }),
  unreleased: msg({ comment: 'Gradebook cell: graded, not yet shown to the student', message: 'Not released' }),
  'to-grade': msg({ comment: 'Gradebook cell: work handed in, not graded yet', message: 'To grade' }),
  'in-progress': msg({ comment: 'Gradebook cell: a quiz being taken', message: 'In progress' }),
  missing: msg({ comment: 'Gradebook cell: past due, nothing handed in', message: 'Missing' }),
  'not-due': msg({ comment: 'Gradebook cell: nothing yet, due later', message: 'Not due' }),
  'not-handed-in': msg({ comment: 'Gradebook cell: nothing handed in, no due date', message: 'Not handed in' }),
  done: msg({ comment: 'Gradebook cell: ungraded work handed in', message: 'Done' }),
};

/** The student's own words for "to-grade": their work is in, the grade is not back yet. */
export const STUDENT_TO_GRADE = msg({
  comment: 'A student’s grade cell: handed in, no grade back yet',
  message: 'Handed in',
});

/** Points as the locale writes them: whole, or up to two decimals. */
export const formatPoints = (points: number) => formatNumber(points, { maximumFractionDigits: 2 });

const TONES: Partial<Record<GradebookCellState, string>> = {
  missing: 'text-danger font-semibold',
  unreleased: 'text-muted italic',
  'to-grade': 'text-warning',
  'not-due': 'text-muted',
  'not-handed-in': 'text-muted',
};

/** One cell: the points where it has them (out of `outOf`, as the app writes scores), else the state's words; late work says so. */
export function GradeCell({
  cell,
  viewer = 'teacher',
  outOf = null,
}: {
  cell: GradebookCell;
  viewer?: 'teacher' | 'student';
  outOf?: number | null;
}) {
  const { t } = useLingui();
  const words =
    viewer === 'student' && cell.state === 'to-grade' ? t(STUDENT_TO_GRADE) : t(CELL_STATE_WORDS[cell.state]);
  return (
    <span className={cn('whitespace-nowrap', TONES[cell.state])}>
      {cell.points === null ? (
        words
      ) : (
        <bdi>{outOf === null ? formatPoints(cell.points) : formatScore(cell.points, outOf)}</bdi>
      )}
      {cell.state === 'unreleased' && cell.points !== null ? <span className="sr-only"> ({words})</span> : null}
      {cell.late ? (
        <span className="ms-1 text-xs text-warning">
          {t({ comment: 'Handed in after the due time', message: 'late' })}
        </span>
      ) : null}
    </span>
  );
}
