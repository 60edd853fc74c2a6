import { useNavigate } from 'react-router';
import { clearSession } from '../../lib/session.ts';

/**
 * Logout (SPEC §4): clears the stored token and goes to /auth, whose wrapper then
 * forgets the cached data and the user slices (after the dashboard has unmounted).
 */
export function useLogout() {
  const navigate = useNavigate();
  return async () => {
    clearSession();
    await navigate('/auth', { replace: true });
  };
}
