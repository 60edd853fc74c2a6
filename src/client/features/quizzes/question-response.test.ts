import { describe, expect, it } from 'vitest';
import type { QuizQuestion } from '#shared/quizzes';
import { keyText } from './question-response.ts';

describe('keyText of a number question', () => {
  const numeric: QuizQuestion = {
    _id: 'q1',
    type: 'numeric',
    question_text: 'A square root of 4?',
    points: 1,
    value: 2,
    tolerance: 0,
  };

  it('gives the value, with its tolerance when there is one', () => {
    expect(keyText(numeric)).toBe('2');
    expect(keyText({ ...numeric, tolerance: 0.5 })).toBe('2 ± 0.5');
  });

  it('gives every answer worth all the points, not those worth part of them (decision 043, addendum)', () => {
    const roots = {
      ...numeric,
      partial: [
        { value: -2, tolerance: 0.01, weight: 100 },
        { value: 2, tolerance: 0.5, weight: 50 },
      ],
    };
    expect(keyText(roots)).toBe('2 / -2 ± 0.01');
  });
});
