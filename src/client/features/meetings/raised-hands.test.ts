import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import type { Participant } from '#shared/meetings';
import { applyHandEvent, moderationNotice, raisedHands } from './raised-hands.ts';

const person = (id: string, hand: number | null = null): Participant => ({
  id,
  name: id,
  role: 'student',
  media: { mic: false, camera: true, screen: false },
  host: false,
  hand,
});

describe('raised hands', () => {
  it("sets one person's hand, and lowers everyone's at once", () => {
    const people = [person('ada'), person('bob', 7)];
    const raised = applyHandEvent(people, { type: 'hand', participantId: 'ada', hand: 9 });
    expect(raised.map((one) => one.hand)).toEqual([9, 7]);
    expect(applyHandEvent(raised, { type: 'hand', participantId: 'bob', hand: null }).map((one) => one.hand)).toEqual([
      9,
      null,
    ]);
    const lowered = applyHandEvent(raised, { type: 'hands-lowered', by: 'Ms Ada' });
    expect(lowered.every((one) => one.hand === null)).toBe(true);
    // Safe to apply twice, and untouched people stay the same objects.
    expect(applyHandEvent(lowered, { type: 'hands-lowered', by: 'Ms Ada' })[0]).toBe(lowered[0]);
  });

  it('lists raised hands first raised first', () => {
    const order = raisedHands([person('late', 12), person('down'), person('early', 3)]).map((one) => one.id);
    expect(order).toEqual(['early', 'late']);
  });

  it('tells the person what a teacher did and that they may turn it on again', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(moderationNotice('mute', 'Ms Ada')).toBe('Ms Ada muted you. Unmute when you need to speak.');
    expect(moderationNotice('stop-camera', 'Ms Ada')).toMatch(/^Ms Ada turned your camera off\./);
  });
});
