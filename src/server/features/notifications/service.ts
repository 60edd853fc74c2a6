import { and, count, desc, eq, exists, isNull, lte, or, sql } from 'drizzle-orm';
import { NOTIFICATION_LIMITS, type MarkRead, type Notification, type UnreadCount } from '#shared/notifications';
import type { Database } from '../../db/client.ts';
import { classStudents, classTeachers, notifications } from '../../db/schema.ts';
import type { AccountRef } from '../../plugins/auth.ts';
import { presentNotification } from './presenters.ts';

type Page = { offset: number; limit: number };
type ListedPage<T> = { items: T[]; hasMore: boolean };

/**
 * The rows one recipient reads: theirs (the token's account), visible already (a scheduled
 * assignment's wait for its publish time: decision 061), and of those about a class only while
 * they still belong to it or teach it (a semi-join on the membership's primary key).
 */
function recipientIs(recipient: AccountRef) {
  const membership =
    recipient.role === 'student'
      ? sql`(select 1 from ${classStudents} where ${classStudents.classId} = ${notifications.classId} and ${classStudents.studentId} = ${notifications.recipientId})`
      : sql`(select 1 from ${classTeachers} where ${classTeachers.classId} = ${notifications.classId} and ${classTeachers.teacherId} = ${notifications.recipientId})`;
  return and(
    eq(notifications.recipientRole, recipient.role),
    eq(notifications.recipientId, recipient.id),
    lte(notifications.createdAt, sql`now()`),
    or(isNull(notifications.classId), exists(membership)),
  );
}

/**
 * The bell (decision 059): the caller's notifications, their unread count and marking them
 * read. Writing them is notify() (notify.ts), inside the producing feature's transaction.
 */
export function createNotificationsService(
  db: Database,
  options: {
    /**
     * Notifications computed from the clock rather than written by an event (an assignment due
     * soon, decision 061), made before the recipient's bell is read.
     */
    beforeRead?: (recipient: AccountRef) => Promise<void>;
  } = {},
) {
  const beforeRead = options.beforeRead ?? (async () => undefined);

  /** Unread rows, counted up to NOTIFICATION_LIMITS.unreadCountMax on notifications_recipient_unread_idx. */
  async function unreadCount(recipient: AccountRef): Promise<UnreadCount> {
    await beforeRead(recipient);
    const unread = db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(recipientIs(recipient), isNull(notifications.readAt)))
      .limit(NOTIFICATION_LIMITS.unreadCountMax)
      .as('unread');
    const [row] = await db.select({ unread: count() }).from(unread);
    return { unread: row?.unread ?? 0 };
  }

  return {
    /** Newest first (notifications_recipient_created_idx), one more than the page to say whether more follow. */
    async list(recipient: AccountRef, page: Page): Promise<ListedPage<Notification>> {
      await beforeRead(recipient);
      const rows = await db
        .select()
        .from(notifications)
        .where(recipientIs(recipient))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .offset(page.offset)
        .limit(page.limit + 1);
      return { items: rows.slice(0, page.limit).map(presentNotification), hasMore: rows.length > page.limit };
    },

    unreadCount,

    /**
     * Read on open: the caller's unread notifications created up to `through` (the newest the
     * list showed; created_at keeps milliseconds, as the list gave them), then what remains unread.
     */
    async markRead(recipient: AccountRef, input: MarkRead): Promise<UnreadCount> {
      await db
        .update(notifications)
        .set({ readAt: sql`now()` })
        .where(
          and(
            recipientIs(recipient),
            isNull(notifications.readAt),
            lte(notifications.createdAt, new Date(input.through)),
          ),
        );
      return unreadCount(recipient);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
