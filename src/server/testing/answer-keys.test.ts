import { describe, expect, it } from 'vitest';
import { answerKeysIn } from './answer-keys.ts';

/**
 * The leak detector of the authorization matrix and the fuzzer: every field that carries a
 * piece of a key, of any question type, must be seen, or a presenter could leak it unnoticed.
 */
describe('answerKeysIn', () => {
  const question = (fields: object) => ({ _id: 'q1', type: 'x', question_text: 'Q', points: 1, ...fields });

  it('finds every key-bearing field of every question type, by its question', () => {
    const keyed: [string, object][] = [
      ['an option’s correct flag', { options: [{ _id: 'o1', text: 'a', correct: true }] }],
      ['an option’s Moodle weight (decision 043)', { options: [{ _id: 'o1', text: 'a', weight: -50 }] }],
      ['a true-false answer', { correct: false }],
      ['accepted short answers', { accepted: ['Paris'] }],
      ['the wildcards flag (decision 049)', { wildcards: true }],
      ['partial short answers (decision 043)', { partial: [{ text: 'Pari', weight: 50 }] }],
      ['a number’s value', { value: 3 }],
      ['a number’s tolerance', { tolerance: 0.5 }],
      ['further number answers (decision 043)', { partial: [{ value: -2, tolerance: 0, weight: 100 }] }],
      ['a matching prompt’s match (decision 045)', { prompts: [{ _id: 'p1', text: 'France', match: 'c1' }] }],
      ['matching pairs as the editor writes them', { pairs: [{ prompt: 'France', match: 'Paris' }] }],
      ['an essay’s marking guidance (decision 046)', { guidance: 'Names two causes.' }],
      ['what the question earned', { earnedPoints: 1 }],
      ['SPEC §3’s answer', { answer: 'Paris' }],
    ];
    for (const [what, fields] of keyed) expect(answerKeysIn({ data: [question(fields)] }), what).toEqual(['q1']);
  });

  it('finds nothing in a question without its key, nor in schemas that use the same names', () => {
    const bare = question({
      options: [{ _id: 'o1', text: 'a' }],
      prompts: [{ _id: 'p1', text: 'France' }],
      choices: [{ _id: 'c1', text: 'Paris' }],
      scoring: 'partial',
      response: '3',
    });
    expect(answerKeysIn({ data: [bare] })).toEqual([]);
    // The OpenAPI document: the names hold schemas.
    const schema = { type: 'object', properties: { weight: { type: 'number' }, wildcards: { type: 'boolean' } } };
    expect(answerKeysIn({ components: { schemas: { question: { ...schema, partial: { type: 'array' } } } } })).toEqual(
      [],
    );
  });
});
