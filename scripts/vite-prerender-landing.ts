import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { Plugin, ViteDevServer } from 'vite';

/** The placeholders of src/client/landing.html this plugin fills in. */
const HEAD_PLACEHOLDER = '<!-- head of index.html -->';
const MARKUP_PLACEHOLDER = '<!-- prerendered landing page -->';
const RENDER_MODULE = 'features/landing/render-landing.tsx';

type RenderModule = { renderLandingMarkup(): string };

/**
 * Vite plugin: turns src/client/landing.html into the landing page prerendered from
 * landing-page.tsx, so that `vite build` (hence `npm run build`, `npm start`'s first build and
 * CI) writes dist/client/landing.html, which the server answers GET / with (decision 014).
 * It runs before Vite's own HTML processing, so the head copied from index.html (icons, meta)
 * and the page's markup are handled like any page's. The build fails when a placeholder is
 * missing: a landing page without its content must not ship.
 * In `npm run dev` it serves http://localhost:5173/landing.html the same way; / stays the SPA.
 */
export function prerenderLanding(): Plugin {
  let root = '';
  let devServer: ViteDevServer | undefined;

  /** In dev through Vite (edits show on reload); in a build through tsx (no dev server there). */
  const loadRenderModule = async (): Promise<RenderModule> =>
    devServer
      ? ((await devServer.ssrLoadModule(`/${RENDER_MODULE}`)) as RenderModule)
      : ((await tsImport(pathToFileURL(path.join(root, RENDER_MODULE)).href, import.meta.url)) as RenderModule);

  return {
    name: 'studyhall:prerender-landing',
    configResolved(config) {
      root = config.root;
    },
    configureServer(server) {
      devServer = server;
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html, context) {
        if (path.basename(context.filename) !== 'landing.html') return html;
        const shell = await readFile(path.join(root, 'index.html'), 'utf8');
        const head = /<head>([\s\S]*?)<\/head>/.exec(shell)?.[1];
        if (!head) throw new Error('prerender-landing: index.html has no <head> to copy');
        for (const placeholder of [HEAD_PLACEHOLDER, MARKUP_PLACEHOLDER]) {
          if (!html.includes(placeholder)) throw new Error(`prerender-landing: landing.html lacks ${placeholder}`);
        }
        const { renderLandingMarkup } = await loadRenderModule();
        return html.replace(HEAD_PLACEHOLDER, head.trim()).replace(MARKUP_PLACEHOLDER, renderLandingMarkup());
      },
    },
  };
}
