import { CHUNK_LOAD_TIMEOUT_MS } from '#shared/constants';
import { loadRouteCatalog, type RouteCatalogs } from './route-catalogs.ts';

/** A screen part (JS or CSS chunk) that could not be loaded. */
export class ChunkLoadError extends Error {
  constructor(
    readonly isCss: boolean,
    cause?: unknown,
  ) {
    super(isCss ? 'Loading CSS chunk failed' : 'Loading chunk failed', { cause });
    this.name = 'ChunkLoadError';
  }
}

// Messages browsers and Vite use when a dynamic import or its CSS fails.
const JS_CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i;
const CSS_CHUNK_FAILURE = /Unable to preload CSS|CSS chunk/i;

function toChunkError(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (CSS_CHUNK_FAILURE.test(message)) return new ChunkLoadError(true, error);
  if (JS_CHUNK_FAILURE.test(message)) return new ChunkLoadError(false, error);
  return error;
}

/**
 * Wraps a route module import for React Router's `lazy`: a failure or a
 * load slower than 120 s (SPEC §9) becomes a ChunkLoadError, which the error
 * screen offers to retry.
 * `catalogs`, the route's messages in each locale, is not written in router.tsx: the build adds it
 * to every call (scripts/vite-route-catalogs.ts, decision 057), and the one of the locale shown
 * loads beside the module, so the screen renders translated. The dev server and the tests load
 * the whole catalog instead and pass none.
 */
export function lazyRoute<T>(load: () => Promise<T>, catalogs?: RouteCatalogs): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkLoadError(false)), CHUNK_LOAD_TIMEOUT_MS);
      Promise.all([load(), catalogs && loadRouteCatalog(catalogs)]).then(
        ([module]) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(toChunkError(error));
        },
      );
    });
}
