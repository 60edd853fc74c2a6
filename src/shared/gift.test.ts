// eslint-disable-next-line no-restricted-imports -- the test reads its fixture; the module under test stays browser-safe
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAiken } from './aiken.ts';
import { escapeGift, parseGift, unescapeGift, writeGift } from './gift.ts';
import type { TypedQuestionInput } from './question-types.ts';

const questionsOf = (text: string) => parseGift(text).questions.map(({ question }) => question);

/** A file with every type, points, both scorings, escapes, TeX and line breaks. */
const EVERY_TYPE = String.raw`// A quiz with every question type
::Capital:: What is the capital of France? {
=Paris
~Lyon
~Marseille
}

// points: 2.5
Which are prime? {
~%50%2
~%50%3
~%-50%4
~%-50%9
}

// scoring: all-or-nothing
Which are even? {
~%33.33333%2
~%33.33333%4
~%33.33333%6
~%-33.33333%7
}

The sun rises in the east. {T}

// points: 3
Water freezes at 10 °C. {FALSE}

Name a primary colour. {=red =blue =yellow}

How much is \( \frac\{1\}\{2\} + 0.25 \)? {#0.75:0.01}

Solve $$x^2 \= 4$$ for x > 0.\nGive the root. {#1.9..2.1}

What does \~ mean in C\: \\n? {#-1}
`;

