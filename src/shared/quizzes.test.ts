import { describe, expect, it } from 'vitest';
import { formatAccuracy, newQuizSchema, QUIZ_BACKGROUNDS } from './quizzes.ts';

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
    // SPEC §3's shape is read as a 1-point single choice question (issue 20).
    expect(parsed.quiz.questions[0]).toEqual({
      type: 'single',
      question_text: 'Q',
      points: 1,
      options: [
        { text: 'yes', correct: true },
        { text: 'no', correct: false },
      ],
    });
    expect(parsed).not.toHaveProperty('createdBy');
  });
});
