import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CalendarClock, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import type { StudentAssignmentGroup, StudentAssignmentSummary } from '#shared/assignments';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatList, formatScore } from '../../lib/format.ts';
import { studentAssignmentPath } from './student-assignment-queries.ts';

/** The student's four groups, in the order the page shows them. */
export const GROUP_TITLES: Record<StudentAssignmentGroup, MessageDescriptor> = {
  todo: msg({
    comment: 'Assignments group: not handed in, not yet due',
    context: 'assignments group',
    message: 'To do',
  }),
  missing: msg({
    comment: 'Assignments group: past the due time and not handed in',
    context: 'assignments group',
    message: 'Missing',
  }),
  done: msg({
    comment: 'Assignments group: handed in, waiting for the teacher',
    context: 'assignments group',
    message: 'Done',
  }),
  returned: msg({
    comment: 'Assignments group: graded and given back by the teacher',
    context: 'assignments group',
    message: 'Returned',
  }),
};

/** A small label beside an assignment: late, missing, graded. */
export function Badge({
  tone,
  children,
}: {
  tone: 'warning' | 'danger' | 'success' | 'muted';
  children: React.ReactNode;
}) {
  const tones = {
    warning: 'bg-warning-soft text-warning',
    danger: 'bg-danger-soft text-danger-strong',
    success: 'bg-success-soft text-success',
    muted: 'bg-surface-muted text-muted',
  };
  return <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', tones[tone])}>{children}</span>;
}

/** "Due 21 Nov 2026, 16:05" or "No due date". */
export function DueText({ dueAt }: { dueAt: string | null }) {
  if (!dueAt) return <Trans comment="An assignment without a due time">No due date</Trans>;
  const due = formatDateTime(dueAt);
  return <Trans comment="When an assignment is due">Due {due}</Trans>;
}

/** The points of a returned hand-in out of the assignment's ("8 / 10"), or that it is ungraded. */
export function GradeText({ points, outOf }: { points: number | null; outOf: number | null }) {
  if (outOf === null || points === null) return <Trans comment="A returned assignment without points">Ungraded</Trans>;
  return <bdi>{formatScore(points, outOf)}</bdi>;
}

/** The badges of an assignment in the student's list: where their work stands. */
function SummaryBadges({ assignment }: { assignment: StudentAssignmentSummary }) {
  const { handIn } = assignment;
  return (
    <span className="flex flex-wrap gap-1">
      {assignment.group === 'missing' ? (
        <Badge tone="danger">
          <Trans context="badge" comment="Badge: past due and not handed in">
            Missing
          </Trans>
        </Badge>
      ) : null}
      {handIn?.late ? (
        <Badge tone="warning">
          <Trans comment="Badge: handed in after the due time">Late</Trans>
        </Badge>
      ) : null}
      {assignment.group === 'todo' && handIn?.state === 'draft' ? (
        <Badge tone="muted">
          <Trans comment="Badge: the student has saved text, not handed in">Draft</Trans>
        </Badge>
      ) : null}
      {assignment.group === 'returned' && handIn ? (
        <Badge tone="success">
          <GradeText points={handIn.points} outOf={assignment.points} />
        </Badge>
      ) : null}
      {handIn?.gradeChangedAfterReturn ? (
        <Badge tone="warning">
          <Trans comment="Badge: the teacher changed the grade after returning the work">Grade changed</Trans>
        </Badge>
      ) : null}
    </span>
  );
}

/** One assignment in a list: a link to it, its classes, due time and where the work stands. */
export function AssignmentRow({ assignment }: { assignment: StudentAssignmentSummary }) {
  const classes = formatList(assignment.classes.map((entry) => entry.name));
  const { points } = assignment;
  return (
    <li>
      <Link
        to={studentAssignmentPath(assignment._id)}
        className={cn(
          cardVariants(),
          'flex items-center gap-3 p-4 hover:bg-surface-sunken focus-visible:outline-2 focus-visible:outline-brand-600',
        )}
      >
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="font-semibold wrap-anywhere text-fg">{assignment.title}</span>
          <span className="text-sm text-muted">
            <bdi>{classes}</bdi>
            {points === null ? null : (
              <>
                {' · '}
                <Plural value={points} one="# point" other="# points" />
              </>
            )}
          </span>
          <span className="flex flex-wrap items-center gap-2 text-sm text-fg">
            <span className="inline-flex items-center gap-1.5">
              <CalendarClock className="size-4 shrink-0 text-brand-700" aria-hidden="true" />
              <span>
                <DueText dueAt={assignment.dueAt} />
              </span>
            </span>
            <SummaryBadges assignment={assignment} />
          </span>
        </span>
        <ChevronRight className="size-5 shrink-0 text-muted rtl:-scale-x-100" aria-hidden="true" />
      </Link>
    </li>
  );
}

/** The empty text of each group. */
export function useEmptyGroupText() {
  const { t } = useLingui();
  return (group: StudentAssignmentGroup) =>
    ({
      todo: t`Nothing to do right now.`,
      missing: t`Nothing missing.`,
      done: t`Nothing handed in and waiting for a grade.`,
      returned: t`No work returned yet.`,
    })[group];
}
