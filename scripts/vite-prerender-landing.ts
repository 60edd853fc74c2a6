import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig, type Rolldown, type ViteDevServer } from 'vite';
import {
  isLocale,
  LANDING_LOCALE_PARAM,
  landingPathOf,
  LOCALES,
  SOURCE_LOCALE,
  type Locale,
} from '../src/shared/locales.ts';
import { LINGUI_MACROS } from './lingui-macros.ts';

/** The placeholders of src/client/landing.html this plugin fills in. */
const HEAD_PLACEHOLDER = '<!-- head of index.html -->';
const MARKUP_PLACEHOLDER = '<!-- prerendered landing page -->';
const RENDER_MODULE = 'features/landing/render-landing.tsx';
/** The page's opening tag as src/client/landing.html writes it, in the source locale. */
const SOURCE_HTML_TAG = `<html lang="${SOURCE_LOCALE}" dir="ltr">`;
/** index.html's description, which the landing page words in each language. */
const DESCRIPTION = /(<meta\s+name="description"\s+content=")[^"]*(")/;

type RenderModule = {
  renderLandingMarkup(locale: Locale): string;
  landingDescription(locale: Locale): string;
};

/** The landing page's file in `locale`, as the server looks for it (src/server/plugins/static-client.ts). */
export const landingFileOf = (locale: Locale) => (locale === SOURCE_LOCALE ? 'landing.html' : `landing.${locale}.html`);

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Each language's page, for search engines and the like (relative: the server's address is not known at build time). */
export function hreflangLinks(): string {
  const alternates = (Object.keys(LOCALES) as Locale[]).map(
    (locale) => `<link rel="alternate" hreflang="${locale}" href="${landingPathOf(locale)}" />`,
  );
  return [...alternates, '<link rel="alternate" hreflang="x-default" href="/" />'].join('\n    ');
}

/**
 * `html` (a built page: the landing page, or the app's shell) with its `<meta name="description">`
 * saying `description`. Throws when the page has none: a page must not ship with the wrong one.
 */
export function withDescription(html: string, description: string): string {
  if (!DESCRIPTION.test(html)) throw new Error('prerender-landing: the built page has no <meta name="description">');
  // A function, not a string, as replacement: a `$&` in the text would be read as a pattern.
  return html.replace(
    DESCRIPTION,
    (_match, before: string, after: string) => `${before}${escapeHtml(description)}${after}`,
  );
}

/**
 * The built landing.html (`html`, its markup in the source locale, `sourceMarkup`) in `locale`:
 * its `<html lang dir>`, markup and description, with the hreflang alternates in its head.
 * Throws when the page is not as expected: a page in the wrong language must not ship.
 */
export function localizeLanding(
  html: string,
  {
    locale,
    sourceMarkup,
    markup,
    description,
  }: { locale: Locale; sourceMarkup: string; markup: string; description: string },
): string {
  if (!html.includes(SOURCE_HTML_TAG))
    throw new Error(`prerender-landing: landing.html must open with ${SOURCE_HTML_TAG}`);
  if (html.split(sourceMarkup).length !== 2)
    throw new Error('prerender-landing: the built page lost its prerendered markup');
  if (!html.includes('</head>')) throw new Error('prerender-landing: the built page has no </head>');
  // Functions, not strings, as replacements: a `$&` in a text would be read as a pattern.
  return withDescription(html, description)
    .replace(SOURCE_HTML_TAG, () => `<html lang="${locale}" dir="${LOCALES[locale].dir}">`)
    .replace(sourceMarkup, () => markup)
    .replace('</head>', () => `  ${hreflangLinks()}\n  </head>`);
}

/**
 * Vite plugin: turns src/client/landing.html into the landing page prerendered from
 * landing-page.tsx, so that `vite build` (hence `npm run build`, `npm start`'s first build and
 * CI) writes dist/client/landing.html, which the server answers GET / with (decision 014).
 * It runs before Vite's own HTML processing, so the head copied from index.html (icons, meta)
 * and the page's markup are handled like any page's. The build fails when a placeholder is
 * missing: a landing page without its content must not ship.
 * Once per shipped locale (issue 32): landing.html in English, landing.es.html and
 * landing.ar.html beside it, each with its `<html lang dir>`, its text, its description and the
 * hreflang links to the others; the server sends the one the visitor's language asks for. The
 * copies are made from the built landing.html (scripts and styles as Vite wrote them), their
 * markup swapped, and are compressed with the rest (decision 021).
 * In `npm run dev` it serves http://localhost:5173/landing.html the same way (?lang=es for
 * another language); / stays the SPA.
 * The render module is loaded through Vite in both (an SSR build of its own in a build), so the
 * page's components may import CSS or assets as the app's do.
 */
