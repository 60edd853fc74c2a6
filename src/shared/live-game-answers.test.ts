import { describe, expect, it } from 'vitest';
import { isRightTypedAnswer, typedAnswerWeight } from './live-game-answers.ts';
import type { QuizQuestion } from './quizzes.ts';

/** A typed answer of a live game's distribution, by its key, scored as the quiz scores it (decision 066). */
describe('typedAnswerWeight', () => {
  const capital: QuizQuestion = {
    _id: 'q1',
    type: 'short-text',
    question_text: 'The capital of France?',
    points: 1,
    accepted: ['Paris'],
    partial: [{ text: 'Lutetia', weight: 50 }],
  };
  const half: QuizQuestion = {
    _id: 'q2',
    type: 'numeric',
    question_text: 'Half of 7?',
    points: 1,
    value: 3.5,
    tolerance: 0.1,
    partial: [
      { value: 7, tolerance: 0, weight: 100 },
      { value: 3, tolerance: 0, weight: 50 },
    ],
  };

  it('weighs a short text by its key as the quiz compares it, partial answers and wildcards too', () => {
    expect(typedAnswerWeight(capital, 'paris')).toBe(100);
    expect(typedAnswerWeight(capital, 'lutetia')).toBe(50);
    expect(typedAnswerWeight(capital, 'lyon')).toBe(0);
    expect(isRightTypedAnswer({ ...capital, accepted: ['*paris*'], wildcards: true }, 'in paris, france')).toBe(true);
  });

  it('weighs a number by its value: within the tolerance, a further full answer, a partial one', () => {
    expect(typedAnswerWeight(half, '3.55')).toBe(100);
    expect(typedAnswerWeight(half, '7')).toBe(100);
    expect(typedAnswerWeight(half, '3')).toBe(50);
    expect(typedAnswerWeight(half, '4')).toBe(0);
    expect(typedAnswerWeight(half, 'three and a half')).toBe(0);
  });

  it('says nothing of a question without its key, or of one that is not typed', () => {
    expect(typedAnswerWeight({ ...capital, accepted: undefined }, 'paris')).toBeUndefined();
    expect(typedAnswerWeight({ ...half, value: undefined }, '3.5')).toBeUndefined();
    expect(typedAnswerWeight({ _id: 'q3', type: 'true-false', question_text: '?', points: 1 }, 'true')).toBeUndefined();
    expect(isRightTypedAnswer({ ...capital, accepted: undefined }, 'paris')).toBe(false);
  });
});
