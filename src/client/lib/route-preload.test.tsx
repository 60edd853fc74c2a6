import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadRoute, setPreloadableRoutes, usePreloadRoute } from './route-preload.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

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

  it('from a page: once the browser is idle, and not when the page has gone first', () => {
    const board = vi.fn(async () => ({}));
    setPreloadableRoutes([{ path: '/classes/:id/board', lazy: board }]);
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    vi.stubGlobal('cancelIdleCallback', (handle: number) => idle.splice(handle - 1, 1, () => undefined));

    const shown = renderHook(() => usePreloadRoute('/classes/7/board'));
    expect(board).not.toHaveBeenCalled();
    idle.forEach((run) => run());
    expect(board).toHaveBeenCalledOnce();
    shown.unmount();

    // Left before the browser was idle: nothing loaded. No path (nothing listed yet): nothing asked.
    const left = renderHook(() => usePreloadRoute('/classes/8/board'));
    left.unmount();
    renderHook(() => usePreloadRoute(undefined));
    idle.forEach((run) => run());
    expect(board).toHaveBeenCalledOnce();
  });
});
