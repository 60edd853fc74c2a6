import { isLocale, localeCookie } from '#shared/locales';

/**
 * The landing page's language links (issue 32): plain links to `/?lang=…`, which the server
 * answers with that language's prerendered page, so they work without script. A click also keeps
 * the choice in the cookie, as the app's switcher does, so the app opens in it too. Plain
 * TypeScript: the prerendered page's script (landing-entry.ts) and the React page both use it,
 * and it pulls in no Lingui (the landing page downloads none).
 */
export const LOCALE_CHOICE_MARKER = 'data-locale-choice';

/** Keeps the language a link of the landing's switcher names (its marker's value) as the visitor's choice. */
export function rememberLocaleOf(link: Element): void {
  const locale = link.getAttribute(LOCALE_CHOICE_MARKER);
  if (isLocale(locale)) document.cookie = localeCookie(locale);
}
