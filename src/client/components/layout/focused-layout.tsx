import { Outlet, useMatches } from 'react-router';

/**
 * A route's say in its dashboard's frame (its `handle` in router.tsx): `layout: 'focused'` shows the
 * screen alone, without the header and side menu, inside the role's guard all the same;
 * `studyMode: 'off'` lets a student's screen through study mode's gate (decision 070).
 */
export type RouteLayoutHandle = { layout?: 'focused'; studyMode?: 'off' };

/** The handle of a screen that takes the whole window: a projector, a phone held in one hand. */
export const FOCUSED_SCREEN: RouteLayoutHandle = { layout: 'focused' };

/** A live game's screens on a student's phone: the teacher's game holds the class's attention, not study mode. */
export const LIVE_PLAYER_SCREEN: RouteLayoutHandle = { layout: 'focused', studyMode: 'off' };
export const LIVE_JOIN_SCREEN: RouteLayoutHandle = { studyMode: 'off' };

const routeHandles = (matches: ReturnType<typeof useMatches>) =>
  matches.map((match) => (match.handle ?? {}) as RouteLayoutHandle);

/** Whether the route shown asked for a focused screen. */
export function useIsFocusedScreen(): boolean {
  return routeHandles(useMatches()).some((handle) => handle.layout === 'focused');
}

/** Whether the route shown is let through study mode (a live game's PIN page and player screen). */
export function useIsOutsideStudyMode(): boolean {
  return routeHandles(useMatches()).some((handle) => handle.studyMode === 'off');
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
