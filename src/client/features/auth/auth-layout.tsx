import { Navigate, Outlet } from 'react-router';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { dashboardPathFor, readSession } from '../../lib/session.ts';

/** The auth wrapper (SPEC §2): a visitor with a stored token goes to their dashboard. */
export function Component() {
  const session = readSession();
  if (session) return <Navigate to={dashboardPathFor(session.userType)} replace />;
  return (
    <div className="flex min-h-screen flex-col">
      <PublicTopNav />
      <Outlet />
    </div>
  );
}