export function prerenderLanding(): Omit<Plugin, 'api'> & {
  api: { descriptionOf(locale: Locale): string | undefined };
} {
  let config: ResolvedConfig | undefined;
  let devServer: ViteDevServer | undefined;
  /** In a build, what transformIndexHtml rendered, for generateBundle's copies per locale. */
  let rendered: Map<Locale, { markup: string; description: string }> | undefined;

  /** In dev through the dev server (edits show on reload); in a build, built for Node once. */
  const loadRenderModule = async (): Promise<RenderModule> =>
    devServer
      ? ((await devServer.ssrLoadModule(`/${RENDER_MODULE}`)) as RenderModule)
      : loadModuleBuiltForNode<RenderModule>(RENDER_MODULE, {
          root: config!.root,
          base: config!.base,
          mode: config!.mode,
          cacheDir: config!.cacheDir,
          assetsDir: config!.build.assetsDir,
        });

  return {
    name: 'studyhall:prerender-landing',
    // The description in each language, for the app's shells (localizedShells): once rendered, in a build.
    api: { descriptionOf: (locale) => rendered?.get(locale)?.description },
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      devServer = server;
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html, context) {
        if (path.basename(context.filename) !== 'landing.html') return html;
        const shell = await readFile(path.join(config!.root, 'index.html'), 'utf8');
        const head = /<head>([\s\S]*?)<\/head>/.exec(shell)?.[1];
        if (!head) throw new Error('prerender-landing: index.html has no <head> to copy');
        for (const placeholder of [HEAD_PLACEHOLDER, MARKUP_PLACEHOLDER]) {
          if (!html.includes(placeholder)) throw new Error(`prerender-landing: landing.html lacks ${placeholder}`);
        }
        if (!html.includes(SOURCE_HTML_TAG))
          throw new Error(`prerender-landing: landing.html must open with ${SOURCE_HTML_TAG}`);
        const { renderLandingMarkup, landingDescription } = await loadRenderModule();
        rendered = new Map(
          (Object.keys(LOCALES) as Locale[]).map((locale) => [
            locale,
            { markup: renderLandingMarkup(locale), description: landingDescription(locale) },
          ]),
        );
        const page = html.replace(HEAD_PLACEHOLDER, () => head.trim());
        if (!devServer) return page.replace(MARKUP_PLACEHOLDER, () => rendered!.get(SOURCE_LOCALE)!.markup);
        // The dev server's page in the language its address asks for (the build's copies are made below).
        const asked = new URL(context.originalUrl ?? '/', 'http://localhost').searchParams.get(LANDING_LOCALE_PARAM);
        const locale = isLocale(asked) ? asked : SOURCE_LOCALE;
        return page
          .replace(SOURCE_HTML_TAG, () => `<html lang="${locale}" dir="${LOCALES[locale].dir}">`)
          .replace(MARKUP_PLACEHOLDER, () => rendered!.get(locale)!.markup);
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle['landing.html'];
        if (page?.type !== 'asset') return;
        if (!rendered) this.error('prerender-landing: landing.html was built without being prerendered');
        const html = String(page.source);
        const sourceMarkup = rendered.get(SOURCE_LOCALE)!.markup;
        try {
          for (const [locale, texts] of rendered) {
            const localized = localizeLanding(html, { locale, sourceMarkup, ...texts });
            if (locale === SOURCE_LOCALE) page.source = localized;
            else this.emitFile({ type: 'asset', fileName: landingFileOf(locale), source: localized });
          }
        } catch (error) {
          this.error(error instanceof Error ? error.message : String(error));
        }
      },
    },
  };
}

/** What the SSR build takes from the client build's config, so that both name files alike. */
type NodeBuildSettings = { root: string; base: string; mode: string; cacheDir: string; assetsDir: string };

/**
 * A module of the client (`modulePath`, from `root`) as Vite builds it for Node (`build.ssr`),
 * with the app's JSX and CSS plugins: a CSS import is dropped as in any SSR build, an imported
 * asset gets the URL the client build gives the same file (/assets/name-hash.ext: same content,
 * same hash). React and the router stay external, so the output goes to Vite's cache folder
 * inside node_modules, where Node finds them; it is removed once loaded.
 */
export async function loadModuleBuiltForNode<T>(modulePath: string, settings: NodeBuildSettings): Promise<T> {
  await mkdir(settings.cacheDir, { recursive: true });
  const outDir = await mkdtemp(path.join(settings.cacheDir, 'prerender-'));
  try {
    const result = await build({
      configFile: false,
      root: settings.root,
      base: settings.base,
      mode: settings.mode,
      cacheDir: settings.cacheDir,
      logLevel: 'warn',
      // The app's macro transform and catalog compiler (vite.config.ts): the page's texts are Lingui messages.
      plugins: [babel(LINGUI_MACROS), lingui(), react(), tailwindcss()],
      build: {
        ssr: modulePath,
        outDir,
        emptyOutDir: true,
        copyPublicDir: false,
        minify: false,
        assetsDir: settings.assetsDir,
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    const entry = outputs.flatMap((output) => output.output).find((file) => file.type === 'chunk' && file.isEntry);
    if (!entry) throw new Error(`prerender-landing: the SSR build of ${modulePath} produced no entry`);
    return (await import(pathToFileURL(path.join(outDir, entry.fileName)).href)) as T;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
