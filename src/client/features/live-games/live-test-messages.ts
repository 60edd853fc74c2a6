import type { LiveGameSummary, LiveServerMessage } from '#shared/live-games';

/*
 * The live game's server messages as the client's tests build them (decision 066): the host's
 * page (host-view.test.tsx) and the screens as the router frames them (live-screens.test.tsx)
 * feed the same welcome. For tests only; no screen imports it.
 */

type HostWelcome = Extract<LiveServerMessage, { type: 'host-welcome' }>;

/**
 * The server's welcome to the host's socket: `game` with no one in it, no question asked, nothing
 * paused, answered or closed, and no podium, unless `overrides` says otherwise.
 */
export function hostWelcome(game: LiveGameSummary, overrides: Partial<HostWelcome> = {}): HostWelcome {
  return {
    type: 'host-welcome',
    game,
    players: [],
    question: null,
    paused: null,
    answered: 0,
    answering: 0,
    closed: null,
    podium: null,
    ...overrides,
  };
}
