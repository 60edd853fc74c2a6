import { describe, expect, it } from 'vitest';
import { questionStats } from './question-stats.ts';
import type { AnswerValue } from './question-types.ts';
import type { AttemptRecord, QuizQuestion } from './quizzes.ts';

const questions: QuizQuestion[] = [
  {
    _id: 'q1',
    type: 'single',
    question_text: 'Capital of France?',
    points: 1,
    options: [
      { _id: 'o1', text: 'Paris', correct: true },
      { _id: 'o2', text: 'Lyon', correct: false },
    ],
  },
  {
    _id: 'q2',
    type: 'multiple',
    scoring: 'partial',
    question_text: 'Primes?',
    points: 2,
    options: [
      { _id: 'o1', text: '2', correct: true },
      { _id: 'o2', text: '3', correct: true },
      { _id: 'o3', text: '4', correct: false },
    ],
  },
  { _id: 'q3', type: 'true-false', question_text: 'The sun is a star.', points: 1, correct: true },
  { _id: 'q4', type: 'short-text', question_text: 'A colour?', points: 1, accepted: ['Red'] },
  { _id: 'q5', type: 'numeric', question_text: 'Half of 7?', points: 1, value: 3.5, tolerance: 0 },
];

type Row = [id: string, response: AnswerValue | null, earned: number, seconds?: number];
let next = 0;
const attempt = (...rows: Row[]): AttemptRecord => ({
  _id: `a${++next}`,
  score: 0,
  accuracy: '0',
  attemptedAt: '2026-11-26T10:00:00.000Z',
  timeTaken: 60,
  endedBy: 'submitted',
  user: { _id: `s${next}`, name: `Student ${next}`, rollNumber: String(next) },
  quiz: {
    questions: rows.map(([_id, response, earnedPoints, seconds]) => ({
      _id,
      response,
      earnedPoints,
      ...(seconds === undefined ? {} : { seconds }),
    })),
  },
});

const attempts = [
  attempt(['q1', 'o1', 1, 10], ['q2', ['o1', 'o2'], 2, 20], ['q3', true, 1], ['q4', ' red ', 1], ['q5', '3,5', 1]),
  attempt(['q1', 'o2', 0, 20], ['q2', ['o1'], 1], ['q3', false, 0], ['q4', 'RED', 1], ['q5', '3.5', 1]),
  attempt(['q1', null, 0], ['q2', ['o1', 'o3'], 0], ['q3', null, 0], ['q4', 'blue', 0], ['q5', 'seven', 0]),
  attempt(['q1', 'o1', 1, 30], ['q2', [], 0], ['q3', true, 1], ['q4', '', 0], ['q5', '4', 0]),
];

