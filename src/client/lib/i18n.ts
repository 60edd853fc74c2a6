import { i18n, type Messages } from '@lingui/core';
import { readCookie } from '#shared/cookies';
import { LOCALE_COOKIE, LOCALES, localeCookie, type Locale, resolveLocale } from '#shared/locales';

export { isLocale, LOCALES, type Locale } from '#shared/locales';

/**
 * The pseudo-locale (decision 054, issue 32 point 7): every message accented ("Śĩĝń ĩń"), so any
 * text that did not come through the layer stands out. For tests and developers only: the cookie
 * `studyhall_locale=pseudo` turns it on; it is not in LOCALES, so the switcher does not list it and
 * the server neither accepts it as a choice nor writes it on <html>.
 */
export const PSEUDO_LOCALE = 'pseudo';
/** Its BCP 47 tag (the CLDR pseudo-locale for accented English): Intl formats it as English. */
const PSEUDO_TAG = 'en-XA';

/** A locale the client can show: a shipped one, or the pseudo-locale. */
export type DisplayLocale = Locale | typeof PSEUDO_LOCALE;

/**
 * The locale of this visit: the choice kept in the cookie, else the browser's languages, else the
 * school's default, else English. The school's default reaches the client as the page's own
 * `<html lang>`: the server chose the shell by the same rule, knowing the school.
 */
export function browserLocale(): DisplayLocale {
  const chosen = readCookie(document.cookie, LOCALE_COOKIE);
  if (chosen === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  return resolveLocale({ chosen, ...automaticSources() });
}

/** The locale without a choice of the person's: what "Automatic" in the account means. */
export function automaticLocale(): Locale {
  return resolveLocale(automaticSources());
}

function automaticSources() {
  return { languages: navigator.languages, schoolDefault: shellLocale ?? undefined };
}

/** The language the server wrote the shell in, read once before any activation changes it. */
const shellLocale = typeof document === 'undefined' ? null : document.documentElement.getAttribute('lang');

/**
 * Downloads only `locale`'s compiled catalog (the Vite plugin compiles the PO file), makes it the
 * active one, and says it on <html> (lang, dir) for screen readers, fonts and right-to-left layout.
 * The I18nProvider re-renders every translated text when it changes: no reload.
 */
export async function activateLocale(locale: DisplayLocale): Promise<void> {
  const tag = locale === PSEUDO_LOCALE ? PSEUDO_TAG : locale;
  if (i18n.locale !== tag) {
    const { messages } = (await import(`../locales/${locale}/messages.po`)) as { messages: Messages };
    i18n.loadAndActivate({ locale: tag, messages });
  }
  document.documentElement.lang = tag;
  document.documentElement.dir = locale === PSEUDO_LOCALE ? 'ltr' : LOCALES[locale].dir;
}

/** The switcher's choice: kept in the cookie for a year (the server reads it too), then shown at once. */
export async function chooseLocale(locale: Locale): Promise<void> {
  document.cookie = localeCookie(locale);
  await activateLocale(locale);
}

/** The person gave the choice back (their account's "Automatic"): the cookie goes, the automatic locale shows. */
export async function forgetLocaleChoice(): Promise<void> {
  document.cookie = `${LOCALE_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  await activateLocale(automaticLocale());
}
