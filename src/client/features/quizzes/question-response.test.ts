import { describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import type { QuizQuestion } from '#shared/quizzes';
import { keyText, responseText } from './question-response.ts';

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

describe('lists of answers (issue 32 review point 8)', () => {
  const multiple = {
    _id: 'q2',
    type: 'multiple',
    question_text: 'Primary colours?',
    points: 1,
    options: [
      { _id: 'a', text: 'red', correct: true },
      { _id: 'b', text: 'green', correct: false },
      { _id: 'c', text: 'blue', correct: true },
    ],
  } as QuizQuestion;

  it('are joined as the active locale lists, not with a fixed "; "', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(responseText(multiple, ['a', 'c'])).toBe('red and blue');
    expect(keyText(multiple)).toBe('red and blue');
    i18n.loadAndActivate({ locale: 'es', messages: {} });
    expect(responseText(multiple, ['a', 'b', 'c'])).toBe('red, green y blue');
    i18n.loadAndActivate({ locale: 'en', messages: {} });
  });
});