describe('parseGift', () => {
  it('reads every question type, with points, scoring, escapes and TeX', () => {
    const { questions, problems } = parseGift(EVERY_TYPE);
    expect(problems).toEqual([]);
    expect(questions.map(({ line }) => line)).toEqual([2, 9, 17, 24, 27, 29, 31, 33, 35]);
    expect(questions.map(({ question }) => question)).toEqual<TypedQuestionInput[]>([
      {
        type: 'single',
        question_text: 'What is the capital of France?',
        points: 1,
        options: [
          { text: 'Paris', correct: true },
          { text: 'Lyon', correct: false },
          { text: 'Marseille', correct: false },
        ],
      },
      {
        type: 'multiple',
        scoring: 'partial',
        question_text: 'Which are prime?',
        points: 2.5,
        options: [
          { text: '2', correct: true },
          { text: '3', correct: true },
          { text: '4', correct: false },
          { text: '9', correct: false },
        ],
      },
      {
        type: 'multiple',
        scoring: 'all-or-nothing',
        question_text: 'Which are even?',
        points: 1,
        options: [
          { text: '2', correct: true },
          { text: '4', correct: true },
          { text: '6', correct: true },
          { text: '7', correct: false },
        ],
      },
      { type: 'true-false', question_text: 'The sun rises in the east.', points: 1, correct: true },
      { type: 'true-false', question_text: 'Water freezes at 10 °C.', points: 3, correct: false },
      { type: 'short-text', question_text: 'Name a primary colour.', points: 1, accepted: ['red', 'blue', 'yellow'] },
      {
        type: 'numeric',
        question_text: String.raw`How much is \( \frac{1}{2} + 0.25 \)?`,
        points: 1,
        value: 0.75,
        tolerance: 0.01,
      },
      {
        type: 'numeric',
        question_text: 'Solve $$x^2 = 4$$ for x > 0.\nGive the root.',
        points: 1,
        value: 2,
        tolerance: 0.1,
      },
      { type: 'numeric', question_text: String.raw`What does ~ mean in C: \n?`, points: 1, value: -1, tolerance: 0 },
    ]);
  });

  it('round-trips every type: import, export, import gives the same questions', () => {
    const imported = questionsOf(EVERY_TYPE);
    const exported = writeGift(imported);
    expect(parseGift(exported).problems).toEqual([]);
    expect(questionsOf(exported)).toEqual(imported);
  });

  it('keeps TeX and backslashes through escaping', () => {
    const texts = [String.raw`\( \{ x \} \neq \frac{a}{b} \)`, String.raw`$$a \\ b = c: ~d #e$$`, 'C:\\', 'a\\\nb'];
    for (const text of texts) expect(unescapeGift(escapeGift(text))).toBe(text);
    const question: TypedQuestionInput = {
      type: 'short-text',
      question_text: String.raw`Simplify \( \frac{2}{4} \)`,
      points: 1,
      accepted: [String.raw`\frac{1}{2}`, '1/2'],
    };
    expect(writeGift([question])).toContain(String.raw`Simplify \( \frac\{2\}\{4\} \) {`);
    expect(questionsOf(writeGift([question]))).toEqual([question]);
  });

  it('keeps an arrow (->) in answers and options through a round trip, not read as matching', () => {
    const texts = ['x -> y', 'a->b', String.raw`\( a \> b \)`, '->'];
    for (const text of texts) expect(unescapeGift(escapeGift(text))).toBe(text);
    const questions: TypedQuestionInput[] = [
      { type: 'short-text', question_text: 'Which way?', points: 1, accepted: ['x -> y', 'x→y'] },
      {
        type: 'single',
        question_text: 'Pick the arrow',
        points: 1,
        options: [
          { text: 'a -> b', correct: true },
          { text: 'a <- b', correct: false },
        ],
      },
    ];
    const exported = writeGift(questions);
    expect(parseGift(exported).problems).toEqual([]);
    expect(questionsOf(exported)).toEqual(questions);
  });

  it('notes images in a comment on export', () => {
    const gift = writeGift([
      {
        type: 'true-false',
        question_text: 'Is this a cat?',
        image: { fileKey: 'quiz-images/cat.png', alt: 'A cat' },
        correct: true,
      },
    ]);
    expect(gift).toMatch(/^\/\/ image: 1 image\(s\) of this question are not exported/);
    expect(questionsOf(gift)).toEqual([
      { type: 'true-false', question_text: 'Is this a cat?', points: 1, correct: true },
    ]);
  });

  it('reports what a question cannot be, with its reason', () => {
    const problems = (text: string) => parseGift(text).problems.map(({ line, message }) => `${line}: ${message}`);
    expect(problems('Pick {~a ~b}')).toEqual(['1: No right answer: give at least one option a positive weight']);
    expect(problems('Pick {~%40%a ~%40%b ~c}')).toEqual(['1: The positive weights add up to 80%, not 100%']);
    expect(problems('Name it {=%50%a =%0%b}')).toEqual(['1: No short answer is worth 100%']);
    expect(problems('Name it {=%50%colo*r =colour}')).toEqual([
      '1: The answer “colo*r” (50%) comes before “colour” (100%) and matches some of the same answers: Moodle gives the first, so put the answer worth more first',
    ]);
    expect(problems('Name it {=%-50%colo*r =colour}')).toEqual([
      '1: A short answer’s weight must be between 0 and 100%',
    ]);
    expect(problems('Number {#=%50%2:1 =2}')).toEqual([
      '1: A partial answer before the full one overlaps it: put the 100% answer first',
    ]);
    expect(problems('Number {#abc}')).toEqual(['1: “abc” is not a number']);
    expect(problems('Number {#5..1}')).toEqual(['1: The range 5..1 goes down: write the smaller number first']);
    expect(problems('Open {=a')).toEqual(['1: The answer block { is not closed with }']);
    // The question schema's own refusals: its field and code, which the client words.
    expect(problems('// points: 1.3\nPick {=a ~b}')).toEqual(['2: points: POINTS_NOT_HALVES']);
    expect(problems('Pick {=a ~a}')).toEqual(['1: options: NOT_UNIQUE']);
  });
});

