import { describe, expect, it } from 'vitest';
import { formatAccuracy, newQuizSchema, QUIZ_BACKGROUNDS, scoreAnswers } from './quizzes.ts';

const questions = [
  { _id: 'a', answer: '4' },
  { _id: 'b', answer: 'Paris' },
  { _id: 'c', answer: '7' },
];

describe('scoreAnswers', () => {
  it('counts exact matches and gives accuracy with at most 2 decimals', () => {
    expect(scoreAnswers(questions, { a: '4', b: 'Paris', c: '8' })).toEqual({ score: 2, accuracy: '66.67' });
    expect(scoreAnswers(questions, { a: '4' })).toEqual({ score: 1, accuracy: '33.33' });
    expect(scoreAnswers(questions, { a: '4', b: 'Paris', c: '7' })).toEqual({ score: 3, accuracy: '100' });
    expect(scoreAnswers(questions, {})).toEqual({ score: 0, accuracy: '0' });
    expect(scoreAnswers(questions, { a: ' 4', b: 'paris', c: null })).toEqual({ score: 0, accuracy: '0' });
    expect(scoreAnswers([...questions, { _id: 'd', answer: 'x' }], { a: '4' })).toEqual({ score: 1, accuracy: '25' });
  });
});

describe('formatAccuracy', () => {
  it('shows a whole number when integer, else two decimals (SPEC §4)', () => {
    expect(formatAccuracy('100')).toBe('100');
    expect(formatAccuracy('66.67')).toBe('66.67');
    expect(formatAccuracy('50.5')).toBe('50.50');
    expect(formatAccuracy(0)).toBe('0');
    expect(formatAccuracy('nonsense')).toBe('0');
  });
});

describe('newQuizSchema', () => {
  it('drops empty options and trims them before checking the answer', () => {
    const parsed = newQuizSchema.parse({
      title: ' Quiz ',
      classId: '00000000-0000-4000-8000-00000000000a',
      deadline: new Date(Date.now() + 60_000).toISOString(),
      maxTime: 5,
      quiz: {
        background: QUIZ_BACKGROUNDS[2],
        questions: [{ question_text: 'Q', options: [' yes ', '', 'no', '  '], answer: 'yes ' }],
      },
      createdBy: { _id: 'ignored' },
    });
    expect(parsed.title).toBe('Quiz');
    expect(parsed.quiz.questions[0]).toEqual({ question_text: 'Q', options: ['yes', 'no'], answer: 'yes' });
    expect(parsed).not.toHaveProperty('createdBy');
  });
});
