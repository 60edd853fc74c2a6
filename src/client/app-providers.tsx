import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { TOAST_DURATIONS_MS } from '#shared/constants';
import { Toaster } from './components/ui/toaster.tsx';
import { activateLocale, browserLocale } from './lib/i18n.ts';
import { failureCaches } from './lib/query-errors.ts';

// One cache for the whole visit: it outlives this layout when the visitor goes back to the landing page.
// A failed query or mutation is a toast from one handler, unless its meta says the screen tells it.
const queryClient = new QueryClient({
  ...failureCaches(),
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});

/**
 * The visitor's locale, its catalog downloaded and active before the first translated screen renders
 * (the router waits for a loader): no flash of English (decision 054). A catalog that cannot load
 * is a failed route, as a screen's chunk would be (the error screen offers a reload). In the layout
 * route, not main.tsx, so the app's landing route (not translated yet) downloads none of it.
 */
export async function loader() {
  await activateLocale(browserLocale());
  return null;
}

/**
 * Once per visit: the locale does not depend on the address, and the switcher activates a new
 * one itself. Run again on every navigation, the loader held each change of the address (a list's
 * filters) until it settled, and a list asked the server for the old filters once more.
 */
export const shouldRevalidate = () => false;

/**
 * Layout route around the auth pages and the dashboards: the query cache, the toaster, and the
 * translations (the loader activated the locale; the switcher changes it).
 * The landing page uses neither, so they stay out of the entry chunk it downloads.
 */
export function Component() {
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Outlet />
        {/* react-hot-toast keeps at most 20 toasts (its TOAST_LIMIT), as SPEC §9 asks. */}
        <Toaster
          toastOptions={{
            blank: { duration: TOAST_DURATIONS_MS.blank },
            error: { duration: TOAST_DURATIONS_MS.error },
            success: { duration: TOAST_DURATIONS_MS.success },
            loading: { duration: TOAST_DURATIONS_MS.loading },
          }}
        />
      </QueryClientProvider>
    </I18nProvider>
  );
}
