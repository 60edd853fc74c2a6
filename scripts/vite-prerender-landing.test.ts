import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hreflangLinks, landingFileOf, loadModuleBuiltForNode, localizeLanding } from './vite-prerender-landing.ts';
import { patience } from '../src/server/testing/patience.ts';

/** The limit of this file's slow tests (decision 042). */
const SLOW_TEST = { timeout: patience(60_000) };

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
// Over Vite's 4 kB inlining limit: the client build emits it as a file of its own.
const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg">${Array.from({ length: 300 }, (_, index) => `<circle cx="${index}" cy="${index}" r="${index % 7}"/>`).join('')}</svg>`;

describe('the landing page render module, built for Node as the build loads it', SLOW_TEST, () => {
  let fixture: string;
  beforeAll(async () => {
    // Inside node_modules, so the built module finds react-dom as the real one does.
    await mkdir(path.join(PROJECT_ROOT, 'node_modules/.cache'), { recursive: true });
    fixture = await mkdtemp(path.join(PROJECT_ROOT, 'node_modules/.cache/prerender-fixture-'));
    await writeFile(path.join(fixture, 'picture.svg'), PICTURE);
    await writeFile(path.join(fixture, 'page.css'), "@import 'tailwindcss';\n.page { color: rebeccapurple; }\n");
    await writeFile(
      path.join(fixture, 'render-page.tsx'),
      [
        "import './page.css';",
        "import pictureUrl from './picture.svg';",
        "import { renderToStaticMarkup } from 'react-dom/server';",
        'export function renderPage(): string {',
        '  return renderToStaticMarkup(<img className="page" src={pictureUrl} alt="" />);',
        '}',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await rm(fixture, { recursive: true, force: true });
  });

  it('may import CSS and assets, as components of the app do (tsx could not load a .css import)', async () => {
    const { renderPage } = await loadModuleBuiltForNode<{ renderPage(): string }>('render-page.tsx', {
      root: fixture,
      base: '/',
      mode: 'production',
      cacheDir: path.join(fixture, '.vite'),
      assetsDir: 'assets',
    });
    // The hashed URL the client build gives the same file.
    expect(renderPage()).toMatch(/<img class="page" src="\/assets\/picture-[\w-]{8}\.svg" alt=""\/>/);
  });
});

describe('the landing page per language (issue 32)', () => {
  // landing.html as Vite writes it: the head of index.html, the page's markup, its script.
  const built = [
    '<!doctype html>',
    '<html lang="en" dir="ltr">',
    '  <head>',
    '    <meta name="description" content="StudyHall: quizzes for teachers." />',
    '    <script type="module" crossorigin src="/assets/landing-abc123.js"></script>',
    '  </head>',
    '  <body>',
    '    <div id="root"><h1>One hall</h1><a href="/auth">Get Started</a></div>',
    '  </body>',
    '</html>',
  ].join('\n');
  const english = { sourceMarkup: '<h1>One hall</h1><a href="/auth">Get Started</a>' };

  it("writes each locale's <html lang dir>, markup and description, its script untouched", () => {
    const arabic = localizeLanding(built, {
      ...english,
      locale: 'ar',
      markup: '<h1>قاعة واحدة</h1><a href="/auth">ابدأ الآن</a>',
      description: 'StudyHall: اختبارات',
    });
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('<div id="root"><h1>قاعة واحدة</h1><a href="/auth">ابدأ الآن</a></div>');
    expect(arabic).toContain('<meta name="description" content="StudyHall: اختبارات" />');
    expect(arabic).toContain('<script type="module" crossorigin src="/assets/landing-abc123.js"></script>');
    expect(arabic).not.toContain('One hall');
    const spanish = localizeLanding(built, {
      ...english,
      locale: 'es',
      markup: '<h1>Un espacio</h1>',
      description: 'x',
    });
    expect(spanish).toContain('<html lang="es" dir="ltr">');
  });

  it("links every language's page in the head, and / as the one for any other (x-default)", () => {
    const page = localizeLanding(built, { ...english, locale: 'en', markup: english.sourceMarkup, description: 'd' });
    const head = /<head>([\s\S]*)<\/head>/.exec(page)?.[1] ?? '';
    expect(
      [...head.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)" \/>/g)].map(([, lang, href]) => [
        lang,
        href,
      ]),
    ).toEqual([
      ['en', '/?lang=en'],
      ['es', '/?lang=es'],
      ['ar', '/?lang=ar'],
      ['x-default', '/'],
    ]);
    expect(head).toContain(hreflangLinks());
    expect(page).toContain('<html lang="en" dir="ltr">');
  });

  it('escapes the description, and takes texts literally ($& is no pattern)', () => {
    const page = localizeLanding(built, {
      ...english,
      locale: 'es',
      markup: '<p>$& $1</p>',
      description: 'Quizzes "& more" <b>',
    });
    expect(page).toContain('<div id="root"><p>$& $1</p></div>');
    expect(page).toContain('content="Quizzes &quot;&amp; more&quot; &lt;b&gt;"');
  });

  it('refuses a page that lost its prerendered markup or its tags: no page in the wrong language ships', () => {
    const texts = { locale: 'es' as const, markup: '<h1>Un espacio</h1>', description: 'd' };
    expect(() => localizeLanding(built.replace('One hall', 'Another'), { ...english, ...texts })).toThrow(/markup/);
    expect(() => localizeLanding(built.replace('dir="ltr"', ''), { ...english, ...texts })).toThrow(/must open with/);
    expect(() => localizeLanding(built.replace('name="description"', 'name="x"'), { ...english, ...texts })).toThrow(
      /description/,
    );
  });

  it('names the files as the server looks for them', () => {
    expect(['en', 'es', 'ar'].map((locale) => landingFileOf(locale as 'en'))).toEqual([
      'landing.html',
      'landing.es.html',
      'landing.ar.html',
    ]);
  });
});
