import type { Plugin } from 'vite';
import { LOCALES, SOURCE_LOCALE, type Locale } from '../src/shared/locales.ts';
import { withDescription } from './vite-prerender-landing.ts';

/** The app shell's opening tag as src/client/index.html writes it, in the source locale. */
const SOURCE_HTML_TAG = `<html lang="${SOURCE_LOCALE}" dir="ltr">`;

/** The built shell (`html`, in the source locale) in `locale`: its `<html lang dir>` and its description. */
export function localizeShell(html: string, locale: Locale, description: string): string {
  if (!html.includes(SOURCE_HTML_TAG)) throw new Error(`index.html must open with ${SOURCE_HTML_TAG}`);
  return withDescription(html, description).replace(
    SOURCE_HTML_TAG,
    () => `<html lang="${locale}" dir="${LOCALES[locale].dir}">`,
  );
}

/**
 * Writes a copy of the app's shell per shipped locale beside index.html, with that locale's
 * `<html lang dir>` (index.ar.html: lang="ar" dir="rtl") and description (`descriptionOf`: the
 * landing page's, prerenderLanding's api): the server sends the one the visitor's cookie or
 * Accept-Language asks for, so the first paint is already right to left where it must be, with
 * no inline script (the CSP has none). The copies are compressed with the rest (decision 021).
 */
export function localizedShells({ descriptionOf }: { descriptionOf(locale: Locale): string | undefined }): Plugin {
  return {
    name: 'studyhall:localized-shells',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const shell = bundle['index.html'];
        if (shell?.type !== 'asset') return;
        const html = String(shell.source);
        for (const locale of Object.keys(LOCALES) as Locale[]) {
          if (locale === SOURCE_LOCALE) continue;
          const description = descriptionOf(locale);
          if (description === undefined)
            this.error(`no description in ${locale}: the landing page was not prerendered`);
          try {
            this.emitFile({
              type: 'asset',
              fileName: `index.${locale}.html`,
              source: localizeShell(html, locale, description),
            });
          } catch (error) {
            this.error(error instanceof Error ? error.message : String(error));
          }
        }
      },
    },
  };
}
