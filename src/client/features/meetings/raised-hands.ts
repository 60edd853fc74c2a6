import { t } from '@lingui/core/macro';
import type { ClientMessage, ModerationAction, Participant, ServerMessage } from '#shared/meetings';

/**
 * Raised hands and the teacher's actions as the page applies them (decision 038). Pure, so
 * the rules (a hand keeps its place; "lower all" clears everyone) are tested without a browser.
 */

export type HandEvent = Extract<ServerMessage, { type: 'hand' | 'hands-lowered' }>;

/** What a host (or, for `hand`, anyone) sends. */
export type ModerationMessage = Extract<
  ClientMessage,
  { type: 'mute' | 'mute-all' | 'stop-camera' | 'remove' | 'lock' | 'hand' | 'lower-hands' }
>;

export function applyHandEvent<Person extends Participant>(people: Person[], event: HandEvent): Person[] {
  return people.map((person) => {
    if (event.type === 'hands-lowered') return person.hand === null ? person : { ...person, hand: null };
    return person.id === event.participantId ? { ...person, hand: event.hand } : person;
  });
}

/** Those with a raised hand, first raised first. */
export function raisedHands<Person extends { hand: number | null }>(people: Person[]): Person[] {
  return people.filter((person) => person.hand !== null).sort((a, b) => a.hand! - b.hand!);
}

/** What the person a teacher muted (or whose camera a teacher stopped) reads, in the active locale. */
export function moderationNotice(action: ModerationAction, by: string): string {
  return action === 'mute'
    ? t({
        comment: '{by}: the name of the teacher who did it',
        message: `${by} muted you. Unmute when you need to speak.`,
      })
    : t({
        comment: '{by}: the name of the teacher who did it',
        message: `${by} turned your camera off. Turn it on again when you need it.`,
      });
}
