import { readCookie } from '#shared/cookies';
import { isLocale, LOCALE_COOKIE, resolveLocale, type Locale } from '#shared/locales';
import { LOCALE_FROM_KEY } from './session.ts';

/**
 * The pseudo-locale (decision 054, issue 32 point 7): every message accented ("Śĩĝń ĩń"), so any
 * text that did not come through the layer stands out. For tests and developers only: the cookie
 * `studyhall_locale=pseudo` turns it on; it is not in LOCALES, so the switcher does not list it and
 * the server neither accepts it as a choice nor writes it on <html>.
 */
export const PSEUDO_LOCALE = 'pseudo';

/** A locale the client can show: a shipped one, or the pseudo-locale. */
export type DisplayLocale = Locale | typeof PSEUDO_LOCALE;

/**
 * The locale of this visit: the choice kept in the cookie, else the browser's languages, else the
 * school's default, else English. The school's default reaches the client as the page's own
 * `<html lang>`: the server chose the shell by the same rule, knowing the school.
 * Without Lingui (decision 057): lib/route-catalogs.ts, in the entry chunk, asks it too.
 */
export function browserLocale(): DisplayLocale {
  const chosen = readCookie(document.cookie, LOCALE_COOKIE);
  if (chosen === PSEUDO_LOCALE) return PSEUDO_LOCALE;
  return resolveLocale({ chosen, ...automaticSources() });
}

/**
 * What a signed-in person sees (decision 055 addendum): their own choice, else ("Automatic") the
 * school's default, else English. Not the browser's languages: a school default is for them.
 */
export function signedInLocale({ own, schoolLocale }: { own: Locale | null; schoolLocale: Locale }): Locale {
  return resolveLocale({ chosen: own ?? undefined, schoolDefault: schoolLocale });
}

/**
 * The language a visitor chose with the switcher on this browser, if any: the cookie, unless the
 * account's profile or setting wrote it (marked) or it is the pseudo-locale. Signing in with an
 * account that has no language of its own keeps it on the account (decision 055 addendum).
 */
export function visitorChoice(): Locale | undefined {
  const chosen = readCookie(document.cookie, LOCALE_COOKIE);
  return isLocale(chosen) && localStorage.getItem(LOCALE_FROM_KEY) !== 'account' ? chosen : undefined;
}

/** The pseudo-locale is on (the tests' cookie): nothing of the account's replaces it. */
export const isPseudoLocaleOn = () => readCookie(document.cookie, LOCALE_COOKIE) === PSEUDO_LOCALE;

function automaticSources() {
  return { languages: navigator.languages, schoolDefault: shellLocale ?? undefined };
}

/** The language the server wrote the shell in, read once before any activation changes it. */
const shellLocale = typeof document === 'undefined' ? null : document.documentElement.getAttribute('lang');
