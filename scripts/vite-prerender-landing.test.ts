import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModuleBuiltForNode } from './vite-prerender-landing.ts';
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
