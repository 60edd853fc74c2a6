import { queryOptions } from '@tanstack/react-query';
import { countUnreadNotifications, listNotifications } from '#shared/contract/notifications';
import { NOTIFICATION_LIMITS } from '#shared/notifications';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';

const NOTIFICATIONS_KEY = ['notifications'] as const;

/**
 * The bell's queries (decision 059). The unread count is polled while a page is open (every
 * NOTIFICATION_LIMITS.pollIntervalMs, and when the tab comes back to the front); the list is
 * read each time the bell opens.
 */
export const notificationQueries = {
  all: NOTIFICATIONS_KEY,
  unreadCount: () =>
    queryOptions({
      queryKey: [...NOTIFICATIONS_KEY, 'unread'],
      queryFn: async ({ signal }) => (await call(countUnreadNotifications, {}, { signal })).data.unread,
      refetchInterval: NOTIFICATION_LIMITS.pollIntervalMs,
      refetchOnWindowFocus: 'always',
      // A missed count is not worth a toast: the next poll tries again.
      meta: { errorToast: false },
    }),
  list: () =>
    pagedListOptions([...NOTIFICATIONS_KEY, 'list'], listNotifications, {
      limit: NOTIFICATION_LIMITS.pageSizeDefault,
    }),
};
