// eslint-disable-next-line no-restricted-imports -- the test reads the fixture files; the modules under test stay browser-safe
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAiken } from './aiken.ts';
import { parseGift, writeGift } from './gift.ts';
import { compareWithMoodle, moodleViewOf, sameMoodleView, type MoodleOracle } from './moodle-view.ts';
import {
  toStoredQuestions,
  typedQuestionInputSchema,
  type AnswerValue,
  type TypedQuestionInput,
} from './question-types.ts';
import { scoreQuestion } from './question-scoring.ts';

/**
 * Issue 30 point 4 (decision 043): GIFT and Aiken files written like Moodle's own sample files
 * (tests/fixtures/moodle/, see its README) come in as Moodle reads them, and what comes in
 * scores as Moodle scores it. The oracle (oracle.json there) is Moodle's reading of each
 * question, written from Moodle's documentation and its reader's behaviour.
 */

const FIXTURES = new URL('../../tests/fixtures/moodle/', import.meta.url);
const oracle = JSON.parse(readFileSync(new URL('oracle.json', FIXTURES), 'utf8')) as MoodleOracle;

const only = (text: string) => {
  const { questions, problems } = parseGift(text);
  expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  expect(questions).toHaveLength(1);
  return questions[0]!.question;
};
const warningsOf = (text: string) =>
  parseGift(text)
    .problems.filter((problem) => problem.severity === 'warning')
    .map((problem) => problem.message);

/** The points one answer earns once the question is stored; answers name options by their text. */
function scoreOf(text: string, answer: string | string[]): number {
  const [stored] = toStoredQuestions([typedQuestionInputSchema.parse(only(text))], (count) =>
    Array.from({ length: count }, (_, index) => `id${index}`),
  );
  const idOf = (optionText: string) =>
    stored!.type === 'single' || stored!.type === 'multiple'
      ? stored!.options.find((option) => option.text === optionText)!._id
      : optionText;
  const value: AnswerValue = Array.isArray(answer)
    ? answer.map(idOf)
    : stored!.type === 'single'
      ? idOf(answer)
      : answer;
  return scoreQuestion(stored!, value);
}

describe('GIFT and Aiken files covering what Moodle’s sample files cover', () => {
  it('bring in at least 90 % of the questions Moodle takes, none of them otherwise than Moodle', () => {
    const files = readdirSync(FIXTURES)
      .filter((name) => name in oracle)
      .map((name) => ({ name, text: readFileSync(new URL(name, FIXTURES), 'utf8') }));
    expect(files.map((file) => file.name).sort()).toEqual(Object.keys(oracle).sort());
    const { total, imported, wrong, unreported } = compareWithMoodle(files, oracle);
    expect(wrong).toEqual([]);
    // What stays out (an answer order we cannot keep) is reported at its line.
    expect(unreported).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(60);
    expect(imported / total).toBeGreaterThanOrEqual(0.9);
  });
});

describe('essays as Moodle reads them (decision 046)', () => {
  it('brings the essay {} of the samples in as Moodle’s essay, and writes it back as one', () => {
    const name = 'gift-science-quiz.gift.txt';
    const text = readFileSync(new URL(name, FIXTURES), 'utf8');
    const essay = parseGift(text).questions.find(({ line }) => line === 88)?.question;
    expect(oracle[name]!['88']).toEqual({ type: 'essay', text: 'Describe the water cycle in your own words.' });
    expect(essay && sameMoodleView(moodleViewOf(essay), oracle[name]!['88']!)).toBe(true);
    expect(writeGift([essay!])).toBe('Describe the water cycle in your own words. {}\n');
  });
});

