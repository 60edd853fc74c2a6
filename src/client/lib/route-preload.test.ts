import { describe, expect, it, vi } from 'vitest';
import { preloadRoute, setPreloadableRoutes } from './route-preload.ts';

/** A page asks for a screen's code before its link is followed, through the routes' own `lazy`. */
describe('preloading a route', () => {
  it('calls the lazy functions of the routes a path matches, and only those', async () => {
    const layout = vi.fn(async () => ({}));
    const board = vi.fn(async () => ({}));
    const other = vi.fn(async () => ({}));
    const failing = vi.fn(async () => Promise.reject(new Error('chunk')));
    setPreloadableRoutes([
      {
        path: '/',
        children: [
          {
            lazy: layout,
            children: [
              { path: 'classes/:id/board', lazy: board },
              { path: 'classes/:id', lazy: other },
              { path: 'broken', lazy: failing },
            ],
          },
        ],
      },
    ]);
    preloadRoute('/classes/5c025607-e0df-4d86-8398-fa54308adaa5/board');
    expect(layout).toHaveBeenCalledOnce();
    expect(board).toHaveBeenCalledOnce();
    expect(other).not.toHaveBeenCalled();
    // A chunk that fails is the route's to report when followed: no unhandled rejection here.
    preloadRoute('/broken');
    expect(failing).toHaveBeenCalledOnce();
    preloadRoute('/nowhere/at/all');
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
