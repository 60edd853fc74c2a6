import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  isLocale,
  LANDING_LOCALE_PARAM,
  LOCALE_COOKIE,
  LOCALES,
  matchLocale,
  parseAcceptLanguage,
  resolveLocale,
  SOURCE_LOCALE,
  type Locale,
} from '#shared/locales';
import { readCookie } from '#shared/cookies';

/** The landing page prerendered at build time (decision 014), answered at / instead of the SPA shell. */
export const LANDING_PAGE = 'landing.html';
/** Its copy per locale (landing.ar.html) that scripts/vite-prerender-landing.ts writes. */
const landingOf = (locale: Locale) => (locale === SOURCE_LOCALE ? LANDING_PAGE : `landing.${locale}.html`);

/** The app's shell, and its copy per locale (index.ar.html) that scripts/vite-localized-shells.ts writes. */
const APP_SHELL = 'index.html';
const shellOf = (locale: Locale) => (locale === SOURCE_LOCALE ? APP_SHELL : `index.${locale}.html`);
/** The pages written once per language: which of them a visitor gets depends on their language. */
const isPagePerLocale = (fileName: string) => /^(index|landing)(\.[a-z]{2,3})?\.html$/.test(fileName);

/** The file of the SPA shell a page request gets: the one its language is written in. */
export type AppShellFor = (request: FastifyRequest) => Promise<string>;

/** The school's default language (features/school/school-locale.ts), undefined before the set-up. */
export type SchoolLocale = () => Promise<Locale | undefined>;

/** The compressed copies the build writes beside a file (scripts/vite-precompress.ts, decision 021). */
const PRECOMPRESSED_EXTENSIONS = ['.br', '.gz'];

/**
 * Serves the built React app from the same origin as the API. Hashed assets
 * are cached for a year; index.html and landing.html are revalidated so a deploy
 * shows at once. GET / answers the prerendered landing page, which loads a few kB
 * of script instead of the app; a build without it leaves / to the SPA shell,
 * whose lazy landing route shows the same page.
 * A file the build compressed is sent as its .br or .gz to a browser that accepts
 * it, the two HTML pages included (decision 021); nothing is compressed per request.
 * The SPA shell and the landing page are sent in the visitor's language (decision 054, issue 32):
 * the `studyhall_locale` cookie, else Accept-Language, else the school's default (read only then),
 * else English (decision 055 and its addendum), and say they vary by the first two;
 * `/?lang=es` is the landing page in that language whoever asks (its hreflang alternates and
 * language links name these addresses). A language the build did not write falls back to English.
 * Returns which shell file a page request gets, or null when there is no build (API-only, e.g. in
 * tests or `npm run dev`).
 */
export async function serveClient(
  app: FastifyInstance,
  clientDir: string,
  schoolLocale: SchoolLocale = async () => undefined,
): Promise<AppShellFor | null> {
  if (!existsSync(path.join(clientDir, APP_SHELL))) return null;
  const withVariants = await filesWithPrecompressedVariants(clientDir);
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    // x.js.br for `Accept-Encoding: br`, x.js.gz for gzip, x.js otherwise; reply.sendFile too.
    preCompressed: true,
    // The compressed copies are representations of their file, not addresses of their own.
    globIgnore: PRECOMPRESSED_EXTENSIONS.map((extension) => `**/*${extension}`),
    // Ours, from setHeaders: send's own Cache-Control (max-age=0) would replace it.
    cacheControl: false,
    // `filePath` is the file sent: x.js.br when the browser got the brotli copy of x.js.
    setHeaders(response, filePath) {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      response.setHeader('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      // Caches must key this answer by Accept-Encoding, identity answers included: @fastify/static does not say so.
      const isVariant = PRECOMPRESSED_EXTENSIONS.includes(path.extname(filePath));
      const varies = isVariant || withVariants.has(filePath) ? ['Accept-Encoding'] : [];
      const fileName = path.basename(isVariant ? filePath.slice(0, -path.extname(filePath).length) : filePath);
      // Which page is sent depends on the language the visitor chose (cookie) or reads (Accept-Language).
      if (path.dirname(filePath) === path.resolve(clientDir) && isPagePerLocale(fileName)) {
        varies.push('Accept-Language', 'Cookie');
      }
      if (varies.length > 0) response.setHeader('vary', varies.join(', '));
    },
  });
  /** The page of `fileOf` in the request's language, among those the build wrote. */
  const pagePerLocale = (fileOf: (locale: Locale) => string) => {
    const shipped = (Object.keys(LOCALES) as Locale[]).filter((locale) =>
      existsSync(path.join(clientDir, fileOf(locale))),
    );
    return async (request: FastifyRequest, asked?: Locale) => {
      const locale = asked ?? (await visitorLocale(request, schoolLocale));
      return fileOf(shipped.includes(locale) ? locale : SOURCE_LOCALE);
    };
  };
  if (existsSync(path.join(clientDir, LANDING_PAGE))) {
    const landingFor = pagePerLocale(landingOf);
    app.get('/', async (request, reply) => {
      const asked = (request.query as Record<string, unknown>)[LANDING_LOCALE_PARAM];
      const page = await landingFor(request, isLocale(asked) ? asked : undefined);
      return reply.header('cache-control', 'no-cache').sendFile(page);
    });
  }
  const shellFor = pagePerLocale(shellOf);
  return (request) => shellFor(request);
}

/**
 * The language of a signed-out page (decision 055 addendum): the cookie's choice, else the first
 * of Accept-Language that ships, else the school's default, else English. The school is asked only
 * when the first two give nothing. A signed-in person's page follows the cookie their account wrote.
 */
async function visitorLocale(request: FastifyRequest, schoolLocale: SchoolLocale): Promise<Locale> {
  const chosen = readCookie(request.headers.cookie, LOCALE_COOKIE);
  const languages = parseAcceptLanguage(request.headers['accept-language']);
  if (isLocale(chosen)) return chosen;
  return matchLocale(languages) ?? resolveLocale({ schoolDefault: await schoolLocale() });
}

/** The absolute paths of the files below `clientDir` that have a compressed copy beside them. */
async function filesWithPrecompressedVariants(clientDir: string): Promise<Set<string>> {
  const entries = await readdir(clientDir, { recursive: true, withFileTypes: true });
  const files = new Set<string>();
  for (const entry of entries) {
    const extension = path.extname(entry.name);
    if (entry.isFile() && PRECOMPRESSED_EXTENSIONS.includes(extension)) {
      files.add(path.join(entry.parentPath, entry.name.slice(0, -extension.length)));
    }
  }
  return files;
}
