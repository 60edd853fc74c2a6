import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { clearSession } from '../../lib/session.ts';
import { useAppStore } from '../../stores/app-store.ts';

/** Logout (SPEC §4): clears the stored user and token, forgets cached data, goes to /auth. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clearUsers = useAppStore((state) => state.clearUsers);
  return async () => {
    clearSession();
    await navigate('/auth', { replace: true });
    // Only once the dashboard is gone: clearing earlier re-renders its guard,
    // which would send the user to the login screen instead of /auth.
    clearUsers();
    queryClient.clear();
  };
}
