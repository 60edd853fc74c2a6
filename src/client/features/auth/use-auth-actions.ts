import toast from 'react-hot-toast/headless';
import { useLocation, useNavigate } from 'react-router';
import type { UserRole } from '#shared/constants';
import type { EndpointInput } from '#shared/contract/endpoint';
import type { logInStudent, logInTeacher, registerStudent, registerTeacher } from '#shared/contract/sign-in';
import { call } from '../../lib/api.ts';
import { dashboardPathFor, loginPathFor, readReturnTo, saveSession } from '../../lib/session.ts';

type LogIn = typeof logInTeacher | typeof logInStudent;
type Register = typeof registerTeacher | typeof registerStudent;

/** What every login and registration screen does after the form is valid (each page brings its endpoint). */
export function useAuthActions(role: UserRole) {
  const navigate = useNavigate();
  const returnTo = readReturnTo(useLocation().state, role);
  return {
    async logIn(endpoint: LogIn, credentials: EndpointInput<LogIn>['body']) {
      const { message, data: token } = await call(endpoint, { body: credentials });
      saveSession({ token, userType: role });
      toast.success(message);
      await navigate(returnTo ?? dashboardPathFor(role), { replace: true });
    },
    /** After success the user goes to the matching login with the server's message. */
    async register(endpoint: Register, registration: EndpointInput<Register>['body']) {
      const { message } = await call(endpoint, { body: registration });
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
