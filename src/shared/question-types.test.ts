import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './api.ts';
import {
  answerProblem,
  answerValueSchema,
  isAnswered,
  matchingPairsOf,
  parseNumber,
  questionCountOf,
  toStoredQuestions,
  typedQuestionInputSchema,
  type ChoiceQuestion,
  type StoredQuestion,
} from './question-types.ts';
import { scoreAttempt, scoreQuestion, totalPointsOf } from './question-scoring.ts';

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
  it('keeps the ids of options the stored question has, and draws the others (decision 039)', () => {
    const stored: StoredQuestion[] = [
      {
        _id: 'keep',
        type: 'single',
        question_text: 'Q',
        points: 1,
        options: [
          { _id: 'Kx81aQ-z', text: 'old', correct: true },
          { _id: 'p0_Fj2Lm', text: 'gone', correct: false },
        ],
      },
    ];
    const input = typedQuestionInputSchema.parse({
      _id: 'keep',
      type: 'single',
      question_text: 'Q',
      options: [
        { text: 'new', correct: false },
        { _id: 'Kx81aQ-z', text: 'old', correct: true },
        { _id: 'o1', text: 'named by the body', correct: false },
      ],
    });
    // A draw that repeats a kept id is drawn again: ids stay unique within the question.
    const draws = [['d1', 'Kx81aQ-z'], ['d2']];
    const [edited] = toStoredQuestions([input], () => draws.shift()!, stored);
    expect(edited).toMatchObject({
      _id: 'keep',
      points: 1,
      options: [{ _id: 'd1' }, { _id: 'Kx81aQ-z', text: 'old' }, { _id: 'd2', text: 'named by the body' }],
    });
    // On a creation (no stored questions) no id is kept.
    const [created] = toStoredQuestions([{ ...input, _id: undefined }], (count) =>
      Array.from({ length: count }, (_, index) => `new${index}`),
    );
    expect((created as ChoiceQuestion).options.map((option) => option._id).sort()).toEqual(['new1', 'new2', 'new3']);
    expect(created!._id).toBe('new0');
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

/** Decision 045: matching questions and description items. */
describe('matching questions', () => {
  const matching: StoredQuestion = {
    _id: 'm',
    type: 'matching',
    question_text: 'Match each organ to what it does',
    points: 3,
    prompts: [
      { _id: 'p1', text: 'heart', match: 'c1' },
      { _id: 'p2', text: 'lungs', match: 'c2' },
      { _id: 'p3', text: 'kidneys', match: 'c3' },
    ],
    choices: [
      { _id: 'c1', text: 'pumps blood' },
      { _id: 'c2', text: 'exchange gases' },
      { _id: 'c3', text: 'filter blood' },
      { _id: 'c4', text: 'digest food' },
    ],
  };

  it('gives every prompt an equal share of the points, as Moodle scores a match question', () => {
    expect(scoreQuestion(matching, { p1: 'c1', p2: 'c2', p3: 'c3' })).toBe(3);
    expect(scoreQuestion(matching, { p1: 'c1', p2: 'c3', p3: 'c2' })).toBe(1);
    expect(scoreQuestion(matching, { p1: 'c1', p2: 'c2' })).toBe(2);
    expect(scoreQuestion(matching, { p1: 'c4', p2: 'c4', p3: 'c4' })).toBe(0);
    expect(scoreQuestion({ ...matching, points: 1 }, { p1: 'c1' })).toBe(0.33);
    expect(scoreQuestion(matching, {})).toBe(0);
    expect(scoreQuestion(matching, null)).toBe(0);
  });

  it('takes only prompts of the question matched to its choices', () => {
    expect(answerProblem(matching, { p1: 'c4', p2: 'c4' })).toBeUndefined();
    // Codes the client words (issue 32), the English message for logs.
    expect(answerProblem(matching, { p9: 'c1' })).toEqual({
      code: 'INVALID_CHOICE',
      message: 'Match the question’s prompts to its matches',
    });
    expect(answerProblem(matching, { p1: 'p2' })?.code).toBe('INVALID_CHOICE');
    expect(answerProblem(matching, 'c1')).toEqual({
      code: 'WRONG_TYPE',
      params: { expected: 'object' },
      message: 'Match the prompts of the question',
    });
    expect(answerProblem(matching, ['c1'])?.code).toBe('WRONG_TYPE');
    // A prompts-to-choices answer is no answer to another type.
    expect(answerProblem(single, { p1: 'c1' })).toBeDefined();
    expect(isAnswered({})).toBe(false);
    expect(isAnswered({ p1: 'c1' })).toBe(true);
    expect(answerValueSchema.safeParse({ p1: 'c1' }).success).toBe(true);
    expect(answerValueSchema.safeParse({ p1: 3 }).success).toBe(false);
  });

  it('stores pairs as prompts and shared choices with random ids, kept on an edit', () => {
    const input = typedQuestionInputSchema.parse({
      type: 'matching',
      question_text: 'Capitals',
      pairs: [
        { prompt: 'France', match: 'Paris' },
        { prompt: 'Île-de-France', match: 'Paris' },
        { prompt: 'Italy', match: 'Rome' },
        { prompt: '', match: 'Madrid' },
      ],
    });
    let drawn = 0;
    const draw = (count: number) => Array.from({ length: count }, () => `id${drawn++}`);
    const [stored] = toStoredQuestions([input], draw);
    if (stored?.type !== 'matching') throw new Error('not matching');
    expect(stored.choices.map((choice) => choice.text)).toEqual(['Paris', 'Rome', 'Madrid']);
    const idOf = (text: string) => stored.choices.find((choice) => choice.text === text)!._id;
    expect(stored.prompts.map((prompt) => [prompt.text, prompt.match])).toEqual([
      ['France', idOf('Paris')],
      ['Île-de-France', idOf('Paris')],
      ['Italy', idOf('Rome')],
    ]);
    // Every id distinct: a prompt's id and its match's id are unrelated draws.
    const ids = [stored._id, ...stored.prompts.map((p) => p._id), ...stored.choices.map((c) => c._id)];
    expect(new Set(ids).size).toBe(ids.length);
    // An edit through the pairs keeps every id, rewording included, and the pairs come back alike.
    const pairs = matchingPairsOf(stored.prompts, stored.choices);
    expect(pairs.map((pair) => [pair.prompt, pair.match])).toEqual([
      ['France', 'Paris'],
      ['Île-de-France', 'Paris'],
      ['Italy', 'Rome'],
      ['', 'Madrid'],
    ]);
    const reworded = pairs.map((pair) => (pair.match === 'Rome' ? { ...pair, match: 'Roma' } : pair));
    const edit = typedQuestionInputSchema.parse({ ...input, _id: stored._id, pairs: reworded });
    const [edited] = toStoredQuestions([edit], draw, [stored]);
    expect(edited).toEqual({
      ...stored,
      choices: stored.choices.map((choice) => (choice.text === 'Rome' ? { ...choice, text: 'Roma' } : choice)),
    });
  });

  it('refuses pairs Moodle could not read or a student could not answer', () => {
    const problems = (pairs: { prompt: string; match: string }[]) => {
      const result = typedQuestionInputSchema.safeParse({ type: 'matching', question_text: 'Q', pairs });
      return result.success ? [] : fieldErrorsOf(result.error.issues).map(({ code }) => code);
    };
    expect(problems([{ prompt: 'a', match: 'x' }])).toContain('TOO_FEW');
    expect(
      problems([
        { prompt: 'a', match: 'x' },
        { prompt: 'b', match: '' },
      ]),
    ).toContain('MATCH_MISSING');
    expect(
      problems([
        { prompt: '', match: 'x' },
        { prompt: '', match: 'y' },
      ]),
    ).toContain('PROMPT_MISSING');
    expect(
      problems([
        { prompt: 'a', match: 'x' },
        { prompt: 'b', match: 'x' },
      ]),
    ).toContain('TOO_FEW_MATCHES');
    expect(
      problems([
        { prompt: 'a', match: 'x' },
        { prompt: '', match: 'y' },
      ]),
    ).toEqual([]);
  });
});

describe('description items', () => {
  const description: StoredQuestion = {
    _id: 'd',
    type: 'description',
    question_text: 'The next questions are about fractions.',
    points: 0,
  };

  it('take no answer, earn nothing and count in no total', () => {
    expect(answerProblem(description, 'anything')).toEqual({
      code: 'NOT_ANSWERABLE',
      message: 'A description takes no answer',
    });
    expect(scoreQuestion(description, 'anything')).toBe(0);
    expect(scoreAttempt([description, single], { q1: 'b' })).toEqual({ score: 2, accuracy: '100' });
    expect(totalPointsOf([description, single])).toBe(2);
    expect(questionCountOf([description, single])).toBe(1);
  });

  it('are worth 0 points whatever the editor sends', () => {
    expect(typedQuestionInputSchema.parse({ type: 'description', question_text: 'Read this' })).toEqual({
      type: 'description',
      question_text: 'Read this',
      points: 0,
    });
    expect(
      typedQuestionInputSchema.safeParse({ type: 'description', question_text: 'Read this', points: 1 }).success,
    ).toBe(false);
  });
});
