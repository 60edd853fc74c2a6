import { Trans, useLingui } from '@lingui/react/macro';
import { LogOut } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { CLOCK_REFRESH_MS } from '#shared/constants';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { useLogout } from '../../features/session/use-logout.ts';
import { formatClock, formatHeaderDate } from '../../lib/format.ts';
import { BrandLink } from '../ui/brand-link.tsx';

function useClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** CSS variable with the header's height: the toasts sit below it (components/ui/toaster.tsx). */
export const HEADER_HEIGHT_VARIABLE = '--app-header-height';

/** Keeps HEADER_HEIGHT_VARIABLE on <html> equal to the header's height while it is shown (it wraps on phones). */
function useHeaderHeightVariable() {
  return useCallback((header: HTMLElement | null) => {
    if (!header) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty(HEADER_HEIGHT_VARIABLE, `${header.getBoundingClientRect().height}px`),
    );
    observer.observe(header);
    return () => {
      observer.disconnect();
      root.removeProperty(HEADER_HEIGHT_VARIABLE);
    };
  }, []);
}

/**
 * Shared dashboard header (SPEC §2): name, user, clock, date, the notifications' bell (decision
 * 059), Dashboard, Logout. The user name leads to the account page (password, sign out of all
 * devices; decision 017).
 */
export function DashboardHeader({
  userName,
  dashboardPath,
  accountPath,
}: {
  userName: string;
  dashboardPath: string;
  accountPath: string;
}) {
  const now = useClock();
  const logout = useLogout();
  const headerRef = useHeaderHeightVariable();
  const { t } = useLingui();
  return (
    <header ref={headerRef} className="sticky top-0 z-40 border-b border-line bg-surface">
      {/* On a phone the name gets a row of its own, so it is never cut to "Ta…". */}
      <nav
        aria-label={t({ comment: 'The main navigation landmark', message: 'Main' })}
        className="flex min-h-16 flex-wrap items-center gap-x-2 px-3 py-2 sm:gap-x-4 sm:px-5"
      >
        <BrandLink isCompact />
        <Link
          to={accountPath}
          aria-label={t`${userName}, account settings`}
          className="order-last -mx-1 basis-full rounded-md px-1 py-1 text-sm font-semibold wrap-anywhere text-fg hover:bg-surface-muted hover:text-brand-800 sm:order-none sm:mx-0 sm:ms-auto sm:min-w-0 sm:basis-auto sm:truncate sm:py-2"
        >
          <span data-testid="header-user-name">{userName}</span>
        </Link>
        <span className="ms-auto flex shrink-0 flex-col items-end text-xs leading-tight text-muted sm:ms-0 sm:flex-row sm:gap-2 sm:text-sm">
          <time data-testid="header-clock">{formatClock(now)}</time>
          <span aria-hidden="true" className="hidden sm:inline">
            ·
          </span>
          <time data-testid="header-date">{formatHeaderDate(now)}</time>
        </span>
        <NotificationBell dashboardPath={dashboardPath} />
        <Link
          to={dashboardPath}
          className="rounded-md px-2 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 sm:px-3"
        >
          <Trans>Dashboard</Trans>
        </Link>
        <button
          type="button"
          onClick={() => void logout()}
          className="inline-flex min-h-10 min-w-10 items-center justify-center gap-1.5 rounded-md px-2 py-2 text-sm font-semibold text-muted hover:bg-surface-muted sm:px-3"
        >
          <LogOut className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          {/* On a phone the icon alone (its name stays for screen readers): "تسجيل الخروج" or
              "Cerrar sesión" beside the clock, the bell and Dashboard made a third row. */}
          <span className="max-sm:sr-only">
            <Trans>Logout</Trans>
          </span>
        </button>
      </nav>
    </header>
  );
}
