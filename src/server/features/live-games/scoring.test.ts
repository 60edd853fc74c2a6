import { describe, expect, it } from 'vitest';
import { livePoints } from '#shared/live-games';
import type { StoredQuestion } from '#shared/question-types';
import { answerFraction, distributionOf, outcomeOf, rankStandings, scoreLiveAnswer } from './scoring.ts';

/** The scoring rule and the pure parts of a close (decision 066). */

const T = 20_000;

const multiple: StoredQuestion = {
  _id: 'q-multi',
  type: 'multiple',
  question_text: 'Which are even?',
  points: 2,
  scoring: 'partial',
  options: [
    { _id: 'two', text: 'Two', correct: true },
    { _id: 'three', text: 'Three', correct: false },
    { _id: 'four', text: 'Four', correct: true },
  ],
};
const negative: StoredQuestion = {
  _id: 'q-neg',
  type: 'single',
  question_text: 'Which is a mammal?',
  points: 1,
  options: [
    { _id: 'whale', text: 'Whale', correct: true, weight: 100 },
    { _id: 'shark', text: 'Shark', correct: false, weight: -50 },
  ],
};
const shortText: StoredQuestion = {
  _id: 'q-text',
  type: 'short-text',
  question_text: 'Capital of France?',
  points: 1,
  accepted: ['Paris'],
};

describe('the scoring rule: round(1000 × fraction × (1 − t / 2T))', () => {
  it('gives 1000 for a right answer at once, 500 at the end of the time, and the rule between', () => {
    expect(livePoints(1, 0, T)).toBe(1000);
    expect(livePoints(1, T, T)).toBe(500);
    expect(livePoints(1, 5_000, T)).toBe(875);
    expect(livePoints(1, 7_333, T)).toBe(Math.round(1000 * (1 - 7_333 / 40_000)));
    expect(livePoints(0.5, 10_000, T)).toBe(375);
  });

  it('holds t within 0 and T (an answer in added time scores as at T) and the fraction within 0 and 1', () => {
    expect(livePoints(1, -300, T)).toBe(1000);
    expect(livePoints(1, 35_000, T)).toBe(500);
    expect(livePoints(1.4, 0, T)).toBe(1000);
    expect(livePoints(-0.5, 0, T)).toBe(0);
    expect(livePoints(0, 0, T)).toBe(0);
  });

  it("takes the fraction from the quiz's own scoring: partial credit, and no negative points", () => {
    // Moodle's partial rule: each right option +1/k, each wrong one −1/k.
    expect(answerFraction(multiple, ['two', 'four'])).toBe(1);
    expect(answerFraction(multiple, ['two'])).toBe(0.5);
    expect(answerFraction(multiple, ['two', 'three'])).toBe(0);
    expect(scoreLiveAnswer(multiple, ['two'], 0, T)).toEqual({ fraction: 0.5, points: 500 });
    expect(answerFraction(negative, 'shark')).toBe(0);
    expect(answerFraction(shortText, ' paris ')).toBe(1);
    expect(outcomeOf(1)).toBe('right');
    expect(outcomeOf(0.5)).toBe('partial');
    expect(outcomeOf(0)).toBe('wrong');
    expect(outcomeOf(null)).toBe('none');
  });
});

describe('a distribution', () => {
  it("counts every option, those nobody chose too, in the question's order", () => {
    const answers = [
      { value: ['two', 'four'], fraction: 1 },
      { value: ['two'], fraction: 0.5 },
      { value: ['three'], fraction: 0 },
    ];
    expect(distributionOf(multiple, answers, 5)).toEqual({
      players: 5,
      answered: 3,
      right: 1,
      partial: 1,
      wrong: 1,
      counts: [
        { key: 'two', count: 2 },
        { key: 'three', count: 1 },
        { key: 'four', count: 1 },
      ],
      others: 0,
    });
  });

  it('groups typed answers as the quiz compares them, the most given first, the rest as others', () => {
    const typed = ['Paris', ' paris', 'PARIS ', 'Lyon', ...Array.from({ length: 12 }, (_, i) => `Town ${i}`)];
    const distribution = distributionOf(
      shortText,
      typed.map((value) => ({ value, fraction: 0 })),
      typed.length,
    );
    expect(distribution.counts[0]).toEqual({ key: 'paris', count: 3 });
    expect(distribution.counts).toHaveLength(10);
    expect(distribution.others).toBe(typed.length - 3 - 9);
  });
});

describe('the ranking', () => {
  it('gives equal scores one rank (1, 1, 3), equal players by name', () => {
    const ranked = rankStandings([
      { studentId: 'c', name: 'Cy', score: 900 },
      { studentId: 'a', name: 'Ada', score: 1200 },
      { studentId: 'b', name: 'Ben', score: 1200 },
    ]);
    expect(ranked.map((row) => [row.name, row.rank])).toEqual([
      ['Ada', 1],
      ['Ben', 1],
      ['Cy', 3],
    ]);
  });
});
