import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { dashboardPathFor, readSession } from '../../lib/session.ts';

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
    </div>
  );
}
