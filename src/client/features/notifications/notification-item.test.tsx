import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/notifications';
import { notificationPath } from './notification-item.tsx';

/** Where each kind of notification leads (issue 33 point 5): to its screen, not the dashboard. */

const base = { _id: 'n1', createdAt: '2026-12-03T10:00:00.000Z', readAt: null };
const assignmentId = 'a1b2c3d4-0000-4000-8000-000000000001';
const studentId = 'a1b2c3d4-0000-4000-8000-000000000002';

describe('notificationPath', () => {
  it('leads a quiz to the quiz and an assignment’s news to the assignment', () => {
    const notifications: [Notification, string][] = [
      [
        {
          ...base,
          kind: 'QUIZ_PUBLISHED',
          params: { quizId: 'q1', title: 'Q', className: 'C', deadline: base.createdAt },
        },
        '/dashboard/student/quiz/q1',
      ],
      [
        { ...base, kind: 'ASSIGNMENT_POSTED', params: { assignmentId, title: 'A', className: 'C', dueAt: null } },
        `/dashboard/student/assignments/${assignmentId}`,
      ],
      [
        { ...base, kind: 'ASSIGNMENT_DUE_SOON', params: { assignmentId, title: 'A', dueAt: base.createdAt } },
        `/dashboard/student/assignments/${assignmentId}`,
      ],
      [
        { ...base, kind: 'HAND_IN_RETURNED', params: { assignmentId, title: 'A', points: 8, maxPoints: 10 } },
        `/dashboard/student/assignments/${assignmentId}`,
      ],
    ];
    for (const [notification, path] of notifications)
      expect(notificationPath(notification, '/dashboard/student')).toBe(path);
  });

  it('leads a comment to the student’s own work, and a teacher to that student’s hand-in', () => {
    const comment: Notification = {
      ...base,
      kind: 'HAND_IN_COMMENT',
      params: { assignmentId, handInId: 'h1', studentId, title: 'A', authorName: 'Ada' },
    };
    expect(notificationPath(comment, '/dashboard/student')).toBe(`/dashboard/student/assignments/${assignmentId}`);
    expect(notificationPath(comment, '/dashboard/teacher')).toBe(
      `/dashboard/teacher/assignments/${assignmentId}?student=${studentId}`,
    );
  });
});
