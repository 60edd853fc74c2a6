import { i18n } from '@lingui/core';
import { LOCALES, localeCookie, type Locale } from '#shared/locales';
import { loadShellCatalog } from '../locales/shell-catalog.ts';
import { PSEUDO_LOCALE, type DisplayLocale } from './display-locale.ts';
import { loadShownRouteCatalogs, receiveRouteMessages } from './route-catalogs.ts';
import { LOCALE_FROM_KEY } from './session.ts';

export { isLocale, LOCALES, type Locale } from '#shared/locales';

export {
  browserLocale,
  isPseudoLocaleOn,
  PSEUDO_LOCALE,
  signedInLocale,
  visitorChoice,
  type DisplayLocale,
} from './display-locale.ts';

/** The pseudo-locale's BCP 47 tag (the CLDR pseudo-locale for accented English): Intl formats it as English. */
const PSEUDO_TAG = 'en-XA';

const tagOf = (locale: DisplayLocale) => (locale === PSEUDO_LOCALE ? PSEUDO_TAG : locale);

// A route's messages (lib/route-catalogs.ts) join its locale's: Lingui merges, and re-renders the
// translated texts when that locale is the active one.
receiveRouteMessages((locale, messages) => i18n.load(tagOf(locale), messages));

/**
 * Downloads `locale`'s messages that can show now, makes it the active locale, and says it on
 * <html> (lang, dir) for screen readers, fonts and right-to-left layout. In the build (decision
 * 057) that is the shell's catalog and the catalog of every route shown so far, each a few kB; a
 * route shown later brings its own (lib/lazy-route.ts). On the dev server and in the tests, the
 * whole catalog. The I18nProvider re-renders every translated text when it changes: no reload.
 */
export async function activateLocale(locale: DisplayLocale): Promise<void> {
  const tag = tagOf(locale);
  if (i18n.locale !== tag) {
    const [messages] = await Promise.all([loadShellCatalog(locale), loadShownRouteCatalogs(locale)]);
    // load merges (the routes' messages may have arrived first); loadAndActivate would replace them.
    i18n.load(tag, messages);
    i18n.activate(tag);
  }
  document.documentElement.lang = tag;
  document.documentElement.dir = locale === PSEUDO_LOCALE ? 'ltr' : LOCALES[locale].dir;
}

/**
 * A choice of language: kept in the cookie for a year (the server reads it too), then shown at once.
 * `from` says whose: a visitor's (the switcher) stays after a sign-out; the account's (its profile,
 * its setting) is marked, and signing out removes it (clearSession).
 */
export async function chooseLocale(locale: Locale, from: 'visitor' | 'account' = 'visitor'): Promise<void> {
  document.cookie = localeCookie(locale);
  if (from === 'account') localStorage.setItem(LOCALE_FROM_KEY, 'account');
  else localStorage.removeItem(LOCALE_FROM_KEY);
  await activateLocale(locale);
}
