import { z } from 'zod';
import { LIVE_GAME_LIMITS } from '#shared/live-games';
import { createRoomTokens } from '../../realtime/room-tokens.ts';

const isGameId = (room: string) => z.uuid().safeParse(room).success;

/**
 * Room tokens of kind `live` (decision 065): for one user and one game, to open its socket
 * within ten minutes, with `host` for a teacher of the game's class. No token of another kind
 * (a session's, a meeting's) opens the game's socket, nor this one theirs.
 */
export function createLiveTokens(secret: string, options: { lifetimeSeconds?: number; now?: () => number } = {}) {
  return createRoomTokens({
    secret,
    kind: 'live',
    isRoomId: isGameId,
    extra: { host: z.boolean() },
    lifetimeSeconds: options.lifetimeSeconds ?? LIVE_GAME_LIMITS.tokenLifetimeSeconds,
    now: options.now,
  });
}

export type LiveTokens = ReturnType<typeof createLiveTokens>;
