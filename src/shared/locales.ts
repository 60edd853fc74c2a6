/**
 * The languages StudyHall's interface ships in (decision 054), shared by the client, which loads
 * their catalogs, and the server, which writes `<html lang dir>` on the app's page before it paints.
 */
export const LOCALES = {
  en: { name: 'English', dir: 'ltr' },
  es: { name: 'Español', dir: 'ltr' },
  ar: { name: 'العربية', dir: 'rtl' },
} as const satisfies Record<string, { name: string; dir: 'ltr' | 'rtl' }>;

export type Locale = keyof typeof LOCALES;

/** The shipped locales' codes, for the contract's enum (a person's and the school's choice). */
export const LOCALE_CODES = Object.keys(LOCALES) as [Locale, ...Locale[]];

export const SOURCE_LOCALE: Locale = 'en';

/** The cookie that keeps a visitor's explicit choice of language (the switcher sets it). */
export const LOCALE_COOKIE = 'studyhall_locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && Object.hasOwn(LOCALES, value);
}

/** The first of a person's languages (BCP 47 tags, most preferred first) that ships: `es-MX` is `es`. */
export function matchLocale(languages: readonly string[]): Locale | undefined {
  for (const tag of languages) {
    const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase();
    if (isLocale(primary)) return primary;
  }
  return undefined;
}

/** The language tags of an `Accept-Language` header, by their weight (q), most preferred first; q=0 left out. */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
}

/**
 * The locale to show: an explicit choice (the cookie), else the first of the person's languages
 * that ships, else the school's default, else English.
 */
export function resolveLocale({
  chosen,
  languages = [],
  schoolDefault,
}: {
  chosen?: string | undefined;
  languages?: readonly string[];
  schoolDefault?: string | undefined;
}): Locale {
  if (isLocale(chosen)) return chosen;
  return matchLocale(languages) ?? (isLocale(schoolDefault) ? schoolDefault : SOURCE_LOCALE);
}

/** A year: the choice outlives the visit, as the switchers promise. */
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** What `document.cookie` is set to to keep `locale` as the visitor's choice (the server reads it too). */
export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${LOCALE_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax`;
}

/**
 * The landing page's address in one language: `/?lang=es` is the Spanish page whoever asks (the
 * hreflang alternates name these, and the landing's switcher links to them, so they work without
 * script); `/` alone is chosen like the app's shell, by the cookie, then Accept-Language.
 */
export const LANDING_LOCALE_PARAM = 'lang';

export function landingPathOf(locale: Locale): string {
  return `/?${LANDING_LOCALE_PARAM}=${locale}`;
}
