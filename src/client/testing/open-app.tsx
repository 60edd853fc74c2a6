import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createBrowserRouter, createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';

/**
 * Opens the app at `path` as a page load would: every module of ours evaluated anew (the query
 * cache, the answer outboxes, the stores), then the real routes with their layouts and guards.
 * Opening it again in the same test is a reload; localStorage (the session) stays.
 * `inAddressBar`: the router keeps its location in the document's address (window.location), as
 * the app's does, for screens that read it there (the list filters).
 * The locale comes from the `studyhall_locale` cookie, else English (jsdom's navigator.languages is
 * en-US), as app-providers.tsx's loader resolves it.
 */
export async function openApp(path: string, { inAddressBar = false } = {}) {
  vi.resetModules();
  const { routes } = await import('../router.tsx');
  if (inAddressBar) window.history.replaceState(null, '', path);
  const router = inAddressBar ? createBrowserRouter(routes) : createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  return { user, router, ...render(<RouterProvider router={router} />) };
}
