import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarClock, FileCheck2, FileText, Inbox, Link2 } from 'lucide-react';
import { Link } from 'react-router';
import type { TeacherAssignment } from '#shared/assignments';
import { Badge } from '../../components/staff-table.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatList, formatNumber, isolate } from '../../lib/format.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { assignmentQueries } from './assignment-queries.ts';
import { assignmentPath } from './assignment-paths.ts';

/** An assignment's worth as a person reads it: "10 points", or "Ungraded". */
export function usePointsLabel() {
  const { t } = useLingui();
  return (points: number | null) =>
    points === null
      ? t({ comment: 'An assignment without points: feedback only', message: 'Ungraded' })
      : plural(points, { one: '# point', other: '# points' });
}

/** The icon of an attachment: a file or a video link. */
export function AttachmentIcon({ kind }: { kind: 'file' | 'link' }) {
  const Icon = kind === 'link' ? Link2 : FileText;
  return <Icon className="size-4 shrink-0 text-muted" aria-hidden="true" />;
}

/** The badges of an assignment's standing: archived, or waiting for its publish time. */
export function AssignmentBadges({ assignment, now }: { assignment: TeacherAssignment; now: number }) {
  const { t } = useLingui();
  const publishAt = assignment.publishAt;
  return (
    <>
      {assignment.archived ? (
        <Badge tone="neutral">{t({ comment: 'An assignment’s state', message: 'Archived' })}</Badge>
      ) : null}
      {publishAt && Date.parse(publishAt) > now ? (
        <Badge tone="warning">
          <Trans>Scheduled: {formatDateTime(publishAt)}</Trans>
        </Badge>
      ) : null}
    </>
  );
}

function AssignmentCard({ assignment, now }: { assignment: TeacherAssignment; now: number }) {
  const { t } = useLingui();
  const pointsLabel = usePointsLabel();
  const titleId = `assignment-${assignment._id}-title`;
  const handedIn = formatNumber(assignment.handIns.handedIn);
  const toGrade = formatNumber(assignment.handIns.toGrade);
  const dueAt = assignment.dueAt;
  return (
    <li className="min-w-0">
      <article
        aria-labelledby={titleId}
        className={cn(
          cardVariants(),
          'relative flex h-full flex-col gap-3 p-4 transition-shadow hover:shadow-md has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-brand-500',
        )}
      >
        <div className="flex flex-wrap items-center gap-2">
          <AssignmentBadges assignment={assignment} now={now} />
        </div>
        <h3 id={titleId} className="text-lg leading-snug font-semibold text-fg">
          <Link
            to={assignmentPath(assignment._id)}
            className="wrap-anywhere after:absolute after:inset-0 after:content-[''] hover:text-brand-800 focus-visible:outline-none!"
          >
            {assignment.title}
          </Link>
        </h3>
        <p className="text-sm text-muted">
          {formatList(assignment.classes.map((taught) => isolate(taught.name)))} · {pointsLabel(assignment.points)}
        </p>
        <p className="inline-flex items-center gap-1.5 text-sm text-fg">
          <CalendarClock className="size-4 shrink-0 text-muted" aria-hidden="true" />
          {dueAt ? (
            <Trans>
              Due <time dateTime={dueAt}>{formatDateTime(dueAt)}</time>
            </Trans>
          ) : (
            t`No due date`
          )}
        </p>
        <p className="mt-auto flex flex-wrap gap-x-4 gap-y-1 border-t border-line pt-3 text-sm text-muted">
          <span className="inline-flex items-center gap-1.5">
            <Inbox className="size-4" aria-hidden="true" />
            <Trans>Handed in: {handedIn}</Trans>
          </span>
          <span
            className={cn(
              'inline-flex items-center gap-1.5',
              assignment.handIns.toGrade > 0 && 'font-semibold text-brand-800',
            )}
          >
            <FileCheck2 className="size-4" aria-hidden="true" />
            <Trans>To grade: {toGrade}</Trans>
          </span>
        </p>
      </article>
    </li>
  );
}

/** One class's assignments as cards, newest first, paged by the server (the list page and the class page). */
export function ClassAssignmentList({ classId, emptyHint }: { classId: string; emptyHint: string }) {
  const { t } = useLingui();
  const list = usePagedList({ ...assignmentQueries.ofClass(classId), refetchOnMount: 'always' });
  // Read once per fetch so "Scheduled" does not flicker between renders.
  const now = list.dataUpdatedAt || 0;
  if (list.isPending) return <LoadingStatus>{t`Loading the assignments…`}</LoadingStatus>;
  if (list.isError && list.items.length === 0) {
    return (
      <LoadFailure
        title={t`The assignments could not be loaded.`}
        message={list.error.message}
        onRetry={() => void list.refetch()}
      />
    );
  }
  if (list.items.length === 0) return <EmptyState title={t`No assignments yet`} hint={emptyHint} />;
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {list.items.map((assignment) => (
          <AssignmentCard key={assignment._id} assignment={assignment} now={now} />
        ))}
      </ul>
      <LoadMoreButton list={list} />
    </>
  );
}
