import { Trans } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { UserRole } from '#shared/constants';
import { hasSessionEnded } from '../../lib/api.ts';
import {
  clearSession,
  loginPathFor,
  onPasswordChangeRequired,
  onSessionEnded,
  ownDashboardPathFor,
  readSession,
} from '../../lib/session.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { profileQueries, type ProfileOf } from './profile.ts';

/**
 * The teacher and student guards (SPEC §4 Session): without a stored token of
 * this role, go to this role's login; otherwise fetch the profile, and if that
 * fails remove the token and go to the login. Screens read the profile with useProfile.
 * Any later request the server refuses with 401 ends the session the same way.
 */
export function RoleGuard<R extends UserRole>({
  role,
  children,
}: {
  role: R;
  children: (profile: ProfileOf<R>) => React.ReactNode;
}) {
  // Read once when the dashboard opens: a logout in progress clears storage
  // and must not make this guard redirect to the login mid-navigation.
  const [session] = useState(readSession);
  const hasSession = session?.userType === role;
  const navigate = useNavigate();
  const location = useLocation();
  const profile = useQuery({ ...profileQueries.profile(role), enabled: hasSession });
  const queryClient = useQueryClient();
  // One object per address: <Navigate> navigates again whenever its state changes, and the
  // login's loader (the first run's check) re-renders this guard while it runs, so a new object
  // each render would restart that navigation forever.
  const returnTo = `${location.pathname}${location.search}`;
  const loginState = useMemo(() => ({ returnTo }), [returnTo]);

  // Signed out elsewhere (a password change, "sign out of all devices") or expired: the next
  // request of any screen gets a 401, and the login tells the person why (decision 017).
  useEffect(
    () =>
      onSessionEnded((message) => {
        clearSession();
        void navigate(loginPathFor(role), { replace: true, state: { notice: message } });
      }),
    [navigate, role],
  );

  // A call refused because a teacher reset the password (another tab signed in with the temporary
  // one, decision 033): the profile says so, and the dashboard shows the choose-a-new-password screen.
  useEffect(
    () =>
      onPasswordChangeRequired(() => {
        if (role !== 'student') return;
        queryClient.setQueryData(profileQueries.profile('student').queryKey, (known) =>
          known ? { ...known, mustChangePassword: true } : known,
        );
      }),
    [queryClient, role],
  );

  useEffect(() => {
    if (profile.isError) {
      clearSession();
      const notice = hasSessionEnded(profile.error) ? profile.error.message : undefined;
      void navigate(loginPathFor(role), { replace: true, state: notice ? { notice } : undefined });
    }
  }, [profile.isError, profile.error, navigate, role]);

  if (!hasSession) {
    // Someone logged in with the other role is sent to their own dashboard; a logged-out
    // visitor to the login, which brings them back here (a meeting invite, say).
    return session ? (
      <Navigate to={ownDashboardPathFor(session.userType, location.pathname, location.search)} replace />
    ) : (
      <Navigate to={loginPathFor(role)} replace state={loginState} />
    );
  }
  if (!profile.data) {
    return (
      <div role="status" className="flex min-h-screen items-center justify-center text-muted">
        <Spinner className="me-3 size-8" />
        <Trans>Loading your dashboard…</Trans>
      </div>
    );
  }
  return children(profile.data);
}
