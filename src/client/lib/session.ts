import type { UserRole } from '#shared/constants';

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

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_TYPE_KEY);
}

export const dashboardPathFor = (role: UserRole) => `/dashboard/${role}`;
export const loginPathFor = (role: UserRole) => `/auth/${role}/login`;
