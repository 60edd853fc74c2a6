import { describe, expect, it } from 'vitest';
import type { AttemptRecord, TeacherQuizDetail } from '#shared/quizzes';
import { attemptsCsv, attemptsCsvFileName, csvCell, slugify, toCsv } from './analytics-csv.ts';

const attempt = (overrides: Partial<AttemptRecord>): AttemptRecord => ({
  _id: 'a1',
  user: { _id: 's1', name: 'Ada', rollNumber: 'ada-1' },
  score: 1,
  accuracy: '50',
  attemptedAt: '2026-11-21T10:00:00.000Z',
  timeTaken: 42,
  endedBy: 'submitted',
  quiz: { questions: [] },
  ...overrides,
});

const quiz: TeacherQuizDetail = {
  _id: 'q',
  title: 'Fractions',
  subject: 'Maths',
  class: '7B',
  classId: '7b000000-0000-4000-8000-000000000000',
  date: '2026-11-20T09:00:00.000Z',
  deadline: '2026-11-30T09:00:00.000Z',
  maxTime: 10,
  createdBy: { _id: 't', name: 'Teacher' },
  questionCount: 2,
  reviewAnswers: 'after-deadline',
  reviewScore: 'after-submit',
  archivedAt: null,
  attemptsStarted: 1,
  regrades: [],
  quiz: {
    background: '/images/quiz-templates/quiz1-template.png',
    questions: [
      { _id: 'x', question_text: 'Half of 1?', options: ['1/2', '1/3'], answer: '1/2' },
      { _id: 'y', question_text: 'Say "hi", then stop', options: ['=1+1', 'no'], answer: 'no' },
    ],
  },
  attempts: [
    attempt({
      accuracy: '33.333',
      quiz: {
        questions: [
          { _id: 'y', selectedOption: '=1+1' },
          { _id: 'x', selectedOption: '1/2' },
        ],
      },
    }),
    attempt({
      _id: 'a2',
      user: { _id: 's2', name: 'Smith, Bob', rollNumber: '@bob' },
      score: 0,
      accuracy: '0',
      quiz: { questions: [{ _id: 'x', selectedOption: null }] },
    }),
  ],
};

describe('csvCell', () => {
  it('leaves plain text and numbers alone', () => {
    expect(csvCell('Ada')).toBe('Ada');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rlf')).toBe('"cr\rlf"');
  });

  it.each(['=SUM(A1:A2)', '+1', '-1', '@cmd', '\tx'])('neutralises the formula start of %j', (value) => {
    expect(csvCell(value).replace(/^"/, '').startsWith("'")).toBe(true);
  });

  it('neutralises and quotes together', () => {
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
  });
});

describe('toCsv', () => {
  it('joins rows with CRLF and ends with one', () => {
    expect(
      toCsv([
        ['a', 'b'],
        [1, 'c,d'],
      ]),
    ).toBe('a,b\r\n1,"c,d"\r\n');
  });
});

describe('attemptsCsv', () => {
  it('writes one row per attempt with the chosen option under each question', () => {
    const lines = attemptsCsv(quiz).split('\r\n');
    expect(lines[0]).toBe(
      'Name,Roll number,Score,Accuracy (%),Attempted at,Q1: Half of 1?,"Q2: Say ""hi"", then stop"',
    );
    expect(lines[1]).toBe("Ada,ada-1,1,33.33,2026-11-21T10:00:00.000Z,1/2,'=1+1");
    expect(lines[2]).toBe(`"Smith, Bob",'@bob,0,0,2026-11-21T10:00:00.000Z,,`);
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
  });

  it('writes only the header when nobody attempted', () => {
    expect(attemptsCsv({ ...quiz, attempts: [] }).split('\r\n')).toHaveLength(2);
  });
});

describe('file name', () => {
  it('slugs the title', () => {
    expect(slugify('Algebra: Week 1!')).toBe('algebra-week-1');
    expect(slugify('Crème brûlée')).toBe('creme-brulee');
    expect(slugify('???')).toBe('quiz');
    expect(slugify('a'.repeat(80))).toHaveLength(60);
    expect(attemptsCsvFileName('Fractions')).toBe('fractions-attempts.csv');
  });
});
