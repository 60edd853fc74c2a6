import { i18n, type Messages } from '@lingui/core';
import { readCookie } from '#shared/cookies';
import { LOCALE_COOKIE, LOCALES, localeCookie, type Locale, resolveLocale } from '#shared/locales';

export { LOCALES, type Locale } from '#shared/locales';

/**
 * The locale of this visit: the choice kept in the cookie, else the browser's languages, else the
 * school's default, else English. The school's default reaches the client as the page's own
 * `<html lang>`: the server chose the shell by the same rule, knowing the school.
 */
export function browserLocale(): Locale {
  return resolveLocale({ chosen: readCookie(document.cookie, LOCALE_COOKIE), ...automaticSources() });
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
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale !== locale) {
    const { messages } = (await import(`../locales/${locale}/messages.po`)) as { messages: Messages };
    i18n.loadAndActivate({ locale, messages });
  }
  document.documentElement.lang = locale;
  document.documentElement.dir = LOCALES[locale].dir;
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
