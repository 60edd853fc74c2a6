import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The landing page prerendered at build time (decision 014), answered at / instead of the SPA shell. */
export const LANDING_PAGE = 'landing.html';

/**
 * Serves the built React app from the same origin as the API. Hashed assets
 * are cached for a year; index.html and landing.html are revalidated so a deploy
 * shows at once. GET / answers the prerendered landing page, which loads a few kB
 * of script instead of the app; a build without it leaves / to the SPA shell,
 * whose lazy landing route shows the same page.
 * Returns false when there is no build (API-only, e.g. in tests or `npm run dev`).
 */
export async function serveClient(app: FastifyInstance, clientDir: string): Promise<boolean> {
  if (!existsSync(path.join(clientDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    // Ours, from setHeaders: send's own Cache-Control (max-age=0) would replace it.
    cacheControl: false,
    setHeaders(response, filePath) {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      response.setHeader('cache-control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  if (existsSync(path.join(clientDir, LANDING_PAGE))) {
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile(LANDING_PAGE));
  }
  return true;
}
