import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type ResolvedConfig, type Rolldown, type ViteDevServer } from 'vite';

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
 * The render module is loaded through Vite in both (an SSR build of its own in a build), so the
 * page's components may import CSS or assets as the app's do.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig | undefined;
  let devServer: ViteDevServer | undefined;

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
        const { renderLandingMarkup } = await loadRenderModule();
        return html.replace(HEAD_PLACEHOLDER, head.trim()).replace(MARKUP_PLACEHOLDER, renderLandingMarkup());
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
      plugins: [react(), tailwindcss()],
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
