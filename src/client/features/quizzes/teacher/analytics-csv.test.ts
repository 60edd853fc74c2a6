import { i18n, type Messages } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord, TeacherQuizDetail } from '#shared/quizzes';
import { attemptsCsv, attemptsCsvFileName, csvCell, slugify, toCsv } from './analytics-csv.ts';

// The answers' texts (True/False) are worded by Lingui: English, the code's own text.
beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

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
  questionCount: 5,
  reviewAnswers: 'after-deadline',
  reviewScore: 'after-submit',
  totalPoints: 7,
  archivedAt: null,
  attemptsStarted: 1,
  version: 1,
  regrades: [],
  quiz: {
    background: '/images/quiz-templates/quiz1-template.png',
    questions: [
      {
        _id: 'x',
        type: 'single',
        question_text: 'Half of 1?',
        points: 1,
        options: [
          { _id: 'o1', text: '1/2', correct: true },
          { _id: 'o2', text: '1/3', correct: false },
        ],
      },
      {
        _id: 'y',
        type: 'multiple',
        question_text: 'Say "hi", then stop',
        points: 2,
        scoring: 'partial',
        options: [
          { _id: 'o1', text: '=1+1', correct: false },
          { _id: 'o2', text: 'no', correct: true },
          { _id: 'o3', text: 'yes', correct: true },
        ],
      },
      { _id: 'z', type: 'true-false', question_text: 'Is 0 even?', points: 1, correct: true },
      { _id: 's', type: 'short-text', question_text: 'Capital of France?', points: 1.5, accepted: ['Paris'] },
      { _id: 'n', type: 'numeric', question_text: 'Pi to 2 places', points: 1.5, value: 3.14, tolerance: 0.01 },
    ],
  },
  attempts: [
    attempt({
      score: 4.5,
      accuracy: '64.286',
      quiz: {
        questions: [
          { _id: 'y', response: ['o1', 'o2'], earnedPoints: 0 },
          { _id: 'x', response: 'o1', earnedPoints: 1 },
          { _id: 'z', response: false, earnedPoints: 0 },
          { _id: 's', response: 'paris', earnedPoints: 1.5 },
          { _id: 'n', response: '3,14', earnedPoints: 1.5 },
        ],
      },
    }),
    attempt({
      _id: 'a2',
      user: { _id: 's2', name: 'Smith, Bob', rollNumber: '@bob' },
      score: 0,
      accuracy: '0',
      quiz: { questions: [{ _id: 'x', response: null, earnedPoints: 0 }] },
    }),
  ],
};

// The headers are worded in the active locale: English, the code's own text.

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
  it('writes one row per attempt with each question’s answer and points, the type and worth in the header', () => {
    const lines = attemptsCsv(quiz).split('\r\n');
    expect(lines[0]).toBe(
      [
        'Name,Roll number,Score (out of 7),Accuracy (%),Attempted at',
        'Q1 (Single choice): Half of 1?,Q1 points (of 1)',
        '"Q2 (Multiple answers): Say ""hi"", then stop",Q2 points (of 2)',
        'Q3 (True or false): Is 0 even?,Q3 points (of 1)',
        'Q4 (Short text): Capital of France?,Q4 points (of 1.5)',
        'Q5 (Number): Pi to 2 places,Q5 points (of 1.5)',
      ].join(','),
    );
    expect(lines[1]).toBe(
      'Ada,ada-1,4.5,64.29,2026-11-21T10:00:00.000Z,1/2,1,\'=1+1; no,0,False,0,paris,1.5,"3,14",1.5',
    );
    expect(lines[2]).toBe(`"Smith, Bob",'@bob,0,0,2026-11-21T10:00:00.000Z,,0,,0,,0,,0,,0`);
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
  });

  it('writes only the header when nobody attempted', () => {
    expect(attemptsCsv({ ...quiz, attempts: [] }).split('\r\n')).toHaveLength(2);
  });
});

describe('attemptsCsv in another locale (issue 32 point 5)', () => {
  it('words the headers for the reader and keeps the cells as a spreadsheet reads them', async () => {
    const { messages } = (await import('../../../locales/es/messages.po')) as { messages: Messages };
    i18n.loadAndActivate({ locale: 'es', messages });
    try {
      const [header, first] = attemptsCsv(quiz).split('\r\n');
      expect(header).toMatch(/^Nombre,Número de lista,Puntuación \(sobre 7\),Precisión \(%\),Fecha del intento,/);
      expect(header).toContain('P4 (Texto corto): Capital of France?,"P4 puntos (de 1,5)"');
      expect(first).toBe(
        'Ada,ada-1,4.5,64.29,2026-11-21T10:00:00.000Z,1/2,1,\'=1+1; no,0,Falso,0,paris,1.5,"3,14",1.5',
      );
    } finally {
      i18n.loadAndActivate({ locale: 'en', messages: {} });
    }
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

  it('keeps the letters of every script in the file name (issue 32)', () => {
    expect(attemptsCsvFileName('اختبار الفصل الأول')).toBe('اختبار-الفصل-الأول-attempts.csv');
    expect(slugify('مُحَمَّد')).toBe('مُحَمَّد');
    expect(slugify('Διαγώνισμα 3')).toBe('διαγωνισμα-3');
    expect(slugify('期中考试 (第二章)')).toBe('期中考试-第二章');
    expect(slugify('a/b\\c:d*e?f"g<h>i|j')).toBe('a-b-c-d-e-f-g-h-i-j');
    expect(slugify('😀'.repeat(3) + '𠀀'.repeat(70))).toBe('𠀀'.repeat(60));
  });
});
