import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Notification } from '#shared/notifications';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatRelative, formatScore } from '../../lib/format.ts';

/** Whether an instant is behind us, as the reader's clock has it (like formatRelative's now). */
const hasPassed = (instant: string) => new Date(instant).getTime() <= Date.now();

/** What a notification says, by its kind, in the reader's language (the server sends data only). */
function NotificationText({ notification }: { notification: Notification }): ReactNode {
  switch (notification.kind) {
    case 'QUIZ_PUBLISHED': {
      const { title, className } = notification.params;
      const deadline = formatDateTime(notification.params.deadline);
      return (
        <Trans comment="A notification: a teacher published a quiz to one of the student's classes">
          New quiz <bdi className="font-semibold">{title}</bdi> in <bdi>{className}</bdi>, due {deadline}
        </Trans>
      );
    }
    case 'ASSIGNMENT_POSTED': {
      const { title, className } = notification.params;
      return (
        <Trans comment="A notification: a teacher posted an assignment to one of the student's classes">
          New assignment <bdi className="font-semibold">{title}</bdi> in <bdi>{className}</bdi>
        </Trans>
      );
    }
    case 'ASSIGNMENT_DUE_SOON': {
      const { title, dueAt } = notification.params;
      // Read after the due time, "is due 2 minutes ago" would be wrong: it was due, at that date.
      if (hasPassed(dueAt)) {
        const due = formatDateTime(dueAt);
        return (
          <Trans comment="A notification: the due time of an assignment not handed in has passed; {due} is a date and time">
            <bdi className="font-semibold">{title}</bdi> was due {due}
          </Trans>
        );
      }
      const due = formatRelative(dueAt);
      return (
        <Trans comment="A notification: an assignment not handed in yet is due soon; {due} is e.g. 'tomorrow' or 'in 20 hours'">
          <bdi className="font-semibold">{title}</bdi> is due {due}
        </Trans>
      );
    }
    case 'HAND_IN_RETURNED': {
      const { title, points, maxPoints } = notification.params;
      if (points === null || maxPoints === null)
        return (
          <Trans comment="A notification: the teacher returned the student's work, without a grade">
            <bdi className="font-semibold">{title}</bdi> was returned
          </Trans>
        );
      const grade = formatScore(points, maxPoints);
      return (
        <Trans comment="A notification: the teacher returned the student's work with a grade, e.g. 8 / 10">
          <bdi className="font-semibold">{title}</bdi> was returned with <bdi>{grade}</bdi>
        </Trans>
      );
    }
    case 'HAND_IN_COMMENT': {
      const { title, authorName } = notification.params;
      return (
        <Trans comment="A notification: someone wrote a private comment on a piece of handed-in work">
          <bdi>{authorName}</bdi> commented on <bdi className="font-semibold">{title}</bdi>
        </Trans>
      );
    }
  }
}

/**
 * Where a notification leads, under the role's dashboard: a quiz to the quiz, an assignment's to
 * the assignment (decisions 063 and 064). A comment leads a teacher to that student's hand-in in
 * the grading view, and a student to their own work.
 */
export function notificationPath(notification: Notification, dashboardPath: string): string {
  switch (notification.kind) {
    case 'QUIZ_PUBLISHED':
      return `${dashboardPath}/quiz/${notification.params.quizId}`;
    case 'ASSIGNMENT_POSTED':
    case 'ASSIGNMENT_DUE_SOON':
    case 'HAND_IN_RETURNED':
      return assignmentUnder(dashboardPath, notification.params.assignmentId);
    case 'HAND_IN_COMMENT': {
      const path = assignmentUnder(dashboardPath, notification.params.assignmentId);
      return dashboardPath === TEACHER_DASHBOARD
        ? `${path}?student=${encodeURIComponent(notification.params.studentId)}`
        : path;
    }
  }
}

const TEACHER_DASHBOARD = '/dashboard/teacher';
const assignmentUnder = (dashboardPath: string, id: string) => `${dashboardPath}/assignments/${encodeURIComponent(id)}`;

/** One entry of the bell's list: its sentence and when, the whole a link to its screen. */
export function NotificationItem({
  notification,
  dashboardPath,
  onFollow,
}: {
  notification: Notification;
  dashboardPath: string;
  onFollow(): void;
}) {
  const isNew = notification.readAt === null;
  return (
    <li>
      <Link
        to={notificationPath(notification, dashboardPath)}
        onClick={onFollow}
        className={cn('flex gap-3 rounded-md px-3 py-2 text-sm text-fg hover:bg-surface-muted', isNew && 'bg-brand-50')}
      >
        <span
          aria-hidden="true"
          className={cn('mt-1.5 size-2 shrink-0 rounded-full', isNew ? 'bg-brand-700' : 'bg-transparent')}
        />
        <span className="min-w-0 flex-1">
          <span className="block wrap-anywhere">
            {isNew && (
              <span className="sr-only">
                <Trans comment="Before an unread notification, for screen readers">New:</Trans>{' '}
              </span>
            )}
            <NotificationText notification={notification} />
          </span>
          <time dateTime={notification.createdAt} className="mt-0.5 block text-xs text-muted">
            {formatRelative(notification.createdAt)}
          </time>
        </span>
      </Link>
    </li>
  );
}
