import { useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const returnTo = readReturnTo(useLocation().state, role);
  return {
    async logIn(endpoint: LogIn, credentials: EndpointInput<LogIn>['body']) {
      const { data: token } = await call(endpoint, { body: credentials });
      saveSession({ token, userType: role });
      // The client's words, in the reader's language: the server's message is for logs (issue 32).
      toast.success(t`Logged in successfully`);
      await navigate(returnTo ?? dashboardPathFor(role), { replace: true });
    },
    /** After success the user goes to the matching login, which says the account was made. */
    async register(endpoint: Register, registration: EndpointInput<Register>['body']) {
      await call(endpoint, { body: registration });
      // The login screen shows it as its notice (SPEC §8 success notice).
      const notice = t`Registration successful, please log in`;
      await navigate(loginPathFor(role), { state: { notice, ...(returnTo ? { returnTo } : {}) } });
    },
  };
}

/** The message a registration left for the login screen, if any. */
export function readNotice(state: unknown): string | undefined {
  if (state && typeof state === 'object' && 'notice' in state && typeof state.notice === 'string') return state.notice;
  return undefined;
}
