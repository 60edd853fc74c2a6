import type { UserRole } from '#shared/constants';
import { LOCALE_COOKIE } from '#shared/locales';

/**
 * The stored session (SPEC §3: local storage holds the token and the user
 * type). Kept in one place so login, guards and logout agree on the keys.
 */
const TOKEN_KEY = 'token';
const USER_TYPE_KEY = 'userType';

export type StoredSession = { token: string; userType: UserRole };

export function readSession(): StoredSession | null {
  const token = localStorage.getItem(TOKEN_KEY);
  const userType = localStorage.getItem(USER_TYPE_KEY);
  if (!token || (userType !== 'teacher' && userType !== 'student')) return null;
  return { token, userType };
}

export function saveSession(session: StoredSession): void {
  localStorage.setItem(TOKEN_KEY, session.token);
  localStorage.setItem(USER_TYPE_KEY, session.userType);
}

/**
 * Where the language cookie came from: 'account' when the signed-in person's own language wrote
 * it (their profile, their account's setting), absent when a visitor chose it on a signed-out page.
 */
export const LOCALE_FROM_KEY = 'studyhall_locale_from';

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_TYPE_KEY);
  // A shared computer: the account's language leaves with the account (decision 055 addendum);
  // the one a visitor chose before signing in stays.
  if (localStorage.getItem(LOCALE_FROM_KEY) === 'account') {
    document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
    localStorage.removeItem(LOCALE_FROM_KEY);
  }
}

type SessionEndedListener = (message: string) => void;
const sessionEndedListeners = new Set<SessionEndedListener>();

/**
 * Tells `listener` when the server refuses the stored session (a 401 to a request that
 * carried it): the password was changed or every device signed out elsewhere (decision
 * 017), or the token expired. The dashboard guard listens and goes to the login. Returns
 * the unsubscribe function.
 */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** Called by the HTTP clients when `token` was refused with 401 and `message`. */
export function reportSessionEnded(token: string, message: string): void {
  // Another tab of this browser may have stored a newer token meanwhile (it changed the
  // password): the session lives on, only this request was sent with the old one.
  if (readSession()?.token !== token) return;
  for (const listener of [...sessionEndedListeners]) listener(message);
}

const passwordChangeListeners = new Set<() => void>();

/**
 * Tells `listener` when the server refuses the stored session with PASSWORD_CHANGE_REQUIRED
 * (decision 033: a teacher reset the password, and another tab signed in with the temporary
 * one): the student guard then shows the choose-a-new-password screen. Returns the unsubscribe.
 */
export function onPasswordChangeRequired(listener: () => void): () => void {
  passwordChangeListeners.add(listener);
  return () => passwordChangeListeners.delete(listener);
}

/** Called by the HTTP clients when the stored `token` was refused with PASSWORD_CHANGE_REQUIRED. */
export function reportPasswordChangeRequired(token: string): void {
  if (readSession()?.token !== token) return;
  for (const listener of [...passwordChangeListeners]) listener();
}

export const dashboardPathFor = (role: UserRole) => `/dashboard/${role}`;
/** Where a student signed in with a teacher's temporary password must go first (decision 033). */
export const CHOOSE_PASSWORD_PATH = '/dashboard/student/choose-password';
export const accountPathFor = (role: UserRole) => `/dashboard/${role}/account`;
export const loginPathFor = (role: UserRole) => `/auth/${role}/login`;

/**
 * Where someone logged in as `role` goes when they open a dashboard address of the
 * other role: a meeting invite (emeet, meet/{room}) leads to the same screen on their
 * own dashboard, since a teacher's invite link is also opened by other teachers;
 * anything else to their dashboard.
 */
export function ownDashboardPathFor(role: UserRole, pathname: string, search: string): string {
  const shared = /^\/dashboard\/(?:teacher|student)\/(emeet|meet\/[^/]+)$/.exec(pathname);
  return shared ? `/dashboard/${role}/${shared[1]}${search}` : dashboardPathFor(role);
}

/**
 * The address a login returns to: one of this role's dashboard screens, kept by the
 * guard that sent a logged-out visitor to the login (e.g. a meeting invite).
 * Anything else (another role's, another site's) is ignored.
 */
export function readReturnTo(state: unknown, role: UserRole): string | undefined {
  const returnTo = returnToOf(state);
  return returnTo?.startsWith(`${dashboardPathFor(role)}/`) ? returnTo : undefined;
}

/** The return address a navigation's state carries, unchecked (pass it on; check it with readReturnTo). */
export function returnToOf(state: unknown): string | undefined {
  return state && typeof state === 'object' && 'returnTo' in state && typeof state.returnTo === 'string'
    ? state.returnTo
    : undefined;
}
