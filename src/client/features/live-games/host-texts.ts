import { t } from '@lingui/core/macro';
import type { LiveCloseReason, LiveGameErrorCode } from '#shared/live-games';
import { formatNumber } from '../../lib/format.ts';
import type { LiveSnapshot } from './live-session.ts';
import { remainingMs } from './live-state.ts';

/**
 * The host page's words for the game's codes (decision 066: the server sends codes, the page
 * words them), in the active locale when they show. LIVE_CLOSE_MESSAGES stay English, for the
 * close frames and logs.
 */

/** A command the server refused (the socket stays open): what the host reads. */
export function hostRefusalText(code: LiveGameErrorCode): string {
  switch (code) {
    case 'MOVED_ON':
      return t`The game had already moved on: that command was not needed.`;
    case 'WRONG_STATE':
      return t`That cannot be done at this point of the game.`;
    case 'GAME_STARTED':
      return t`The game has started: the time per question can no longer change.`;
    case 'NOT_A_HOST':
      return t`Only the class's teachers can run this game.`;
    case 'GAME_NOT_FOUND':
      return t`This game is not one of your classes' games.`;
    case 'GAME_ENDED':
      return t`The game is over.`;
    case 'GAME_PAUSED':
      return t`The game is paused.`;
    case 'QUESTION_NOT_OPEN':
    case 'TIME_UP':
      return t`The question is closed.`;
    // A player's refusals: a host never answers, but the page words every code.
    case 'NOT_A_PLAYER':
    case 'PLAYER_REMOVED':
    case 'ALREADY_ANSWERED':
    case 'JOINED_DURING_QUESTION':
    case 'INVALID_ANSWER':
      return t`The server refused that message.`;
  }
}

/** Why the socket closed for good, as the host reads it. */
function closeReasonText(reason: LiveCloseReason | undefined): string {
  switch (reason) {
    case 'GAME_ENDED':
      return t`The game is over.`;
    case 'FORBIDDEN':
      return t`This game belongs to a class you do not teach.`;
    case 'REPLACED':
      return t`You opened this game on another page or computer: it goes on there.`;
    case 'LEFT':
      return t`You left the game.`;
    case 'SIGNED_OUT':
      return t`You have been signed out. Sign in again to take the game back.`;
    case 'CLIENT_TOO_OLD':
      return t`This page is out of date. Reload it to take the game back.`;
    case 'ROOM_FULL':
      return t`The game is full.`;
    case 'REMOVED':
      return t`You were removed from the game.`;
    case 'RATE_LIMITED':
      return t`Too many commands were sent too quickly. Reload the page to take the game back.`;
    // Closes the page does not come back from by itself (the others it reconnects after).
    case 'GOING_AWAY':
    case 'SERVER_ERROR':
    case 'TOKEN_EXPIRED':
    case 'JOIN_TIMEOUT':
    case 'BAD_MESSAGE':
    case 'FRAME_TOO_LARGE':
    case 'TOO_LARGE':
    case 'ROOM_LOCKED':
    case undefined:
      return t`The connection to the game was lost. Reload the page to take it back.`;
  }
}

/** The end of the page's connection: the server's close, or the refusal of its game pass. */
export function hostEndText(end: NonNullable<LiveSnapshot['end']>): string {
  if (end.kind === 'refused') {
    // The game pass is refused for a game that is over as for one of another class (decision 066).
    if (end.error.code === 'NOT_FOUND' || end.error.code === 'FORBIDDEN') {
      return t`This game is over, or it is not a game of your classes.`;
    }
    return end.error.message;
  }
  return closeReasonText(end.reason);
}

/** "Time almost up" is said once this little is left. */
export const ALMOST_UP_MS = 5_000;

/**
 * What a screen reader hears on the host page: a question opened, time almost up, a question
 * closed, the game over. Derived from the state, so the live region changes only when one of
 * those happens (not at every tick of the countdown).
 */
export function announcementOf(snapshot: LiveSnapshot, now: number): string {
  const { state, question, closed } = snapshot;
  if ((state === 'question-open' || state === 'paused') && question) {
    if (state === 'paused') return t`The question is paused.`;
    const number = formatNumber(question.index + 1);
    const count = formatNumber(question.count);
    const left = remainingMs(snapshot, now);
    if (left > 0 && left <= ALMOST_UP_MS) return t`Time almost up: 5 seconds left.`;
    return t`Question ${number} of ${count} is open.`;
  }
  if (state === 'question-closed' && closed) {
    const number = formatNumber(closed.index + 1);
    return t`Question ${number} is closed.`;
  }
  if (state === 'ended') return t`The game is over.`;
  return '';
}
