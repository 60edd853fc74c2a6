import { isLocale, type Locale } from '#shared/locales';

/**
 * "Loading…" of the app's shell, which shows outside the translation layer: the router's first
 * paint (before app-providers.tsx's loader has downloaded any catalog) and the global loading
 * overlay (rendered by the router's root, above the I18nProvider). Said in the page's language,
 * which the server wrote on <html lang> (index.{locale}.html, decision 054) and activateLocale
 * keeps. Not in the catalogs: the entry chunk does not load Lingui (the landing route's budget),
 * so a new locale adds its word here (the typecheck asks for it).
 */
const LOADING = {
  en: 'Loading…',
  es: 'Cargando…',
  ar: 'جارٍ التحميل…',
} satisfies Record<Locale, string>;

/** "Loading…" in the language of the page. */
export function shellLoadingText(): string {
  const { lang } = document.documentElement;
  return isLocale(lang) ? LOADING[lang] : LOADING.en;
}
