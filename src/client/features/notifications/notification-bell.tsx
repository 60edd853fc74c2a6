import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { markNotificationsRead } from '#shared/contract/notifications';
import { NOTIFICATION_LIMITS } from '#shared/notifications';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { call } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { NotificationItem } from './notification-item.tsx';
import { notificationQueries } from './notification-queries.ts';

/** The badge's figure: the count, or "99+" once the server stopped counting. */
const badgeText = (unread: number) =>
  unread >= NOTIFICATION_LIMITS.unreadCountMax
    ? `${formatNumber(NOTIFICATION_LIMITS.unreadCountMax - 1)}+`
    : formatNumber(unread);

/**
 * The bell of both roles' headers (issue 33 point 5, decision 059): the unread count on it,
 * and on opening, the newest notifications, which are then marked read up to the newest shown.
 * A non-modal panel: Escape or a click elsewhere closes it and the focus returns to the bell.
 */
export function NotificationBell({ dashboardPath }: { dashboardPath: string }) {
  const [isOpen, setIsOpen] = useState(false);
  const unread = useQuery(notificationQueries.unreadCount()).data ?? 0;
  const { t } = useLingui();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const queryClient = useQueryClient();

  const close = (returnFocus: boolean) => {
    setIsOpen(false);
    // The next opening reads the list again.
    queryClient.removeQueries({ queryKey: notificationQueries.list().queryKey });
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) close(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  });

  const label =
    unread === 0
      ? t({ comment: 'The bell button in the header, with nothing unread', message: 'Notifications' })
      : t({
          comment:
            'The bell button in the header; the count of unread notifications. Keep # in every form: the badge shows the number, and the button’s name must contain what it shows',
          message: plural(unread, { one: 'Notifications, # unread', other: 'Notifications, # unread' }),
        });

  return (
    <div ref={wrapperRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={label}
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        onClick={() => (isOpen ? close(true) : setIsOpen(true))}
        className="relative inline-flex size-10 items-center justify-center rounded-md text-muted hover:bg-surface-muted hover:text-fg"
      >
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            data-testid="notification-badge"
            className="absolute -end-0.5 top-0.5 min-w-5 rounded-full bg-brand-700 px-1 text-center text-xs leading-5 font-semibold text-white"
          >
            {badgeText(unread)}
          </span>
        )}
      </button>
      {isOpen && <NotificationPanel id={panelId} dashboardPath={dashboardPath} onClose={close} />}
    </div>
  );
}

function NotificationPanel({
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
