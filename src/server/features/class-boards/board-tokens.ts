import { z } from 'zod';
import { CLASS_BOARD_LIMITS } from '#shared/class-boards';
import { createRoomTokens } from '../../realtime/room-tokens.ts';

const isClassId = (room: string) => z.uuid().safeParse(room).success;

/**
 * Room tokens of kind `board` (decision 065): for one user and one class's board, to open its
 * socket within ten minutes, with `teacher` for a teacher of the class. No token of another kind
 * (a session's, a meeting's, a live game's) opens the board's socket, nor this one theirs.
 */
export function createBoardTokens(secret: string, options: { lifetimeSeconds?: number; now?: () => number } = {}) {
  return createRoomTokens({
    secret,
    kind: 'board',
    isRoomId: isClassId,
    extra: { teacher: z.boolean() },
    lifetimeSeconds: options.lifetimeSeconds ?? CLASS_BOARD_LIMITS.tokenLifetimeSeconds,
    now: options.now,
  });
}

export type BoardTokens = ReturnType<typeof createBoardTokens>;
