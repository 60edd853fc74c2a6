import { selectOrdinal, t } from '@lingui/core/macro';
import type { LiveCloseReason, LiveGameErrorCode } from '#shared/live-games';
import type { RoomSocketEnd } from '../../lib/room-socket.ts';
import { ApiError } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';

/**
 * A player's words for what the game's server says in codes (decision 066: the server sends codes,
 * the page words them): the refusal of an answer, and why the game's connection ended.
 */

/** Why the server refused the player's last message (the socket stays open). */
export function refusalText(code: LiveGameErrorCode): string {
  switch (code) {
    case 'TIME_UP':
      return t`Time was up: your answer arrived too late to count.`;
    case 'ALREADY_ANSWERED':
      return t`You have already answered this question: your first answer counts.`;
    case 'QUESTION_NOT_OPEN':
      return t`This question is closed: your answer did not count.`;
    case 'INVALID_ANSWER':
      return t`That answer could not be read. Change it and send it again.`;
    case 'GAME_PAUSED':
      return t`The game is paused: send your answer once the teacher goes on.`;
    case 'JOINED_DURING_QUESTION':
      return t`You joined during this question: you will play from the next one.`;
    case 'PLAYER_REMOVED':
      return t`A teacher removed you from this game.`;
    case 'GAME_ENDED':
      return t`The game is over.`;
    case 'GAME_NOT_FOUND':
    case 'NOT_A_PLAYER':
      return t`You are not a player of this game.`;
    // A host's refusals: a player's page sends no host command.
    case 'NOT_A_HOST':
    case 'WRONG_STATE':
    case 'MOVED_ON':
    case 'GAME_STARTED':
      return t`The game did not take that. Wait for the next question.`;
  }
}

/** Whether the game's connection ended because a teacher removed this player. */
export const isRemovedEnd = (end: RoomSocketEnd<LiveCloseReason> | null) =>
  end?.kind === 'closed' && end.reason === 'REMOVED';

/** Why the game's connection ended for good, for a player. */
export function playerEndText(end: RoomSocketEnd<LiveCloseReason>): string {
  if (end.kind === 'refused') {
    return end.error instanceof ApiError && end.error.code === 'NOT_FOUND'
      ? t`This game is over, or it is not a game of your classes.`
      : end.error.message;
  }
  switch (end.reason) {
    case 'GAME_ENDED':
      return t`The game is over.`;
    case 'REMOVED':
      return t`A teacher removed you from this game.`;
    case 'FORBIDDEN':
      return t`This game is not a game of your classes.`;
    case 'REPLACED':
      return t`You opened this game on another page or device: play it there.`;
    case 'ROOM_FULL':
      return t`The game is full.`;
    case 'CLIENT_TOO_OLD':
      return t`This page is out of date: reload it to play.`;
    case 'ROOM_LOCKED':
      return t`The game is not taking new players.`;
    case 'SIGNED_OUT':
      return t`You have been signed out. Sign in again to play.`;
    case 'LEFT':
      return t`You left the game.`;
    // A lost connection the page could not bring back, or a message the server would not read.
    case 'GOING_AWAY':
    case 'SERVER_ERROR':
    case 'TOKEN_EXPIRED':
    case 'BAD_MESSAGE':
    case 'FRAME_TOO_LARGE':
    case 'TOO_LARGE':
    case 'JOIN_TIMEOUT':
    case 'RATE_LIMITED':
    case undefined:
      return t`The connection to the game ended. Open it again from your dashboard.`;
  }
}

/** A player's rank among the players, as an ordinal: "3rd of 27". */
export function rankText(rank: number, players: number): string {
  const playerCount = formatNumber(players);
  return t({
    comment: 'A live game: the player’s rank among all the players, e.g. "3rd of 27"',
    message: selectOrdinal(rank, {
      one: `#st of ${playerCount}`,
      two: `#nd of ${playerCount}`,
      few: `#rd of ${playerCount}`,
      other: `#th of ${playerCount}`,
    }),
  });
}
