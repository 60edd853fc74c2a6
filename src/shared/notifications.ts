import { z } from 'zod/mini';
import { bodyObject, pagingFields } from './fields.ts';

/**
 * What changed for you (issue 33 point 5, decision 059): one row per recipient, its kind a code
 * and its params data (ids, titles, dates), never a sentence: the client words each kind in the
 * reader's language and links it to its screen.
 */

export const NOTIFICATION_LIMITS = {
  pageSizeDefault: 20,
  pageSizeMax: 50,
  /** The unread count stops here: the badge says "99+" and counting never reads more rows. */
  unreadCountMax: 100,
  /** How often an open page asks for the unread count (and on coming back to the tab): decision 059. */
  pollIntervalMs: 60_000,
} as const;

/** The params of each kind. A new kind: its schema here, its wording in the client's bell. */
export const NOTIFICATION_PARAMS = {
  /** A quiz was published to one of the student's classes. */
  QUIZ_PUBLISHED: z.strictObject({
    quizId: z.string(),
    title: z.string(),
    className: z.string(),
    deadline: z.iso.datetime(),
  }),
  /** A new assignment in one of the student's classes (issue 33 point 1). */
  ASSIGNMENT_POSTED: z.strictObject({
    assignmentId: z.string(),
    title: z.string(),
    className: z.string(),
    dueAt: z.nullable(z.iso.datetime()),
  }),
  /** An assignment the student has not handed in is due within a day. */
  ASSIGNMENT_DUE_SOON: z.strictObject({
    assignmentId: z.string(),
    title: z.string(),
    dueAt: z.iso.datetime(),
  }),
  /** The teacher returned the student's hand-in, with its grade (null: ungraded). */
  HAND_IN_RETURNED: z.strictObject({
    assignmentId: z.string(),
    title: z.string(),
    points: z.nullable(z.number()),
    maxPoints: z.nullable(z.number()),
  }),
  /** A new private comment on a hand-in, for the other side of the thread. */
  HAND_IN_COMMENT: z.strictObject({
    assignmentId: z.string(),
    handInId: z.string(),
    /** The hand-in's student: where a teacher's link leads (decision 061). */
    studentId: z.string(),
    title: z.string(),
    authorName: z.string(),
  }),
} as const;

export type NotificationKind = keyof typeof NOTIFICATION_PARAMS;
export const NOTIFICATION_KINDS = Object.keys(NOTIFICATION_PARAMS) as NotificationKind[];
export type NotificationParams<Kind extends NotificationKind> = z.infer<(typeof NOTIFICATION_PARAMS)[Kind]>;

const notificationOf = <const Kind extends NotificationKind>(kind: Kind) =>
  z.strictObject({
    _id: z.string(),
    kind: z.literal(kind),
    params: NOTIFICATION_PARAMS[kind],
    createdAt: z.iso.datetime(),
    /** When the recipient opened the bell with it listed; null while unread. */
    readAt: z.nullable(z.iso.datetime()),
  });

export const notificationSchema = z.discriminatedUnion('kind', [
  notificationOf('QUIZ_PUBLISHED'),
  notificationOf('ASSIGNMENT_POSTED'),
  notificationOf('ASSIGNMENT_DUE_SOON'),
  notificationOf('HAND_IN_RETURNED'),
  notificationOf('HAND_IN_COMMENT'),
]);
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({ ...pagingFields(NOTIFICATION_LIMITS) });

export const unreadCountSchema = z.strictObject({
  /** Unread notifications, counted up to NOTIFICATION_LIMITS.unreadCountMax. */
  unread: z.int().check(z.gte(0)),
});
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/**
 * Marking read on open: everything up to the newest notification the list showed (its
 * createdAt), so one that arrived after the list was read stays unread.
 */
export const markReadSchema = bodyObject({
  through: z.iso.datetime({ offset: true }),
});
export type MarkRead = z.infer<typeof markReadSchema>;