describe('number questions with several answers worth 100 % (decision 043, addendum)', () => {
  const ROOTS = 'Give a square root of 4. {#=2:0 =-2:0 =%50%2:0.5 =%50%-2:0.5}';

  it('keeps every full answer with its own tolerance, after the first one, in the file’s order', () => {
    expect(questionsOf(ROOTS)).toEqual<TypedQuestionInput[]>([
      {
        type: 'numeric',
        question_text: 'Give a square root of 4.',
        points: 1,
        value: 2,
        tolerance: 0,
        partial: [
          { value: -2, tolerance: 0, weight: 100 },
          { value: 2, tolerance: 0.5, weight: 50 },
          { value: -2, tolerance: 0.5, weight: 50 },
        ],
      },
    ]);
    // A full answer after a partial one: still first among the full ones, the partial one tried after it.
    expect(questionsOf('Root? {#=%50%3:0.5 =-2 =2}')).toEqual([
      {
        type: 'numeric',
        question_text: 'Root?',
        points: 1,
        value: -2,
        tolerance: 0,
        partial: [
          { value: 3, tolerance: 0.5, weight: 50 },
          { value: 2, tolerance: 0, weight: 100 },
        ],
      },
    ]);
  });

  it('writes the further full answers with = alone, and reads them back the same', () => {
    const written = writeGift(questionsOf(ROOTS));
    expect(written).toBe('Give a square root of 4. {#\n=2:0\n=-2:0\n=%50%2:0.5\n=%50%-2:0.5\n}\n');
    expect(questionsOf(written)).toEqual(questionsOf(ROOTS));
  });

  it('refuses an answer worth 0 % that Moodle would give before a later one worth more', () => {
    const problems = (text: string) => parseGift(text).problems.map(({ message }) => message);
    expect(problems('Number {#=%0%1..3 =2:0}')).toEqual([
      'The answer “1..3” (0%) comes before “2:0” (100%) and takes some of its numbers: Moodle gives the first, so put the answer worth more first',
    ]);
    expect(problems('Number {#=2 =%0%* =%50%3}')).toEqual([
      'The answer “*” (0%) comes before “3” (50%) and takes some of its numbers: Moodle gives the first, so put the answer worth more first',
    ]);
    // After every answer it could take numbers from, or apart from them, a 0 % answer changes nothing.
    expect(problems('Number {#=2 =%50%3 =%0%*}')).toEqual([]);
    expect(problems('Number {#=%0%10:1 =2 =-2}')).toEqual([]);
    expect(problems('Number {#=%101%2}')).toEqual(["A number answer's weight must be between 0 and 100%"]);
  });
});

describe('essays (decision 046)', () => {
  it('reads Moodle’s essay {} as an essay, with its points and our marking guidance', () => {
    const { questions, problems } = parseGift(
      '// points: 5\n// guidance: Two causes, one example.\n// guidance: Half a point for spelling.\nWhy do leaves fall? {}\n\nDescribe a river {} in autumn.',
    );
    expect(problems).toEqual([]);
    expect(questions.map(({ question }) => question)).toEqual<TypedQuestionInput[]>([
      {
        type: 'essay',
        question_text: 'Why do leaves fall?',
        points: 5,
        guidance: 'Two causes, one example.\nHalf a point for spelling.',
      },
      // Text after the block: Moodle's blank, as for every type.
      { type: 'essay', question_text: 'Describe a river _____ in autumn.', points: 1 },
    ]);
  });

  it('writes an essay back as Moodle reads it ({}), the guidance in comments Moodle skips', () => {
    const essay: TypedQuestionInput = {
      type: 'essay',
      question_text: 'Explain {why} in 200 words.',
      points: 4,
      guidance: 'Look for causes.\nAnd effects.',
    };
    const written = writeGift([essay]);
    expect(written).toBe(
      '// points: 4\n// guidance: Look for causes.\n// guidance: And effects.\nExplain \\{why\\} in 200 words. {}\n',
    );
    expect(questionsOf(written)).toEqual([essay]);
  });
});

