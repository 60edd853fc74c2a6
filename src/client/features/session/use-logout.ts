import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { clearSession } from '../../lib/session.ts';
import { useAppStore } from '../../stores/app-store.ts';

/** Logout (SPEC §4): clears the stored user and token, forgets cached data, goes to /auth. */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clearUsers = useAppStore((state) => state.clearUsers);
  return () => {
    clearSession();
    clearUsers();
    queryClient.clear();
    void navigate('/auth', { replace: true });
  };
}
