import { z } from 'zod';
import { MEETING_LIMITS, isRoomId } from '#shared/meetings';
import { createRoomTokens, RoomTokenError } from '../../realtime/room-tokens.ts';

/** Why a meeting token was refused: the socket closes with TOKEN_EXPIRED or FORBIDDEN. */
export { RoomTokenError as MeetingTokenError };

/**
 * Meeting tokens: room tokens (realtime/room-tokens.ts) of kind `meeting`, for one user and one
 * room, to join within 10 minutes, with the `host` claim of decision 038 (tokens minted before it
 * carry none: not a host).
 */
export function createMeetingTokens(secret: string, options: { lifetimeSeconds?: number; now?: () => number } = {}) {
  return createRoomTokens({
    secret,
    kind: 'meeting',
    isRoomId,
    extra: { host: z.boolean().default(false) },
    lifetimeSeconds: options.lifetimeSeconds ?? MEETING_LIMITS.tokenLifetimeSeconds,
    now: options.now,
  });
}

export type MeetingTokens = ReturnType<typeof createMeetingTokens>;