describe('GIFT as Moodle reads it', () => {
  it('takes the [plain], [html], [moodle] and [markdown] markers off every text', () => {
    const question = only(
      '::T:: [markdown]Which planet is **red**? {=[plain]Mars ~[html]<i>Venus</i> ~%0%[moodle]Saturn}',
    );
    expect(question).toMatchObject({
      question_text: 'Which planet is red?',
      options: [{ text: 'Mars' }, { text: 'Venus' }, { text: 'Saturn' }],
    });
    expect(only('Colours {~%50%[html]yellow ~%-100%[plain]blue ~%50%green}')).toMatchObject({
      options: [{ text: 'yellow' }, { text: 'blue' }, { text: 'green' }],
    });
    expect(only('[html]Listen:<br/>what is <a href="http://x.test/a.mp3">this</a>? {T}').question_text).toBe(
      'Listen:\nwhat is this (http://x.test/a.mp3)?',
    );
  });

  it('scores a multiple answer whose wrong options carry no weight as Moodle does, and says so', () => {
    const text = 'Which are prime? {~%50%2 ~%50%3 ~4 ~9}';
    expect(scoreOf(text, ['2', '3', '4', '9'])).toBe(1);
    expect(scoreOf(text, ['2', '4'])).toBe(0.5);
    expect(warningsOf(text)).toEqual([
      'Wrong options without a negative weight take nothing off: choosing every option earns full points, as in Moodle',
    ]);
    // With Moodle's penalties the same choice of every option earns nothing.
    expect(scoreOf('Which are prime? {~%50%2 ~%50%3 ~%-50%4 ~%-50%9}', ['2', '3', '4', '9'])).toBe(0);
    expect(scoreOf('Which are prime? {~%50%2 ~%50%3 ~%-100%4 ~%-100%9}', ['2', '3', '4'])).toBe(0);
  });

  it('takes single-choice questions with negative marks and partial credit, scored by their weights', () => {
    const text = '// points: 4\nCapital of France? {=Paris ~%-25%Lyon ~%50%Paris, France ~Rome}';
    expect(scoreOf(text, 'Paris')).toBe(4);
    expect(scoreOf(text, 'Lyon')).toBe(-1);
    expect(scoreOf(text, 'Paris, France')).toBe(2);
    expect(scoreOf(text, 'Rome')).toBe(0);
    // Several answers written with = are each worth all the points, as in Moodle.
    expect(scoreOf('Two plus two? {=four =4 ~five}', '4')).toBe(1);
  });

  it('scores short and number answers worth part of the points', () => {
    const short = 'The capital of Australia is {=Canberra =%75%Canbera =%25%Sydney =%0%*}.';
    expect(only(short).question_text).toBe('The capital of Australia is _____.');
    expect([scoreOf(short, 'canberra'), scoreOf(short, 'Canbera'), scoreOf(short, 'Sydney')]).toEqual([1, 0.75, 0.25]);
    expect(scoreOf(short, 'Rome')).toBe(0);
    const number = 'When did the Berlin Wall fall? {#=1989:0 =%50%1989:2 ~#Far off}';
    expect([scoreOf(number, '1989'), scoreOf(number, '1990,5'), scoreOf(number, '1992')]).toEqual([1, 0.5, 0]);
  });

  it('scores number answers as Moodle does, several of them worth 100 % (decision 043, addendum)', () => {
    // Moodle's numerical question: the first answer in the file whose range holds the number gives its fraction.
    const moodle = (answers: [number, number, number][], number: number) =>
      answers.find(([value, tolerance]) => Math.abs(number - value) <= tolerance + 1e-9)?.[2] ?? 0;
    const files: [string, [number, number, number][]][] = [
      [
        'Give a square root of 4. {#=2:0 =-2:0 =%50%2:0.5 =%50%-2:0.5}',
        [
          [2, 0, 1],
          [-2, 0, 1],
          [2, 0.5, 0.5],
          [-2, 0.5, 0.5],
        ],
      ],
      [
        'Root? {#=%50%3:0.5 =-2 =2:0.25 =%25%0..5}',
        [
          [3, 0.5, 0.5],
          [-2, 0, 1],
          [2, 0.25, 1],
          [2.5, 2.5, 0.25],
        ],
      ],
    ];
    for (const [text, answers] of files) {
      for (let number = -3; number <= 5; number += 0.25) {
        expect(scoreOf(`// points: 4\n${text}`, String(number)), `${text} ${number}`).toBe(4 * moodle(answers, number));
      }
    }
  });

  it('keeps questions written one after another without a blank line', () => {
    const { questions, problems } = parseGift(
      'Is the sky blue? {T}\n::Q2:: Pick one {=a ~b}\nWater is {~dry =wet}\nin the sea.\nLast {=x}',
    );
    expect(problems).toEqual([]);
    expect(questions.map(({ line, question }) => [line, question.question_text])).toEqual([
      [1, 'Is the sky blue?'],
      [2, 'Pick one'],
      [3, 'Water is _____ in the sea.'],
      [5, 'Last'],
    ]);
  });

  it('drops an empty option as Moodle does', () => {
    const { questions, problems } = parseGift('Pick {=yes ~= ~no ~}');
    expect(questions.map(({ question }) => question)).toEqual([
      {
        type: 'single',
        question_text: 'Pick',
        points: 1,
        options: [
          { text: 'yes', correct: true },
          { text: 'no', correct: false },
        ],
      },
    ]);
    expect(problems.map((problem) => problem.message)).toEqual(['An empty answer is dropped, as Moodle does']);
  });

  it('keeps TeX commands starting with n inside $$…$$ and \\(…\\); \\n elsewhere is a line break', () => {
    expect(only(String.raw`Is $$a \neq b$$ and \( \nabla f \)?\nYes {T}`).question_text).toBe(
      String.raw`Is $$a \neq b$$ and \( \nabla f \)?` + '\nYes',
    );
    expect(only(String.raw`Escaped $$a \\neq b$$ {T}`).question_text).toBe(String.raw`Escaped $$a \neq b$$`);
  });

  it('writes weights and partial answers that Moodle reads back the same', () => {
    const texts = [
      'Capital? {=Paris ~%-25%Lyon ~%50%Paris, France ~Rome}',
      'Prime? {~%50%2 ~%50%3 ~4 ~9}',
      'Capital {=Canberra =%75%Canbera}.',
      'Fell? {#=1989:0 =%50%1989:2}',
      'Root of 4? {#=2:0 =-2:0.01 =%50%2:1}',
    ];
    for (const text of texts) {
      const question = only(text);
      const again = only(writeGift([question]));
      expect(again).toEqual(question);
      expect(sameMoodleView(moodleViewOf(again), moodleViewOf(question))).toBe(true);
    }
  });
});