describe('GIFT samples of every feature', () => {
  const samples = parseGift(readFileSync(new URL('./fixtures/gift-feature-samples.txt', import.meta.url), 'utf8'));

  it('reports each unsupported feature at its line', () => {
    const reported = samples.problems.map(({ line, severity, message }) => `${line} ${severity}: ${message}`);
    expect(reported).toEqual([
      '2 warning: Categories ($CATEGORY) are ignored',
      '46 warning: Feedback (#…) is not kept',
      '51 warning: Feedback (#…) is not kept',
      '64 warning: HTML and markdown formatting is shown as plain text',
      '66 warning: HTML and markdown formatting is shown as plain text',
      '69 warning: Feedback (#…) is not kept',
    ]);
  });

  it('imports the supported samples', () => {
    expect(samples.questions.map(({ line, question }) => `${line} ${question.type}`)).toEqual([
      '5 single',
      '7 single',
      '10 true-false',
      '12 true-false',
      '15 short-text',
      '17 short-text',
      '20 matching',
      '28 single',
      '31 numeric',
      '33 numeric',
      '35 numeric',
      '40 essay',
      '43 description',
      '46 single',
      '51 true-false',
      '54 multiple',
      '61 single',
      '64 single',
      '66 single',
      '69 single',
      '79 single',
    ]);
    const byLine = new Map(samples.questions.map(({ line, question }) => [line, question]));
    expect(byLine.get(33)).toMatchObject({ value: 745, tolerance: 5 });
    expect(byLine.get(46)).toMatchObject({
      question_text: 'Which of these countries has no coastline?',
    });
    // Wrong options at -100 %, right ones at 50 %: Moodle's weights, kept as they are.
    expect(byLine.get(54)).toMatchObject({
      type: 'multiple',
      options: [
        { text: 'Scotland', correct: false, weight: -100 },
        { text: 'Ireland', correct: true, weight: 50 },
        { text: 'United Kingdom', correct: true, weight: 50 },
        { text: 'Wales', correct: false, weight: -100 },
      ],
    });
    expect(byLine.get(7)).toMatchObject({ question_text: 'The Danube flows into the _____ in Romania.' });
    expect(byLine.get(69)).toMatchObject({
      options: ['~', '=', '#', '{', '}', '\\'].map((text) => ({ text, correct: text === '\\' })),
    });
    expect(byLine.get(79)).toMatchObject({
      options: [{ text: '= 4 + 5' }, { text: '= 4 + 6', correct: true }, { text: '= 4 + 7' }],
    });
  });
});

describe('parseAiken', () => {
  it('reads questions with A. and A) options and their answer', () => {
    const { questions, problems } = parseAiken(
      'What is 2 + 2?\nA. 3\nB. 4\nC. 5\nANSWER: B\n\nWhich is a fruit?\nA) Carrot\nB) Apple\nANSWER: b\n',
    );
    expect(problems).toEqual([]);
    expect(questions).toEqual([
      {
        line: 1,
        question: {
          type: 'single',
          question_text: 'What is 2 + 2?',
          points: 1,
          options: [
            { text: '3', correct: false },
            { text: '4', correct: true },
            { text: '5', correct: false },
          ],
        },
      },
      {
        line: 7,
        question: {
          type: 'single',
          question_text: 'Which is a fruit?',
          points: 1,
          options: [
            { text: 'Carrot', correct: false },
            { text: 'Apple', correct: true },
          ],
        },
      },
    ]);
  });

  it('reports each broken question at its line and keeps the good ones', () => {
    const { questions, problems } = parseAiken(
      [
        'ANSWER: A', // 1: no question yet
        'Only one option', // 2
        'A. yes', // 3
        'ANSWER: A', // 4: fewer than two options
        'Wrong letter', // 5
        'A. x', // 6
        'B. y', // 7
        'ANSWER: C', // 8: no option C
        'Out of order', // 9
        'A. x', // 10
        'C. y', // 11
        'ANSWER: A', // 12
        'Good one', // 13
        'A. x', // 14
        'B. y', // 15
        'ANSWER: A', // 16
        'No answer line', // 17
        'A. x', // 18
        'B. y', // 19
      ].join('\n'),
    );
    expect(problems.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      '1: ANSWER: comes before any question',
      '2: A question needs at least two options (A. …, B. …)',
      '8: ANSWER: “C” is not one of the options’ letters',
      '11: Option C comes where B should',
      '17: The question has no ANSWER: line',
    ]);
    expect(problems.every(({ severity }) => severity === 'error')).toBe(true);
    expect(questions.map(({ line }) => line)).toEqual([13]);
  });
});
