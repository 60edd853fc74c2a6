import { MEETING_LIMITS, type ClientMessage, type MeetingErrorCode, type ServerMessage } from '#shared/meetings';
import type { MeetingRoster } from './meeting-roster.ts';

/**
 * The teacher runs the room (decision 038): what a host may do, and raised hands. State that
 * must hold across instances (lock, removed users, hands) lives in the roster; the rest (mute,
 * stop camera) is a message to the target's page, which turns its own media off.
 */

export type ModerationRequest = Extract<
  ClientMessage,
  { type: 'mute' | 'mute-all' | 'stop-camera' | 'remove' | 'lock' | 'hand' | 'lower-hands' }
>;

/**
 * On the room's channel: a message for one participant (`to`), or for every participant who is
 * not a host (`to: null`); hosts never receive one, and the sender is skipped.
 */
export type ModerationBusMessage = { kind: 'moderate'; to: string | null; from: string; message: ServerMessage };

export type Moderator = {
  participantId: string;
  roomId: string;
  name: string;
  host: boolean;
};

/** Carries out a request; the code of its refusal to tell the sender, else undefined. */
export async function moderate(
  roster: MeetingRoster,
  publish: (message: ModerationBusMessage) => Promise<void>,
  who: Moderator,
  request: ModerationRequest,
): Promise<MeetingErrorCode | undefined> {
  // Anyone's own hand; everything else is for hosts only.
  if (request.type === 'hand') return void (await roster.setHand(who.roomId, who.participantId, request.raised));
  if (!who.host) return 'NOT_A_HOST';
  switch (request.type) {
    case 'mute':
    case 'stop-camera': {
      if (request.participantId === who.participantId) return undefined;
      const message: ServerMessage = { type: 'moderated', action: request.type, by: who.name };
      return void (await publish({ kind: 'moderate', to: request.participantId, from: who.participantId, message }));
    }
    case 'mute-all': {
      const message: ServerMessage = { type: 'moderated', action: 'mute', by: who.name };
      return void (await publish({ kind: 'moderate', to: null, from: who.participantId, message }));
    }
    case 'remove': {
      const outcome = await roster.remove(who.roomId, request.participantId, MEETING_LIMITS.removedForSeconds * 1000);
      if (outcome === 'host') return 'TEACHER_NOT_REMOVABLE';
      return undefined; // 'gone': already left, nothing to do
    }
    case 'lock':
      return void (await roster.setLocked(who.roomId, request.locked, who.name));
    case 'lower-hands':
      return void (await roster.lowerHands(who.roomId, who.name));
  }
}