describe('short answers with wildcards as Moodle reads and scores them (decision 049)', () => {
  it('takes `*` as any text, keeps the answers as Moodle wrote them and marks the question', () => {
    const text = '// points: 2\nWhich word names a shade? {=*colour* =%50%colo*r}';
    expect(only(text)).toEqual({
      type: 'short-text',
      question_text: 'Which word names a shade?',
      points: 2,
      accepted: ['*colour*'],
      partial: [{ text: 'colo*r', weight: 50 }],
      wildcards: true,
    });
    expect([scoreOf(text, 'The COLOUR red'), scoreOf(text, 'colour'), scoreOf(text, 'Color')]).toEqual([2, 2, 1]);
    expect([scoreOf(text, 'colossal ruler'), scoreOf(text, 'colour?'), scoreOf(text, 'red')]).toEqual([1, 2, 0]);
  });

  it('reads `\\*` as a star: without a wildcard the answers stay literal, as every short answer was', () => {
    const text = String.raw`Two times three, in code? {=2\*3 =%50%2 x 3}`;
    expect(only(text)).toEqual({
      type: 'short-text',
      question_text: 'Two times three, in code?',
      points: 1,
      accepted: ['2*3'],
      partial: [{ text: '2 x 3', weight: 50 }],
    });
    expect([scoreOf(text, '2*3'), scoreOf(text, '2 X 3'), scoreOf(text, '2+3')]).toEqual([1, 0.5, 0]);
    // With a wildcard beside it, `\*` stays written as Moodle wrote it, and is still a star.
    const mixed = String.raw`Product? {=2\*3 =two*three}`;
    expect(only(mixed)).toMatchObject({ accepted: [String.raw`2\*3`, 'two*three'], wildcards: true });
    expect([scoreOf(mixed, '2*3'), scoreOf(mixed, '2x3'), scoreOf(mixed, 'two times three')]).toEqual([1, 0, 1]);
  });

  it('drops `*` at 0% (any other answer) without making the question one of wildcards', () => {
    const question = only('Capital of Australia? {=Canberra =%0%*}');
    expect(question).toEqual({
      type: 'short-text',
      question_text: 'Capital of Australia?',
      points: 1,
      accepted: ['Canberra'],
    });
  });

  it('refuses an answer that Moodle would give before a later one worth more that we try first', () => {
    const refused = (text: string) => parseGift(text).problems.map((problem) => problem.message);
    expect(refused('Gas? {=%0%carbon monoxide =*o*}')).toEqual([
      'The answer “carbon monoxide” (0%) comes before “*o*” (100%) and matches some of the same answers: Moodle gives the first, so put the answer worth more first',
    ]);
    expect(refused('Gas? {=%50%*gen =hydrogen}')).toHaveLength(1);
    // The same answers in the order we score them, or ones that never meet: no problem.
    expect(refused('Gas? {=*o* =%0%carbon monoxide}')).toEqual([]);
    expect(refused('Gas? {=%50%*gen =argon =%25%neon}')).toEqual([]);
  });

  it('writes them back so that Moodle reads the same answers: a literal star as `\\*`', () => {
    const texts = [
      'Which word names a shade? {=*colour* =%50%colo*r}',
      String.raw`Two times three? {=2\*3 =%50%2 x 3}`,
      String.raw`Product? {=2\*3 =two*three}`,
      String.raw`A backslash and a star? {=\\\*}`,
    ];
    for (const text of texts) {
      const question = only(text);
      const written = writeGift([question]);
      const again = only(written);
      expect(again).toEqual(question);
      expect(sameMoodleView(moodleViewOf(again), moodleViewOf(question))).toBe(true);
    }
    const literal = { type: 'short-text', question_text: 'Product?', accepted: ['2*3'] } satisfies TypedQuestionInput;
    expect(writeGift([literal])).toBe('Product? {\n=2\\*3\n}\n');
    expect(moodleViewOf(literal)).toEqual({ type: 'shortanswer', text: 'Product?', answers: [[String.raw`2\*3`, 1]] });
    expect(writeGift([{ ...literal, accepted: ['*colour*'], wildcards: true }])).toBe('Product? {\n=*colour*\n}\n');
  });
});

