import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, redirect, type LoaderFunctionArgs } from 'react-router';
import { isSchoolSetupNeeded } from '../school/school-setup-status.ts';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { dashboardPathFor, readSession } from '../../lib/session.ts';

/** The teacher's pages that lead to the first run's setup while the server has no school (issue 19). */
const NEEDS_SCHOOL = ['/auth/teacher/login', '/auth/teacher/register'];

/**
 * Nobody can log in and nobody has an invitation before the school is set up: a teacher's login
 * or registration leads to /setup. A loader, so the page never shows; once, here, for both.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!NEEDS_SCHOOL.includes(new URL(request.url).pathname)) return null;
  return (await isSchoolSetupNeeded()) ? redirect('/setup') : null;
}

/** The auth wrapper (SPEC §2): a visitor with a stored token goes to their dashboard. */
export function Component() {
  const session = readSession();
  const queryClient = useQueryClient();
  useEffect(() => {
    // Whoever was signed in before (logout, expired session) is forgotten here, once their
    // dashboard is gone: clearing earlier makes its still-mounted queries refetch without a token.
    if (!readSession()) queryClient.clear();
  }, [queryClient]);
  if (session) return <Navigate to={dashboardPathFor(session.userType)} replace />;
  return (
    <div className="flex min-h-screen flex-col">
      <PublicTopNav />
      <Outlet />
      <footer className="flex justify-center border-t border-line px-4 py-4">
        <LanguageSwitcher />
      </footer>
    </div>
  );
}
