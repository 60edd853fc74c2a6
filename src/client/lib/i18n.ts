import { i18n, type Messages } from '@lingui/core';
import { readCookie } from '#shared/cookies';
import { LOCALE_COOKIE, LOCALES, localeCookie, type Locale, resolveLocale } from '#shared/locales';

export { LOCALES, type Locale } from '#shared/locales';

/**
 * The locale of this visit: the choice kept in the cookie, else the browser's languages, else
 * (later, issue 32) the school's default, else English.
 */
export function browserLocale(): Locale {
  return resolveLocale({ chosen: readCookie(document.cookie, LOCALE_COOKIE), languages: navigator.languages });
}

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