describe('questionStats', () => {
  const stats = new Map(questionStats(questions, attempts).map((row) => [row.questionId, row]));

  it('counts full points and answers in percent of attempts', () => {
    expect([...stats.values()].map((row) => [row.questionId, row.percentFull, row.percentAnswered])).toEqual([
      ['q1', 50, 75],
      ['q2', 25, 75],
      ['q3', 50, 75],
      ['q4', 50, 75],
      ['q5', 50, 100],
    ]);
  });

  it('counts options by text, a multiple answer once per option chosen', () => {
    expect(stats.get('q1')!.distribution).toEqual([
      { kind: 'text', text: 'Paris', count: 2, correct: true },
      { kind: 'text', text: 'Lyon', count: 1, correct: false },
    ]);
    expect(stats.get('q2')!.distribution).toEqual([
      { kind: 'text', text: '2', count: 3, correct: true },
      { kind: 'text', text: '3', count: 1, correct: true },
      { kind: 'text', text: '4', count: 1, correct: false },
    ]);
    expect(stats.get('q3')!.distribution).toEqual([
      { kind: 'true-false', value: true, count: 2, correct: true },
      { kind: 'true-false', value: false, count: 1, correct: false },
    ]);
  });

  it('groups typed texts as the scoring compares them, and numbers by value', () => {
    expect(stats.get('q4')!.distribution).toEqual([
      { kind: 'text', text: 'red', count: 2, correct: true },
      { kind: 'text', text: 'blue', count: 1, correct: false },
    ]);
    expect(stats.get('q5')!.distribution).toEqual([
      { kind: 'text', text: '3.5', count: 2, correct: true },
      { kind: 'text', text: '4', count: 1, correct: false },
      { kind: 'text', text: 'seven', count: 1 },
    ]);
  });

  it('marks typed texts right by the wildcards the scoring uses (decision 049)', () => {
    const wild: QuizQuestion = {
      _id: 'q6',
      type: 'short-text',
      question_text: 'A shade?',
      points: 1,
      accepted: ['*red*'],
      wildcards: true,
    };
    const [row] = questionStats(
      [wild],
      [attempt(['q6', 'Dark red', 1]), attempt(['q6', 'dark  RED', 1]), attempt(['q6', 'blue', 0])],
    );
    expect(row!.distribution).toEqual([
      { kind: 'text', text: 'Dark red', count: 2, correct: true },
      { kind: 'text', text: 'blue', count: 1, correct: false },
    ]);
    const [literal] = questionStats([{ ...wild, wildcards: undefined }], [attempt(['q6', 'Dark red', 0])]);
    expect(literal!.distribution).toEqual([{ kind: 'text', text: 'Dark red', count: 1, correct: false }]);
  });

  it('marks every number answer worth all the points right, each by its tolerance (decision 043, addendum)', () => {
    const roots: QuizQuestion = {
      _id: 'q7',
      type: 'numeric',
      question_text: 'A square root of 4?',
      points: 1,
      value: 2,
      tolerance: 0,
      partial: [
        { value: -2, tolerance: 0.1, weight: 100 },
        { value: 2, tolerance: 0.5, weight: 50 },
      ],
    };
    const [row] = questionStats(
      [roots],
      [attempt(['q7', '2', 1]), attempt(['q7', '-1,95', 1]), attempt(['q7', '2.3', 0.5]), attempt(['q7', '-3', 0])],
    );
    expect(row!.distribution).toEqual([
      { kind: 'text', text: '-1.95', count: 1, correct: true },
      { kind: 'text', text: '-3', count: 1, correct: false },
      { kind: 'text', text: '2', count: 1, correct: true },
      { kind: 'text', text: '2.3', count: 1, correct: false },
    ]);
  });

  it('keeps the five most common typed answers and sums the rest', () => {
    const many = ['a', 'a', 'a', 'b', 'b', 'c', 'd', 'e', 'f', 'g'].map((text) => attempt(['q4', text, 0]));
    const [row] = questionStats([questions[3]!], many);
    expect(
      row!.distribution.map((answer) => `${answer.kind === 'text' ? answer.text : answer.kind} ${answer.count}`),
    ).toEqual(['a 3', 'b 2', 'c 1', 'd 1', 'e 1', 'others 2']);
  });

  it('gives a matching question’s pairs as data, each with its match once the key says (issue 32)', () => {
    const pairs: QuizQuestion = {
      _id: 'q8',
      type: 'matching',
      question_text: 'Match the organs.',
      points: 2,
      prompts: [
        { _id: 'p1', text: 'Heart', match: 'c1' },
        { _id: 'p2', text: 'Lungs', match: 'c2' },
      ],
      choices: [
        { _id: 'c1', text: 'Pumps blood' },
        { _id: 'c2', text: 'Breathe' },
      ],
    };
    const [row] = questionStats([pairs], [attempt(['q8', { p1: 'c1', p2: 'c1' }, 1])]);
    expect(row!.distribution).toEqual([
      { kind: 'match', prompt: 'Heart', choice: 'Pumps blood', count: 1, correct: true },
      { kind: 'match', prompt: 'Lungs', choice: 'Breathe', count: 0, correct: true },
    ]);
    const stripped = { ...pairs, prompts: pairs.prompts!.map(({ _id, text }) => ({ _id, text })) };
    expect(questionStats([stripped], [])[0]!.distribution[0]).toEqual({ kind: 'match', prompt: 'Heart', count: 0 });
  });

  it('averages the recorded seconds, null where none were', () => {
    expect(stats.get('q1')!.averageSeconds).toBe(20);
    expect(stats.get('q2')!.averageSeconds).toBe(20);
    expect(stats.get('q3')!.averageSeconds).toBeNull();
  });

  it('gives zeros, not NaN, before any attempt', () => {
    expect(questionStats(questions, [])[0]).toEqual({
      questionId: 'q1',
      percentFull: 0,
      percentAnswered: 0,
      distribution: [
        { kind: 'text', text: 'Paris', count: 0, correct: true },
        { kind: 'text', text: 'Lyon', count: 0, correct: false },
      ],
      averageSeconds: null,
    });
  });
});