describe('matching questions and descriptions as Moodle reads them (decision 045)', () => {
  const MATCHING = 'Match each civilisation to its capital.{\n=Inca -> Cusco\n=Aztec->Tenochtitlan\n= -> Babylon\n}';

  it('reads =prompt -> match pairs, an empty prompt being an extra match', () => {
    expect(only(MATCHING)).toEqual({
      type: 'matching',
      question_text: 'Match each civilisation to its capital.',
      points: 1,
      pairs: [
        { prompt: 'Inca', match: 'Cusco' },
        { prompt: 'Aztec', match: 'Tenochtitlan' },
        { prompt: '', match: 'Babylon' },
      ],
    });
    expect(moodleViewOf(only(MATCHING))).toEqual({
      type: 'match',
      text: 'Match each civilisation to its capital.',
      pairs: [
        ['Inca', 'Cusco'],
        ['Aztec', 'Tenochtitlan'],
      ],
      extra: ['Babylon'],
    });
  });

  it('scores each prompt matched right as an equal share of the points, as Moodle does', () => {
    const [stored] = toStoredQuestions(
      [typedQuestionInputSchema.parse(only(`// points: 3\n${MATCHING.replace('= ->', '=Assyrian -> Nineveh\n= ->')}`))],
      (count) => Array.from({ length: count }, (_, index) => `id${index}`),
    );
    if (stored?.type !== 'matching') throw new Error('not matching');
    const choice = (text: string) => stored.choices.find((item) => item.text === text)!._id;
    const [inca, aztec, assyrian] = stored.prompts.map((prompt) => prompt._id);
    const answer = (cusco: string, tenochtitlan: string, nineveh: string) => ({
      [inca!]: choice(cusco),
      [aztec!]: choice(tenochtitlan),
      [assyrian!]: choice(nineveh),
    });
    expect(scoreQuestion(stored, answer('Cusco', 'Tenochtitlan', 'Nineveh'))).toBe(3);
    expect(scoreQuestion(stored, answer('Cusco', 'Babylon', 'Babylon'))).toBe(1);
    expect(scoreQuestion(stored, answer('Tenochtitlan', 'Cusco', 'Nineveh'))).toBe(1);
    expect(scoreQuestion(stored, answer('Babylon', 'Babylon', 'Babylon'))).toBe(0);
  });

  it('refuses a pair without an arrow, at its line', () => {
    expect(parseGift('\nMatch {=a -> b =c d}').problems).toEqual([
      {
        line: 2,
        code: 'PAIR_NEEDS_ARROW',
        params: {},
        message: 'Every pair of a matching question is written =prompt -> match',
        severity: 'error',
      },
    ]);
  });

  it('reads text without an answer block as a description worth nothing', () => {
    expect(only('::Intro:: The next questions are about [b]fractions[/b].')).toEqual({
      type: 'description',
      question_text: 'The next questions are about [b]fractions[/b].',
      points: 0,
    });
  });

  it('writes matching questions and descriptions that Moodle reads back the same', () => {
    const texts = [
      MATCHING,
      'Arrows {=a -\\> b -> c\\=d =e -> f}',
      '// points: 2\nPairs {=x -> same =y -> same =z -> other}',
      'Read the text below carefully.',
    ];
    for (const text of texts) {
      const question = only(text);
      const written = writeGift([question]);
      const again = only(written);
      expect(again).toEqual(question);
      expect(sameMoodleView(moodleViewOf(again), moodleViewOf(question))).toBe(true);
    }
    expect(writeGift([only(MATCHING)])).toBe(
      'Match each civilisation to its capital. {\n=Inca -> Cusco\n=Aztec -> Tenochtitlan\n=  -> Babylon\n}\n',
    );
  });
});

describe('Aiken as Moodle reads it', () => {
  it('takes options written without a space after the letter', () => {
    const { questions, problems } = parseAiken('Which is right?\nA)Wrong\nB)Right\nC.Also wrong\nANSWER: B');
    expect(problems).toEqual([]);
    expect(questions[0]!.question).toMatchObject({
      options: [
        { text: 'Wrong', correct: false },
        { text: 'Right', correct: true },
        { text: 'Also wrong', correct: false },
      ],
    });
  });
});
