import { useNavigate } from 'react-router';
import { activateLocale, browserLocale } from '../../lib/i18n.ts';
import { clearSession } from '../../lib/session.ts';

/**
 * Logout (SPEC §4): leaves full screen, clears the stored token and goes to /auth, whose wrapper then
 * forgets the cached data and the user slices (after the dashboard has unmounted).
 */
export function useLogout() {
  const navigate = useNavigate();
  return async () => {
    // The student's study mode put the browser in full screen; the login screen has no use for it.
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    clearSession();
    // The account's language may have left with it: the login shows the browser's own.
    await activateLocale(browserLocale());
    await navigate('/auth', { replace: true });
  };
}
