import { describe, expect, it } from 'vitest';
import { type StoredQuestion } from './question-types.ts';
import { scoreQuestion } from './question-scoring.ts';
import { hasWildcard, moodleAnswerOfLiteral, shortAnswersOverlap } from './moodle-answers.ts';
import {
  literalOfMoodleAnswer,
  matchesPattern,
  shortAnswerPattern,
  shortAnswerWeight,
  shortTextKey,
} from './short-answers.ts';

/** Whether Moodle's answer `pattern` takes `response`, as a GIFT question (case ignored) with wildcards. */
const matches = (response: string, pattern: string) =>
  matchesPattern(shortTextKey(response), shortAnswerPattern(pattern, true));

describe('short answers with wildcards as Moodle compares them (decision 049)', () => {
  // The cases of Moodle's own tests of compare_string_with_wildcard
  // (question/type/shortanswer/tests/question_test.php) that ignore case, as GIFT questions do.
  it.each([
    ['Frog', 'frog', true],
    ['   FROG   ', 'Frog', true],
    ['Frogs', 'Frog', false],
    ['Frog', 'F*og', true],
    ['Fog', 'F*og', true],
    ['   Fat dog   ', 'F*og', true],
    ['Frogs', 'F*og', false],
    ['Fg', 'F*og', false],
    ['frog', 'F*og', true],
    ['   fat dog   ', 'F*og', true],
    ['   *   ', String.raw`\*`, true],
    ['*', String.raw`\*`, true],
    ['Frog*toad', String.raw`Frog\*toad`, true],
    ['a', '[a-z]', false],
    ['[a-z]', '[a-z]', true],
    [String.raw`\{}/`, String.raw`\{}/`, true],
    ['ITÁLIE', 'Itálie', true],
    ['départ', 'DÉPART', true],
    ['d\u00e9part', 'D\u0045\u0301PART', true],
    ['0', '0', true],
    ['0', '0*', true],
    ['0', '*0', true],
    ['0', '*0*', true],
    ['<em></em>', `${'*'.repeat(35)}<em>${'*'.repeat(35)}</em>`, true],
  ])('“%s” against %s: %s', (response, pattern, expected) => {
    expect(matches(response, pattern)).toBe(expected);
  });

  it('matches the whole response: a star stands for any text, none included', () => {
    // Moodle's help: "Long*" matches long, longer, longest; `ran*ing` any text from ran to ing.
    for (const response of ['long', 'Longer', 'LONGEST']) expect(matches(response, 'Long*')).toBe(true);
    expect(matches('belong', 'Long*')).toBe(false);
    expect(matches('running', 'ran*ing')).toBe(false);
    expect(matches('ranting', 'ran*ing')).toBe(true);
    expect(matches('ran out of string', 'ran*ing')).toBe(true);
    expect(matches('The colour red', '*colour*')).toBe(true);
    expect(matches('colour', '*colour*')).toBe(true);
    expect(matches('color', '*colour*')).toBe(false);
    expect(matches('anything at all', '*')).toBe(true);
    // ** is *, as in Moodle; a piece is placed once only: a*b*a needs two a's.
    expect(matches('ab', 'a**b')).toBe(true);
    expect(matches('a', 'a*a')).toBe(false);
    expect(matches('aba', 'a*b*a')).toBe(true);
    expect(matches('ab', 'a*b*a')).toBe(false);
  });

  it('keeps our normalisation in the literal parts, and a space beside a star', () => {
    expect(matches('  THE   COLOUR  red ', '*colour*')).toBe(true);
    expect(matches('Ｃｏｌｏｕｒ ｓｃｈｅｍｅ', 'colour *')).toBe(true);
    // `red *` needs the space after "red", as Moodle's /^red .*$/ does.
    expect(matches('red wine', 'red *')).toBe(true);
    expect(matches('redwine', 'red *')).toBe(false);
    expect(matches('red', 'red *')).toBe(false);
    expect(matches('red white  wine', 'red * wine')).toBe(true);
    expect(matches('red, white wine', 'red * wine')).toBe(false);
    // Spaces are one space here: "red    wine" is "red wine", which `red * wine` does not take
    // (Moodle, comparing spaces as typed, would let the star take the extra ones).
    expect(matches('red    wine', 'red * wine')).toBe(false);
  });

  it('reads `\\*` as a star, and escapes a literal answer’s stars for Moodle', () => {
    expect(hasWildcard('colo*r')).toBe(true);
    expect(hasWildcard(String.raw`2\*3`)).toBe(false);
    expect(hasWildcard(String.raw`2\**`)).toBe(true);
    expect(matches('2*3', String.raw`2\*3`)).toBe(true);
    expect(matches('2x3', String.raw`2\*3`)).toBe(false);
    expect(matches('2*3 or more', String.raw`2\**`)).toBe(true);
    expect(literalOfMoodleAnswer(String.raw`2\*3`)).toBe('2*3');
    expect(moodleAnswerOfLiteral('2*3')).toBe(String.raw`2\*3`);
    expect(literalOfMoodleAnswer(moodleAnswerOfLiteral(String.raw`a\*b*`))).toBe(String.raw`a\*b*`);
  });

  it('takes a literal answer’s star as a star: existing quizzes keep their meaning', () => {
    const literal = { accepted: ['2*3'] };
    expect(shortAnswerWeight(literal, '2*3')).toBe(100);
    expect(shortAnswerWeight(literal, '2 times 3')).toBe(0);
    expect(shortAnswerWeight({ ...literal, wildcards: true }, '2 times 3')).toBe(100);
  });

  it('scores the full answers first, then the first partial answer that matches; spaces alone earn nothing', () => {
    const question: StoredQuestion = {
      _id: 'q',
      type: 'short-text',
      question_text: 'Which colour?',
      points: 2,
      accepted: ['*red*'],
      partial: [
        { text: 'r*', weight: 50 },
        { text: '*', weight: 25 },
      ],
      wildcards: true,
    };
    expect(scoreQuestion(question, 'Dark red')).toBe(2);
    expect(scoreQuestion(question, 'rose')).toBe(1);
    expect(scoreQuestion(question, 'blue')).toBe(0.5);
    expect(scoreQuestion(question, '   ')).toBe(0);
    expect(scoreQuestion(question, '')).toBe(0);
  });

  it('stays fast on patterns and responses built to make a matcher backtrack', () => {
    const pattern = `${'a*'.repeat(99)}b`;
    const response = 'a'.repeat(200);
    const started = performance.now();
    for (let round = 0; round < 50; round++) expect(matches(response, pattern)).toBe(false);
    expect(shortAnswersOverlap(pattern, `${'*a'.repeat(99)}c`, true)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('finds whether two answers match some same response', () => {
    expect(shortAnswersOverlap('*colour*', 'red colour', true)).toBe(true);
    expect(shortAnswersOverlap('colo*r', 'colour', true)).toBe(true);
    expect(shortAnswersOverlap('*ab', 'ba*', true)).toBe(true);
    expect(shortAnswersOverlap('a*', '*b', true)).toBe(true);
    expect(shortAnswersOverlap('a*c', 'b*', true)).toBe(false);
    expect(shortAnswersOverlap('*x', '*y', true)).toBe(false);
    expect(shortAnswersOverlap('Paris', 'PARIS', true)).toBe(true);
    expect(shortAnswersOverlap('Paris', 'Lyon', true)).toBe(false);
    expect(shortAnswersOverlap('a*', 'b*', false)).toBe(false);
  });
});
