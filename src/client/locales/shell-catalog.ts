import type { Messages } from '@lingui/core';
import type { DisplayLocale } from '../lib/display-locale.ts';

/**
 * The catalog lib/i18n.ts activates a locale with. Here, for the dev server and the tests, the
 * whole catalog (@lingui/vite-plugin compiles the PO file). The build replaces this module
 * (scripts/vite-route-catalogs.ts, decision 057) with the shell's catalog: only the messages
 * rendered outside any route (the error screen's), each route's coming with the route.
 */
export async function loadShellCatalog(locale: DisplayLocale): Promise<Messages> {
  const { messages } = (await import(`./${locale}/messages.po`)) as { messages: Messages };
  return messages;
}
