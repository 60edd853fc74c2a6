import type { Plugin } from 'vite';
import { LOCALES, SOURCE_LOCALE } from '../src/shared/locales.ts';

/** The app shell's opening tag as src/client/index.html writes it, in the source locale. */
const SOURCE_HTML_TAG = `<html lang="${SOURCE_LOCALE}" dir="ltr">`;

/**
 * Writes a copy of the app's shell per shipped locale beside index.html, with that locale's
 * `<html lang dir>` (index.ar.html: lang="ar" dir="rtl"): the server sends the one the visitor's
 * cookie or Accept-Language asks for, so the first paint is already right to left where it must be,
 * with no inline script (the CSP has none). The copies are compressed with the rest (decision 021).
 */
export function localizedShells(): Plugin {
  return {
    name: 'studyhall:localized-shells',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const shell = bundle['index.html'];
        if (shell?.type !== 'asset') return;
        const html = String(shell.source);
        if (!html.includes(SOURCE_HTML_TAG)) this.error(`index.html must open with ${SOURCE_HTML_TAG}`);
        for (const [locale, { dir }] of Object.entries(LOCALES)) {
          if (locale === SOURCE_LOCALE) continue;
          this.emitFile({
            type: 'asset',
            fileName: `index.${locale}.html`,
            source: html.replace(SOURCE_HTML_TAG, `<html lang="${locale}" dir="${dir}">`),
          });
        }
      },
    },
  };
}
