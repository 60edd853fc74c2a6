import { describe, expect, it } from 'vitest';
import {
  parseNumber,
  scoreAttempt,
  scoreQuestion,
  toStoredQuestions,
  typedQuestionInputSchema,
  type StoredQuestion,
} from './question-types.ts';

const option = (_id: string, correct: boolean) => ({ _id, text: _id.toUpperCase(), correct });
const single: StoredQuestion = {
  _id: 'q1',
  type: 'single',
  question_text: 'Pick b',
  points: 2,
  options: [option('a', false), option('b', true), option('c', false)],
};
const multiple = (scoring: 'partial' | 'all-or-nothing'): StoredQuestion => ({
  _id: 'q2',
  type: 'multiple',
  question_text: 'Pick a and b',
  points: 3,
  scoring,
  options: [option('a', true), option('b', true), option('c', false), option('d', false)],
});

describe('scoreQuestion', () => {
  it('scores single choice by option id', () => {
    expect(scoreQuestion(single, 'b')).toBe(2);
    expect(scoreQuestion(single, 'a')).toBe(0);
    expect(scoreQuestion(single, 'B')).toBe(0);
    expect(scoreQuestion(single, null)).toBe(0);
  });

  it('gives partial credit by Moodle’s rule, never below zero', () => {
    const question = multiple('partial');
    expect(scoreQuestion(question, ['a', 'b'])).toBe(3);
    expect(scoreQuestion(question, ['a'])).toBe(1.5);
    expect(scoreQuestion(question, ['a', 'c'])).toBe(0);
    expect(scoreQuestion(question, ['a', 'b', 'c'])).toBe(1.5);
    expect(scoreQuestion(question, ['c', 'd'])).toBe(0);
    expect(scoreQuestion(question, [])).toBe(0);
    expect(scoreQuestion(question, ['a', 'a'])).toBe(0);
  });

  it('gives all-or-nothing only for exactly the right set', () => {
    const question = multiple('all-or-nothing');
    expect(scoreQuestion(question, ['b', 'a'])).toBe(3);
    expect(scoreQuestion(question, ['a'])).toBe(0);
    expect(scoreQuestion(question, ['a', 'b', 'c'])).toBe(0);
  });

  it('compares short text ignoring case, width and spaces', () => {
    const question: StoredQuestion = {
      _id: 'q3',
      type: 'short-text',
      question_text: 'Capital of France?',
      points: 1,
      accepted: ['Paris', 'Paname'],
    };
    expect(scoreQuestion(question, '  paris ')).toBe(1);
    expect(scoreQuestion(question, 'PARIS')).toBe(1);
    expect(scoreQuestion(question, 'Ｐａｒｉｓ')).toBe(1);
    expect(scoreQuestion(question, 'Pari')).toBe(0);
    expect(scoreQuestion(question, '')).toBe(0);
  });

  it('accepts numbers within the tolerance, inclusive, with either decimal mark', () => {
    const question: StoredQuestion = {
      _id: 'q4',
      type: 'numeric',
      question_text: 'π to two decimals',
      points: 1,
      value: 3.14,
      tolerance: 0.01,
    };
    expect(scoreQuestion(question, '3.14')).toBe(1);
    expect(scoreQuestion(question, '3,15')).toBe(1);
    expect(scoreQuestion(question, '3.13')).toBe(1);
    expect(scoreQuestion(question, '3.16')).toBe(0);
    expect(scoreQuestion(question, 'pi')).toBe(0);
    expect(scoreQuestion({ ...question, value: 0.3, tolerance: 0 }, '0.30')).toBe(1);
  });

  it('scores true or false', () => {
    const question: StoredQuestion = {
      _id: 'q5',
      type: 'true-false',
      question_text: 'Sky is blue',
      points: 1,
      correct: true,
    };
    expect(scoreQuestion(question, true)).toBe(1);
    expect(scoreQuestion(question, false)).toBe(0);
    expect(scoreQuestion(question, 'true')).toBe(0);
  });
});

describe('scoreAttempt', () => {
  it('counts points, and accuracy over total points', () => {
    const result = scoreAttempt([single, multiple('partial')], { q1: 'b', q2: ['a'] });
    expect(result).toEqual({ score: 3.5, accuracy: '70' });
  });
});

describe('parseNumber', () => {
  it('reads one decimal mark and refuses thousands separators', () => {
    expect(parseNumber('1,5')).toBe(1.5);
    expect(parseNumber('-2')).toBe(-2);
    expect(parseNumber('1e3')).toBe(1000);
    expect(parseNumber('1,000.5')).toBeUndefined();
    expect(parseNumber('')).toBeUndefined();
  });
});

describe('toStoredQuestions', () => {
  it('keeps ids it is given and gives new options the next free id', () => {
    const input = typedQuestionInputSchema.parse({
      _id: 'keep',
      type: 'single',
      question_text: 'Q',
      options: [
        { _id: 'o2', text: 'old', correct: true },
        { text: 'new', correct: false },
      ],
    });
    const [stored] = toStoredQuestions([input], []);
    expect(stored).toMatchObject({ _id: 'keep', points: 1, options: [{ _id: 'o2' }, { _id: 'o1' }] });
  });

  it('refuses a single choice without exactly one correct option', () => {
    const result = typedQuestionInputSchema.safeParse({
      type: 'single',
      question_text: 'Q',
      options: [
        { text: 'a', correct: true },
        { text: 'b', correct: true },
      ],
    });
    expect(result.success).toBe(false);
  });
});
