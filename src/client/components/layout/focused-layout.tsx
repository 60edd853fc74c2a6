import { Outlet, useMatches } from 'react-router';

/**
 * A route's say in its dashboard's frame: `{ layout: 'focused' }` in its `handle` (router.tsx)
 * shows the screen alone, without the header and side menu, inside the role's guard all the same.
 */
export type RouteLayoutHandle = { layout?: 'focused' };

/** The handle of a screen that takes the whole window: a projector, a phone held in one hand. */
export const FOCUSED_SCREEN: RouteLayoutHandle = { layout: 'focused' };

/** Whether the route shown asked for a focused screen. */
export function useIsFocusedScreen(): boolean {
  return useMatches().some((match) => (match.handle as RouteLayoutHandle | undefined)?.layout === 'focused');
}

/**
 * The frame of a focused screen: the whole window for the screen, which carries its own way out
 * (a small Leave link), so nothing of the dashboard takes room from it.
 */
export function FocusedLayout() {
  return (
    <main id="main" className="flex min-h-dvh min-w-0 flex-col">
      <Outlet />
    </main>
  );
}
