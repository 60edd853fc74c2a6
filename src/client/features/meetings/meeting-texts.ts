import { t } from '@lingui/core/macro';
import type { CloseReason, MeetingErrorCode } from '#shared/meetings';
import type { ConnectionNote, MeetingEnd } from './meeting-session.ts';
import { meetingRefusalText } from './meetings-api.ts';

/**
 * The meeting's states in words, in the active locale: the session keeps codes (a close
 * reason, a note) and the screen words them when it shows them. The server's CLOSE_MESSAGES
 * stay English, for its close frames and logs; these are what a person reads.
 */
export function closeReasonText(reason: CloseReason): string {
  switch (reason) {
    case 'LEFT':
      return t`You left the meeting.`;
    case 'GOING_AWAY':
      return t`The server is restarting. Reconnecting…`;
    case 'FRAME_TOO_LARGE':
    case 'TOO_LARGE':
      return t`A message was too large to send.`;
    case 'SERVER_ERROR':
      return t`The meeting service had a problem. Reconnecting…`;
    case 'REPLACED':
      return t`You joined this meeting from another tab or device.`;
    case 'BAD_MESSAGE':
      return t`The meeting page sent something the server did not understand. Reload the page.`;
    case 'TOKEN_EXPIRED':
      return t`Your meeting pass has expired. Join the room again.`;
    case 'FORBIDDEN':
      return t`This meeting link is not valid for this room.`;
    case 'SIGNED_OUT':
      return t`Your sign-in changed (a new password, or signed out of all devices). Reconnecting…`;
    case 'JOIN_TIMEOUT':
      return t`Joining took too long. Try again.`;
    case 'ROOM_FULL':
      return t`This room is full.`;
    case 'CLIENT_TOO_OLD':
      return t`This page is out of date. Reload it to join the meeting.`;
    case 'RATE_LIMITED':
      return t`Too many messages were sent too quickly.`;
    case 'REMOVED':
      return t`A teacher removed you from this meeting.`;
    case 'ROOM_LOCKED':
      return t`The teacher has locked this room.`;
    case 'MEDIA_UNAVAILABLE':
      return t`The video server cannot be reached right now. Trying again…`;
  }
}

/** A message of the socket the server refused, keeping the socket open (its `error` frame's code). */
export function meetingErrorText(code: MeetingErrorCode): string {
  switch (code) {
    case 'CHAT_TOO_FAST':
      return t`You are sending chat messages too quickly. Wait a moment.`;
    case 'HAND_TOO_FAST':
      return t`You are raising and lowering your hand too quickly. Wait a moment.`;
    case 'NOT_A_HOST':
      return t`Only the class's teachers can do this in a meeting.`;
    case 'TEACHER_NOT_REMOVABLE':
      return t`Teachers of the class cannot be removed from its meeting.`;
    case 'NOT_DELIVERED':
      return t`Your last message could not be delivered. Try again.`;
  }
}

/** What the banner says while the meeting is (re)connecting. */
export function connectionNoteText(note: ConnectionNote): string {
  if (note === 'UNREACHABLE') return t`Cannot reach the server. Trying again…`;
  if (note === 'CONNECTION_LOST') return t`The connection was lost. Reconnecting…`;
  if (note === 'OFFLINE') return t`You are offline. The meeting reconnects when the network is back.`;
  if (note === 'SFU_MOVING') return t`The video server stopped. Moving the meeting to another one…`;
  return closeReasonText(note);
}

/** Why the meeting ended for this page. */
export function meetingEndText(end: MeetingEnd): string {
  if (end.reason === 'session') return t`Your session has ended. Log in again to join the meeting.`;
  if (end.reason === 'refused') {
    return end.refusal ? meetingRefusalText(end.refusal) : t`The meeting connection was closed.`;
  }
  return closeReasonText(end.reason);
}
