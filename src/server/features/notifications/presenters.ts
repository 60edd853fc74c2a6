import type { Notification } from '#shared/notifications';
import type { NotificationRow } from '../../db/schema.ts';

/** A notification as its recipient's bell reads it: the kind and its data, no recipient. */
export function presentNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    kind: row.kind,
    params: row.params,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  } as Notification;
}
