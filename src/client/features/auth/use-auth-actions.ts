import toast from 'react-hot-toast/headless';
import { useLocation, useNavigate } from 'react-router';
import type { UserRole } from '#shared/constants';
import { apiPost } from '../../lib/api.ts';
import { dashboardPathFor, loginPathFor, readReturnTo, saveSession } from '../../lib/session.ts';

/** What every login and registration screen does after the form is valid. */
export function useAuthActions(role: UserRole) {
  const navigate = useNavigate();
  const returnTo = readReturnTo(useLocation().state, role);
  return {
    async logIn(path: string, credentials: Record<string, unknown>) {
      const { message, data: token } = await apiPost<string>(path, credentials);
      saveSession({ token, userType: role });
      toast.success(message);
      await navigate(returnTo ?? dashboardPathFor(role), { replace: true });
    },
    /** After success the user goes to the matching login with the server's message. */
    async register(path: string, registration: Record<string, unknown>) {
      const { message } = await apiPost<unknown>(path, registration);
      // The login screen shows the message as its notice (SPEC §8 success notice).
      await navigate(loginPathFor(role), { state: { notice: message, ...(returnTo ? { returnTo } : {}) } });
    },
  };
}

/** The message a registration left for the login screen, if any. */
export function readNotice(state: unknown): string | undefined {
  if (state && typeof state === 'object' && 'notice' in state && typeof state.notice === 'string') return state.notice;
  return undefined;
}
