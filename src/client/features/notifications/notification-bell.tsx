import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { NOTIFICATION_LIMITS } from '#shared/notifications';
import { formatNumber } from '../../lib/format.ts';
import { notificationQueries } from './notification-queries.ts';

const NotificationPanel = lazy(() => import('./notification-panel.tsx'));

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
      {isOpen && (
        <Suspense fallback={null}>
          <NotificationPanel id={panelId} dashboardPath={dashboardPath} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
