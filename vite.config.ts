import { fileURLToPath } from 'node:url';
import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { LINGUI_MACROS } from './scripts/lingui-macros.ts';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { writeBuildStamp } from './scripts/vite-build-stamp.ts';
import { localizedShells } from './scripts/vite-localized-shells.ts';
import { precompressClient } from './scripts/vite-precompress.ts';
import { prerenderLanding } from './scripts/vite-prerender-landing.ts';
import { routeCatalogs } from './scripts/vite-route-catalogs.ts';
import { stripEndpointDocs } from './scripts/vite-strip-endpoint-docs.ts';

const apiPort = process.env.PORT ?? '3000';

/** The landing page per locale; its descriptions also word the app's shells (localizedShells). */
const landing = prerenderLanding();

export default defineConfig({
  root: 'src/client',
  base: '/',
  // precompressClient writes a .br and a .gz beside each text file of the build (decision 021);
  // writeBuildStamp, dist/build-stamp.json, what `npm start` checks the build against (decision 052).
  // Babel turns Lingui's macros (<Trans>, t) into message lookups before react(); lingui() compiles the
  // catalog a `import('…/messages.po')` asks for; localizedShells writes index.{locale}.html (decision 054), with the landing's description.
  // routeCatalogs (build only) gives each screen of router.tsx a catalog of its own messages (decision 057).
  plugins: [
    babel(LINGUI_MACROS),
    routeCatalogs(),
    lingui(),
    react(),
    tailwindcss(),
    stripEndpointDocs(),
    landing,
    localizedShells({ descriptionOf: (locale) => landing.api.descriptionOf(locale) }),
    precompressClient(),
    writeBuildStamp(),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // scripts/check-bundle.mjs reads it to sum what each route downloads.
    manifest: true,
    // Fonts stay files, however small (KaTeX's are a few kB): the Content-Security-Policy has no
    // font-src, so default-src 'self' refuses a font inlined as a data: URL.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf|otf|eot)$/i.test(file) ? false : undefined),
    // The polyfill, shared by the two pages, would become a chunk of its own without a source
    // map, which the bundle check cannot see into. Every browser the build targets but Firefox 114
    // and Safari 16.4-16.6 supports modulepreload; those fetch an entry's imports when it asks.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Two pages: the app's shell, and the landing page prerendered for / (decision 014).
      input: {
        index: fileURLToPath(new URL('src/client/index.html', import.meta.url)),
        landing: fileURLToPath(new URL('src/client/landing.html', import.meta.url)),
      },
    },
  },
  server: {
    port: 5173,
    // `npm run dev`: the API runs on PORT, Vite serves the client with hot reload.
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, ws: true } },
  },
});
