import { LogOut } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { CLOCK_REFRESH_MS } from '#shared/constants';
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

/**
 * Shared dashboard header (SPEC §2): name, user, clock, date, Dashboard, Logout. The user
 * name leads to the account page (password, sign out of all devices; decision 017).
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
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="flex h-16 items-center gap-2 px-3 sm:gap-4 sm:px-5">
        <BrandLink isCompact />
        <Link
          to={accountPath}
          aria-label={`${userName}, account settings`}
          className="ml-auto min-w-0 truncate rounded-md px-1 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100 hover:text-brand-800"
        >
          <span data-testid="header-user-name">{userName}</span>
        </Link>
        <span className="flex shrink-0 flex-col items-end text-xs leading-tight text-slate-700 sm:flex-row sm:gap-2 sm:text-sm">
          <time data-testid="header-clock">{formatClock(now)}</time>
          <span aria-hidden="true" className="hidden sm:inline">
            ·
          </span>
          <time data-testid="header-date">{formatHeaderDate(now)}</time>
        </span>
        <Link
          to={dashboardPath}
          className="rounded-md px-2 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 sm:px-3"
        >
          Dashboard
        </Link>
        <button
          type="button"
          onClick={() => void logout()}
          className="inline-flex items-center gap-1.5 rounded-md px-2 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 sm:px-3"
        >
          <LogOut className="size-4" aria-hidden="true" />
          Logout
        </button>
      </nav>
    </header>
  );
}
