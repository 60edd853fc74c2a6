import { useEffect } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Loading a screen's code before its link is followed: a page that links to a heavy screen (the
 * class page to its board, issue 35's first paint) asks for it once it is idle, so following the
 * link waits for no chunk. Through the routes' own `lazy` (router.tsx), so the chunk and the
 * files it imports are the router's, and nothing here names them.
 */

let table: readonly RouteObject[] = [];

/** The app's routes (main.tsx, as the router is made). */
export function setPreloadableRoutes(routes: readonly RouteObject[]): void {
  table = routes;
}

/** Loads the code of the screens a path shows; a failure is left to the route, which loads again. */
export function preloadRoute(path: string): void {
  for (const { route } of matchRoutes([...table], path) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy().catch(() => undefined);
  }
}

/** Preloads `path`'s screens once the browser is idle after this page shows (none: nothing). */
export function usePreloadRoute(path: string | undefined): void {
  useEffect(() => {
    if (!path || typeof requestIdleCallback !== 'function') return;
    const handle = requestIdleCallback(() => preloadRoute(path), { timeout: 2_000 });
    return () => cancelIdleCallback(handle);
  }, [path]);
}
