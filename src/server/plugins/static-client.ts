import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built React app from the same origin as the API. Hashed assets
 * are cached for a year; index.html is revalidated so a deploy shows at once.
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
  return true;
}
