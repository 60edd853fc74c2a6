import { Trans } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { markNotificationsRead } from '#shared/contract/notifications';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { call } from '../../lib/api.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { NotificationItem } from './notification-item.tsx';
import { notificationQueries } from './notification-queries.ts';

/**
 * The bell's panel (decision 059): the newest notifications, marked read up to the newest shown
 * once they are here. Its own chunk, loaded on the bell's first opening: every dashboard screen
 * carries the bell, few open it.
 */
export default function NotificationPanel({
  id,
  dashboardPath,
  onClose,
}: {
  id: string;
  dashboardPath: string;
  onClose(returnFocus: boolean): void;
}) {
  const list = usePagedList(notificationQueries.list());
  const queryClient = useQueryClient();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const markRead = useMutation({
    mutationFn: async (through: string) => (await call(markNotificationsRead, { body: { through } })).data.unread,
    onSuccess: (unread) => queryClient.setQueryData(notificationQueries.unreadCount().queryKey, unread),
    meta: { errorToast: false },
  });

  useEffect(() => headingRef.current?.focus(), []);

  // Read on open: up to the newest one shown, once the first page is here.
  const newest = list.items[0];
  const hasUnread = list.items.some((item) => item.readAt === null);
  const { mutate } = markRead;
  useEffect(() => {
    if (newest && hasUnread) mutate(newest.createdAt);
  }, [newest, hasUnread, mutate]);

  return (
    <div
      id={id}
      role="dialog"
      aria-labelledby={headingId}
      className="fixed inset-x-2 top-[var(--app-header-height,4rem)] z-50 mt-1 flex max-h-[min(32rem,calc(100vh-6rem))] flex-col rounded-lg border border-line bg-surface shadow-lg sm:absolute sm:inset-x-auto sm:end-0 sm:top-full sm:w-96"
    >
      <h2
        ref={headingRef}
        id={headingId}
        tabIndex={-1}
        className="border-b border-line px-4 py-3 text-base font-semibold text-fg"
      >
        <Trans comment="Heading of the bell's panel">Notifications</Trans>
      </h2>
      <div className="overflow-y-auto p-2">
        {list.isPending ? (
          <p className="px-3 py-4 text-sm text-muted">
            <Trans>Loading…</Trans>
          </p>
        ) : list.isError ? (
          <p role="alert" className="px-3 py-4 text-sm text-muted">
            <Trans>Your notifications could not be loaded. Try again in a moment.</Trans>
          </p>
        ) : list.items.length === 0 ? (
          <p className="px-3 py-4 text-sm text-muted">
            <Trans>Nothing new. What changes for you will show here.</Trans>
          </p>
        ) : (
          <>
            <ul className="flex flex-col gap-1">
              {list.items.map((notification) => (
                <NotificationItem
                  key={notification._id}
                  notification={notification}
                  dashboardPath={dashboardPath}
                  onFollow={() => onClose(false)}
                />
              ))}
            </ul>
            <LoadMoreButton list={list} className="mt-2" />
          </>
        )}
      </div>
    </div>
  );
}
