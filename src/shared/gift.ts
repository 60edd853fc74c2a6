import {
  QUESTION_LIMITS,
  isWeighted,
  matchingPairsOf,
  optionWeight,
  parseNumber,
  typedQuestionInputSchema,
  type StoredQuestion,
  type TypedQuestion,
  type TypedQuestionInput,
} from './question-types.ts';
import { importIssue, invalidQuestion, type ImportIssue, type ImportProblem } from './import-problems.ts';
import { hasWildcard, moodleAnswerOfLiteral, shortAnswersOverlap } from './moodle-answers.ts';
import { literalOfMoodleAnswer } from './short-answers.ts';

/**
 * GIFT (Moodle's text format for questions) in and out (issue 20 point 6, decision 036). Shared:
 * the browser checks a file and reports its lines before anything is sent; the server judges the
 * questions again on save. Points and the all-or-nothing rule have no GIFT syntax: the writer puts
 * them in comments (`// points: 2`, `// scoring: all-or-nothing`) that the reader takes back, so
 * a round trip keeps them; Moodle reads them as comments.
 */

export type { ImportProblem };
/** What a reader found: the valid questions with the line each starts on, and every problem. */
export type ImportResult = { questions: { line: number; question: TypedQuestionInput }[]; problems: ImportProblem[] };

const POINTS_COMMENT = /^\/\/\s*points:\s*(\S+)\s*$/i;
const SCORING_COMMENT = /^\/\/\s*scoring:\s*all-or-nothing\s*$/i;
/** Ours: an essay's marking guidance, a line a comment (Moodle's GIFT has no field for it and skips comments). */
const GUIDANCE_COMMENT = /^\/\/\s*guidance:\s?(.*)$/i;
const FORMAT_MARKER = /^\[(html|markdown|moodle|plain)\]/i;
/** A right option's weight may be rounded (33.33333): sums and equality allow this much. */
const WEIGHT_SLACK = 0.01;

/** A block the reader refuses: its code, parameters and English words. */
class GiftError extends Error {
  constructor(readonly issue: ImportIssue & { message: string }) {
    super(issue.message);
  }
}

/** Raw newlines inside a question are spacing; `\n` is a line break. */
const collapseSpacing = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .join(' ')
    .trim();

/**
 * The text of an escaped GIFT string: `\\ \~ \= \# \{ \} \:` are the character, `\n` a line break,
 * and `\>` is `>` (ours: `-\>` keeps an answer's `->` from reading as a matching pair).
 */
export function unescapeGift(text: string): string {
  return collapseSpacing(text).replace(/\\([\\~=#{}:n>])/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

/**
 * A text as GIFT writes it. A backslash is doubled only where it would start an escape (so TeX's
 * `\(`, `\frac` stay readable, and `\{` of TeX becomes `\\\{`, which reads back as `\{`).
 */
export function escapeGift(text: string): string {
  return text
    .replace(/\\(?=[\\~=#{}:n>\r\n]|$)/g, '\\\\')
    .replace(/[~=#{}:]/g, (char) => `\\${char}`)
    .replace(/->/g, '-\\>')
    .replace(/\r?\n/g, '\\n');
}

/** Indexes of the unescaped occurrences of `chars` in `text`. */
function unescapedIndexes(text: string, chars: string): number[] {
  const found: number[] = [];
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (chars.includes(text[index]!)) found.push(index);
  }
  return found;
}

const firstUnescaped = (text: string, chars: string, from = 0) =>
  unescapedIndexes(text, chars).find((index) => index >= from) ?? -1;

type Block = { lines: { line: number; text: string }[] };

/** Braces' depth change of a line (escaped ones aside). */
const braceBalance = (text: string) =>
  unescapedIndexes(text, '{}').reduce((depth, index) => depth + (text[index] === '{' ? 1 : -1), 0);

/**
 * Splits the file into blocks (a question each), keeping line numbers. Moodle separates questions
 * by blank lines; a question written right after another one's closing `}` (no blank line) starts
 * its own block when it opens with a title `::…::` or holds an answer block, so neither is lost
 * (decision 043). Other text after a `}` stays with its question: the end of a missing-word sentence.
 */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let depth = 0;
  let closed = false;
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '') {
      current = undefined;
      return;
    }
    const comment = trimmed.startsWith('//');
    if (current && closed && depth === 0 && !comment && startsQuestion(trimmed)) current = undefined;
    if (!current) {
      blocks.push((current = { lines: [] }));
      [depth, closed] = [0, false];
    }
    current.lines.push({ line: index + 1, text: raw });
    if (comment) return;
    depth += braceBalance(raw);
    if (depth === 0 && unescapedIndexes(raw, '}').length > 0) closed = true;
  });
  return blocks;
}

/** Whether a line after a closed answer block starts a question: a title `::…::` or an answer block of its own. */
const startsQuestion = (line: string) => line.startsWith('::') || unescapedIndexes(line, '{').length > 0;

type Format = 'html' | 'markdown' | 'moodle' | 'plain';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * What a student reads of a text in Moodle's formats, as our plain text (decision 043): HTML
 * (the html and moodle formats) loses its tags, keeping line breaks and a link's address;
 * markdown loses its emphasis marks.
 */
function plainText(text: string, format: Format): string {
  if (format === 'plain') return text;
  if (format === 'markdown') return text.replace(/(\*\*|__)(.+?)\1/g, '$2');
  if (!/<\/?[a-z][^>]*>|&[#\w]+;/i.test(text)) return text;
  return text
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<a\s[^>]*href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2 ($1)')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (entity, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1]!.toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * A text of the file (question, option, answer) as we keep it: its `[format]` marker taken off
 * (Moodle's html, moodle, plain, markdown), unescaped, and read in that format.
 */
function giftText(raw: string, defaultFormat: Format, warn: Warn): string {
  const trimmed = raw.trim();
  const marker = FORMAT_MARKER.exec(trimmed);
  const format = (marker?.[1]?.toLowerCase() as Format | undefined) ?? defaultFormat;
  const text = unescapeGift(marker ? trimmed.slice(marker[0].length) : trimmed);
  const plain = plainText(text, format);
  if (plain !== text)
    warn(importIssue('HTML and markdown formatting is shown as plain text', 'FORMATTING_SHOWN_AS_PLAIN_TEXT'));
  return plain;
}

type Token = { right: boolean; weight: number | undefined; text: string; feedback: boolean };

/** The answers of a block `{…}`: each `=` or `~` starts one, with its `%n%` weight and `#feedback`. */
function answerTokens(content: string, format: Format, warn: Warn): Token[] {
  const starts = unescapedIndexes(content, '=~');
  if (starts.length === 0 || content.slice(0, starts[0]).trim() !== '') {
    throw new GiftError(importIssue('Every answer must start with = (right) or ~ (wrong)', 'ANSWER_NEEDS_PREFIX'));
  }
  return starts.map((start, index) => {
    let body = content.slice(start + 1, starts[index + 1] ?? content.length);
    let weight: number | undefined;
    const weighted = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(body);
    if (weighted) {
      weight = Number(weighted[1]);
      body = body.slice(weighted[0].length);
    }
    const hash = firstUnescaped(body, '#');
    return {
      right: content[start] === '=',
      weight,
      text: giftText(hash === -1 ? body : body.slice(0, hash), format, warn),
      feedback: hash !== -1 && body.slice(hash + 1).trim() !== '',
    };
  });
}

/** A number answer's `value`, `value:tolerance` or `low..high` as a value and a tolerance. */
function numberSpec(spec: string): { value: number; tolerance: number } {
  const number = (text: string) => {
    const value = parseNumber(text);
    if (value === undefined)
      throw new GiftError(importIssue(`“${text.trim()}” is not a number`, 'NOT_A_NUMBER', { value: text.trim() }));
    return value;
  };
  const range = /^(.+?)\.\.(.+)$/.exec(spec);
  if (range) {
    const [low, high] = [number(range[1]!), number(range[2]!)];
    if (low > high)
      throw new GiftError(
        importIssue(`The range ${spec} goes down: write the smaller number first`, 'RANGE_GOES_DOWN', { range: spec }),
      );
    // Rounded to 12 significant digits: 3.141..3.142 is 3.1415 ± 0.0005, not binary noise.
    const tidy = (value: number) => Number(value.toPrecision(12));
    return { value: tidy((low + high) / 2), tolerance: tidy((high - low) / 2) };
  }
  const colon = spec.lastIndexOf(':');
  if (colon > 0) return { value: number(spec.slice(0, colon)), tolerance: number(spec.slice(colon + 1)) };
  return { value: number(spec), tolerance: 0 };
}

type NumberAnswer = { value: number; tolerance: number };
/** Moodle's `*`: "any other answer", whose range holds every number. */
const ANY_NUMBER: NumberAnswer = { value: 0, tolerance: Infinity };

const overlaps = (a: NumberAnswer, b: NumberAnswer) =>
  a.tolerance === Infinity || b.tolerance === Infinity || Math.abs(a.value - b.value) <= a.tolerance + b.tolerance;

/**
 * A number question `{#…}`: one answer, or several `=%n%answer` of which Moodle gives the first
 * whose range holds the number typed. A `~` part is the feedback for any other number.
 *
 * Stored, the first answer worth 100 % is the question's `value`; every other one worth more
 * than 0 % follows in `partial` in the file's order, further full answers with weight 100
 * (decision 043's addendum). Our scoring tries `value` first, then `partial` in order, so it
 * gives what Moodle gives unless an answer before the first full one takes some of its numbers,
 * or an answer worth 0 % (dropped: it earns what no answer earns) takes some of a later one's.
 */
function numericQuestion(content: string, warn: Warn): Extract<AnswerFields, { type: 'numeric' }> {
  let body = content.slice(1);
  const tilde = firstUnescaped(body, '~');
  if (tilde !== -1) {
    warn(importIssue('Feedback (#…) is not kept', 'FEEDBACK_NOT_KEPT'));
    body = body.slice(0, tilde);
  }
  const starts = unescapedIndexes(body, '=');
  const pieces =
    starts.length === 0
      ? [body]
      : (() => {
          if (body.slice(0, starts[0]).trim() !== '')
            throw new GiftError(importIssue('Every number answer must start with =', 'NUMBER_ANSWER_NEEDS_PREFIX'));
          return starts.map((start, index) => body.slice(start + 1, starts[index + 1] ?? body.length));
        })();
  const answers = pieces.map((piece) => {
    let text = piece;
    let weight = 100;
    const weighted = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(text);
    if (weighted) {
      weight = Number(weighted[1]);
      text = text.slice(weighted[0].length);
    }
    const hash = firstUnescaped(text, '#');
    if (hash !== -1 && text.slice(hash + 1).trim() !== '')
      warn(importIssue('Feedback (#…) is not kept', 'FEEDBACK_NOT_KEPT'));
    const spec = (hash === -1 ? text : text.slice(0, hash)).trim();
    if (weight < 0 || weight > 100)
      throw new GiftError(
        importIssue(`A number answer's weight must be between 0 and 100%`, 'NUMBER_WEIGHT_OUT_OF_RANGE'),
      );
    // Moodle's "any other answer" and answers worth nothing earn what no answer earns: nothing.
    if (spec === '*' || weight === 0) return { ...(spec === '*' ? ANY_NUMBER : numberSpec(spec)), weight: 0, spec };
    return { ...numberSpec(spec), weight, spec };
  });
  const fullIndex = answers.findIndex((answer) => answer.weight === 100);
  if (fullIndex === -1) throw new GiftError(importIssue('No number answer is worth 100%', 'NO_FULL_NUMBER_ANSWER'));
  const full = answers[fullIndex]!;
  // Moodle takes the first matching answer; ours tries the first full one, then the others in
  // the file's order: the same unless an earlier answer's range meets the full one's.
  if (answers.slice(0, fullIndex).some((answer) => answer.weight > 0 && overlaps(answer, full))) {
    throw new GiftError(
      importIssue(
        'A partial answer before the full one overlaps it: put the 100% answer first',
        'PARTIAL_OVERLAPS_FULL',
      ),
    );
  }
  answers.forEach((earlier, index) => {
    if (earlier.weight !== 0) return;
    const later = answers.slice(index + 1).find((answer) => answer.weight > 0 && overlaps(earlier, answer));
    if (later) {
      throw new GiftError(
        importIssue(
          `The answer “${earlier.spec}” (0%) comes before “${later.spec}” (${weightText(later.weight)}%) and takes some of its numbers: Moodle gives the first, so put the answer worth more first`,
          'NUMBER_ANSWER_SHADOWED',
          { earlier: earlier.spec, later: later.spec, laterWeight: weightText(later.weight) },
        ),
      );
    }
  });
  const partial = answers
    .filter((answer, index) => index !== fullIndex && answer.weight > 0)
    .map(({ value, tolerance, weight }) => ({ value, tolerance, weight }));
  return {
    type: 'numeric',
    value: full.value,
    tolerance: full.tolerance,
    ...(partial.length > 0 ? { partial } : {}),
  };
}

type Warn = (issue: ImportIssue & { message: string }) => void;
/** A question's answer part: its type and key (distributed over the union). */
type AnswerFields = TypedQuestion extends infer Q
  ? Q extends unknown
    ? Omit<Q, '_id' | 'question_text' | 'points' | 'image'>
    : never
  : never;

/**
 * A short answer `{=a =%50%b}`: full-credit answers, and answers worth part of the points. Moodle
 * reads every answer as a pattern (decision 049): `*` is any text, `\*` a star. A question whose
 * answers have a wildcard keeps them as written, with `wildcards`; the others are kept as the
 * literal texts they match, as every short answer was before.
 */
function shortTextQuestion(tokens: Token[]): Extract<AnswerFields, { type: 'short-text' }> {
  const answers = tokens
    .filter((token) => token.text !== '')
    .map((token) => ({ text: token.text, weight: token.weight ?? 100 }));
  if (answers.some(({ weight }) => weight < 0 || weight > 100)) {
    throw new GiftError(importIssue('A short answer’s weight must be between 0 and 100%', 'SHORT_WEIGHT_OUT_OF_RANGE'));
  }
  // Moodle gives the first answer that matches; we try the full answers first, then the partial
  // ones in the file's order, and drop those worth 0% (`*` at 0% is "any other answer"). The
  // two orders agree unless an answer comes before one worth more that matches a same text.
  answers.forEach((earlier, index) => {
    const later = answers
      .slice(index + 1)
      .find(
        ({ text, weight }) =>
          (weight === 100 ? earlier.weight < 100 : earlier.weight === 0 && weight > 0) &&
          shortAnswersOverlap(earlier.text, text, true),
      );
    if (later) {
      throw new GiftError(
        importIssue(
          `The answer “${earlier.text}” (${weightText(earlier.weight)}%) comes before “${later.text}” (${weightText(later.weight)}%) and matches some of the same answers: Moodle gives the first, so put the answer worth more first`,
          'SHORT_ANSWER_SHADOWED',
          {
            earlier: earlier.text,
            earlierWeight: weightText(earlier.weight),
            later: later.text,
            laterWeight: weightText(later.weight),
          },
        ),
      );
    }
  });
  const kept = answers.filter(({ weight }) => weight > 0);
  const wildcards = kept.some(({ text }) => hasWildcard(text));
  const textOf = (text: string) => (wildcards ? text : literalOfMoodleAnswer(text));
  const accepted = kept.filter(({ weight }) => weight === 100).map(({ text }) => textOf(text));
  const partial = kept.filter(({ weight }) => weight < 100).map(({ text, weight }) => ({ text: textOf(text), weight }));
  if (accepted.length === 0) throw new GiftError(importIssue('No short answer is worth 100%', 'NO_FULL_SHORT_ANSWER'));
  return {
    type: 'short-text',
    accepted,
    ...(partial.length > 0 ? { partial } : {}),
    ...(wildcards ? { wildcards: true } : {}),
  };
}

/**
 * A multiple-choice block as Moodle reads it (decision 043): one answer is chosen when any is
 * written with `=`, several otherwise; `=` is worth 100%, `%n%` n%, the rest 0. Empty answers are
 * dropped. Weights our plain rules express stay plain; the others are kept on the options.
 */
function choiceQuestion(tokens: Token[], allOrNothing: boolean, warn: Warn): AnswerFields {
  const kept = tokens.filter((token) => token.text !== '');
  if (kept.length < tokens.length)
    warn(importIssue('An empty answer is dropped, as Moodle does', 'EMPTY_ANSWER_DROPPED'));
  const weightOf = (token: Token) => (token.right ? 100 : (token.weight ?? 0));
  for (const token of kept) {
    if (Math.abs(weightOf(token)) > 100)
      throw new GiftError(importIssue('A weight must be between -100% and 100%', 'WEIGHT_OUT_OF_RANGE'));
  }
  const weights = kept.map(weightOf);
  if (tokens.some((token) => token.right)) {
    if (!weights.includes(100))
      throw new GiftError(importIssue('No right answer: the answer written with = was empty', 'RIGHT_ANSWER_EMPTY'));
    const plain =
      weights.every((weight) => weight === 0 || weight === 100) && weights.filter((w) => w === 100).length === 1;
    const options = kept.map((token, index) => ({
      text: token.text,
      correct: weights[index] === 100,
      ...(plain ? {} : { weight: weights[index]! }),
    }));
    return { type: 'single', options };
  }
  const positive = weights.filter((weight) => weight > 0);
  if (positive.length === 0)
    throw new GiftError(
      importIssue('No right answer: give at least one option a positive weight', 'NO_POSITIVE_WEIGHT'),
    );
  const sum = positive.reduce((total, weight) => total + weight, 0);
  if (Math.abs(sum - 100) > WEIGHT_SLACK * positive.length) {
    throw new GiftError(
      importIssue(`The positive weights add up to ${Math.round(sum * 1000) / 1000}%, not 100%`, 'WEIGHTS_NOT_100', {
        sum: Math.round(sum * 1000) / 1000,
      }),
    );
  }
  const share = sum / positive.length;
  const correct = (index: number) => weights[index]! > 0;
  const sameShare = (weight: number) => Math.abs(Math.abs(weight) - share) <= WEIGHT_SLACK;
  // Our partial scoring is Moodle's with every right option +share and every wrong one -share.
  const partial = weights.every((weight) => sameShare(weight));
  if (allOrNothing) {
    return {
      type: 'multiple',
      scoring: 'all-or-nothing',
      options: kept.map((t, i) => ({ text: t.text, correct: correct(i) })),
    };
  }
  if (!partial && weights.some((weight) => weight === 0)) {
    warn(
      importIssue(
        'Wrong options without a negative weight take nothing off: choosing every option earns full points, as in Moodle',
        'WRONG_OPTIONS_TAKE_NOTHING',
      ),
    );
  }
  return {
    type: 'multiple',
    scoring: 'partial',
    options: kept.map((token, index) => ({
      text: token.text,
      correct: correct(index),
      ...(partial ? {} : { weight: weights[index]! }),
    })),
  };
}

/**
 * A matching block `{=prompt -> match …}` as Moodle reads it (decision 045): each `=` starts a
 * pair, split at its first `->`; a pair with nothing before the arrow is an extra match.
 */
function matchingQuestion(content: string, format: Format, warn: Warn): Extract<AnswerFields, { type: 'matching' }> {
  const starts = unescapedIndexes(content, '=');
  if (content.slice(0, starts[0]).trim() !== '')
    throw new GiftError(importIssue('Every pair must start with =', 'PAIR_NEEDS_PREFIX'));
  const pairs = starts.map((start, index) => {
    const pair = content.slice(start + 1, starts[index + 1] ?? content.length);
    const arrow = pair.indexOf('->');
    if (arrow === -1)
      throw new GiftError(
        importIssue('Every pair of a matching question is written =prompt -> match', 'PAIR_NEEDS_ARROW'),
      );
    return {
      prompt: giftText(pair.slice(0, arrow), format, warn),
      match: giftText(pair.slice(arrow + 2), 'plain', warn),
    };
  });
  return { type: 'matching', pairs };
}

/** A block's answers `{…}` as the fields of its question, in Moodle's order of deciding the type. */
function answerFields(content: string, format: Format, allOrNothing: boolean, warn: Warn): AnswerFields {
  let trimmed = content.trim();
  const general = trimmed.lastIndexOf('####');
  if (general !== -1) {
    warn(importIssue('General feedback (####…) is not kept', 'GENERAL_FEEDBACK_NOT_KEPT'));
    trimmed = trimmed.slice(0, general).trim();
  }
  // Moodle's essay (decision 046): marked by a teacher, no key.
  if (trimmed === '') return { type: 'essay' };
  if (trimmed.startsWith('#')) return numericQuestion(trimmed, warn);
  const hasTilde = unescapedIndexes(trimmed, '~').length > 0;
  if (!hasTilde && unescapedIndexes(trimmed, '=').length > 0 && /->/.test(trimmed)) {
    return matchingQuestion(trimmed, format, warn);
  }
  if (!hasTilde) {
    const trueFalse = /^(T|F|TRUE|FALSE)\s*(#[\s\S]*)?$/i.exec(trimmed);
    if (trueFalse) {
      if (trueFalse[2] && trueFalse[2].replace(/#/g, '').trim() !== '')
        warn(importIssue('Feedback (#…) is not kept', 'FEEDBACK_NOT_KEPT'));
      return { type: 'true-false', correct: trueFalse[1]!.toUpperCase().startsWith('T') };
    }
  }
  const tokens = answerTokens(trimmed, format, warn);
  if (tokens.some((token) => token.feedback)) warn(importIssue('Feedback (#…) is not kept', 'FEEDBACK_NOT_KEPT'));
  return hasTilde ? choiceQuestion(tokens, allOrNothing, warn) : shortTextQuestion(tokens);
}

/** TeX between $$…$$, \(…\) or \[…\]: there `\n` starts a command (\neq, \nabla), not a line break. */
const MATH = /\$\$[\s\S]*?\$\$|\\\([\s\S]*?\\\)|\\\[[\s\S]*?\\\]/g;

/** In TeX, `\neq` stays a command: its `\n` becomes an escaped backslash and an n. */
const keepTexCommands = (math: string) =>
  math.replace(/\\([\s\S])/g, (pair, char: string, offset: number) =>
    char === 'n' && /[a-z]/i.test(math[offset + 2] ?? '') ? '\\\\n' : pair,
  );

/** The question of one block, or a GiftError saying why there is none. */
function blockQuestion(block: Block, warn: Warn): TypedQuestionInput | undefined {
  let points: number = QUESTION_LIMITS.pointsDefault;
  let allOrNothing = false;
  const kept: string[] = [];
  const guidance: string[] = [];
  for (const { text } of block.lines) {
    const trimmed = text.trim();
    const pointsComment = POINTS_COMMENT.exec(trimmed);
    const guidanceComment = GUIDANCE_COMMENT.exec(trimmed);
    if (guidanceComment) guidance.push(guidanceComment[1]!);
    else if (pointsComment) {
      points = Number(pointsComment[1]);
      if (!Number.isFinite(points))
        throw new GiftError(
          importIssue(`“${pointsComment[1]}” is not a number of points`, 'NOT_A_NUMBER_OF_POINTS', {
            value: pointsComment[1]!,
          }),
        );
    } else if (SCORING_COMMENT.test(trimmed)) allOrNothing = true;
    else if (trimmed.startsWith('//')) continue;
    else if (/^\$CATEGORY:/i.test(trimmed))
      warn(importIssue('Categories ($CATEGORY) are ignored', 'CATEGORIES_IGNORED'));
    else kept.push(text);
  }
  if (kept.length === 0) return undefined;
  let source = kept.join('\n').trim().replace(MATH, keepTexCommands);
  if (source.startsWith('::')) {
    const end = source.indexOf('::', 2);
    if (end === -1) throw new GiftError(importIssue('The title ::… is not closed with ::', 'TITLE_NOT_CLOSED'));
    source = source.slice(end + 2).trimStart();
  }
  const marker = FORMAT_MARKER.exec(source);
  const format = (marker?.[1]?.toLowerCase() as Format | undefined) ?? 'moodle';
  if (marker) source = source.slice(marker[0].length);
  const open = firstUnescaped(source, '{');
  // Moodle's description: text without an answer block, shown in the quiz, worth nothing.
  if (open === -1) return checked({ type: 'description', question_text: giftText(source, format, warn), points: 0 });
  const close = firstUnescaped(source, '}', open);
  if (close === -1)
    throw new GiftError(importIssue('The answer block { is not closed with }', 'ANSWER_BLOCK_NOT_CLOSED'));
  const after = source.slice(close + 1);
  const fields = answerFields(source.slice(open + 1, close), format, allOrNothing, warn);
  // Moodle's missing word: text after the answer block puts a blank where the block stood.
  const text = after.trim() === '' ? source.slice(0, open) : `${source.slice(0, open)}_____${after}`;
  const withGuidance = fields.type === 'essay' && guidance.length > 0 ? { guidance: guidance.join('\n') } : {};
  return checked({
    question_text: giftText(text, format, warn),
    points,
    ...fields,
    ...withGuidance,
  } as TypedQuestionInput);
}

/** The question if our schema takes it, else a GiftError with the schema's first reason. */
function checked(question: TypedQuestionInput): TypedQuestionInput {
  const parsed = typedQuestionInputSchema.safeParse(question);
  if (!parsed.success) throw new GiftError(invalidQuestion(parsed.error.issues[0]!));
  return question;
}

/** Reads a GIFT file: the questions it can take, and each problem with its line. */
export function parseGift(text: string): ImportResult {
  const result: ImportResult = { questions: [], problems: [] };
  for (const block of blocksOf(text)) {
    const line = block.lines.find(({ text }) => !text.trim().startsWith('//'))?.line ?? block.lines[0]!.line;
    const warnings: ImportProblem[] = [];
    const warn: Warn = (issue) => {
      // One warning per kind: the same code with the same parameters says the same thing.
      const isSaid = (warning: ImportProblem) =>
        warning.code === issue.code && JSON.stringify(warning.params) === JSON.stringify(issue.params);
      if (!warnings.some(isSaid)) warnings.push({ line, ...issue, severity: 'warning' });
    };
    try {
      const question = blockQuestion(block, warn);
      if (question) result.questions.push({ line, question });
      result.problems.push(...warnings);
    } catch (error) {
      if (!(error instanceof GiftError)) throw error;
      result.problems.push({ line, ...error.issue, severity: 'error' });
    }
  }
  return result;
}

/** A weight as Moodle lists them (33.33333). */
const weightText = (weight: number) => String(Number(weight.toFixed(5)));
const numberText = (value: number) => String(value);

/** GIFT for the questions: one block each, points and all-or-nothing in comments, images noted. */
export function writeGift(questions: TypedQuestionInput[]): string {
  return questions
    .map((question) => {
      const lines: string[] = [];
      const points = question.points ?? QUESTION_LIMITS.pointsDefault;
      if (points !== QUESTION_LIMITS.pointsDefault && question.type !== 'description') {
        lines.push(`// points: ${points}`);
      }
      const withImages =
        (question.image ? 1 : 0) +
        (question.type === 'single' || question.type === 'multiple'
          ? question.options.filter((option) => option.image).length
          : 0);
      if (withImages > 0)
        lines.push(`// image: ${withImages} image(s) of this question are not exported (GIFT has none)`);
      if (question.type === 'essay' && question.guidance)
        lines.push(...question.guidance.split(/\r?\n/).map((line) => `// guidance: ${line}`));
      const text = escapeGift(question.question_text);
      switch (question.type) {
        case 'single':
          // A weighted option is written as Moodle writes it: = for 100 %, ~%n% for the rest.
          lines.push(
            `${text} {`,
            ...question.options.map((option) => {
              const weight = optionWeight(option);
              const mark = weight === 100 ? '=' : weight === 0 ? '~' : `~%${weightText(weight)}%`;
              return `${mark}${escapeGift(option.text)}`;
            }),
            '}',
          );
          break;
        case 'multiple': {
          if (isWeighted(question)) {
            lines.push(
              `${text} {`,
              ...question.options.map((option) => {
                const weight = optionWeight(option);
                return `${weight === 0 ? '~' : `~%${weightText(weight)}%`}${escapeGift(option.text)}`;
              }),
              '}',
            );
            break;
          }
          if ((question.scoring ?? 'all-or-nothing') === 'all-or-nothing') lines.push('// scoring: all-or-nothing');
          const share = 100 / question.options.filter((option) => option.correct).length;
          lines.push(
            `${text} {`,
            ...question.options.map(
              (option) => `~%${weightText(option.correct ? share : -share)}%${escapeGift(option.text)}`,
            ),
            '}',
          );
          break;
        }
        case 'true-false':
          lines.push(`${text} {${question.correct ? 'TRUE' : 'FALSE'}}`);
          break;
        case 'short-text': {
          // Moodle reads every answer as a pattern (decision 049): a literal answer's `*` is written `\*`.
          const answer = (text: string) => escapeGift(question.wildcards ? text : moodleAnswerOfLiteral(text));
          lines.push(
            `${text} {`,
            ...question.accepted.map((accepted) => `=${answer(accepted)}`),
            ...(question.partial ?? []).map((partial) => `=%${weightText(partial.weight)}%${answer(partial.text)}`),
            '}',
          );
          break;
        }
        case 'numeric': {
          const range = (answer: { value: number; tolerance: number }) =>
            `${numberText(answer.value)}:${numberText(answer.tolerance)}`;
          if (!question.partial?.length) {
            lines.push(`${text} {#${range(question)}}`);
            break;
          }
          // A further full answer (decision 043's addendum) is written as Moodle writes one: `=` alone.
          lines.push(
            `${text} {#`,
            `=${range(question)}`,
            ...question.partial.map(
              (answer) => `=${answer.weight === 100 ? '' : `%${weightText(answer.weight)}%`}${range(answer)}`,
            ),
            '}',
          );
          break;
        }
        case 'essay':
          lines.push(`${text} {}`);
          break;
        case 'matching':
          // Moodle's pairs; an extra match is written with nothing before its arrow.
          lines.push(
            `${text} {`,
            ...question.pairs.map(
              (pair) => `=${pair.prompt === '' ? ' ' : escapeGift(pair.prompt)} -> ${escapeGift(pair.match)}`,
            ),
            '}',
          );
          break;
        case 'description':
          // Text without an answer block: Moodle reads it as a description.
          lines.push(text);
          break;
      }
      return lines.join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

/** A stored question as the editor and the writer take it: the same fields, ids kept. */
export function toQuestionInput(stored: StoredQuestion): TypedQuestionInput {
  const { _id, question_text, points, image } = stored;
  const base = { _id, question_text, points, ...(image ? { image } : {}) };
  switch (stored.type) {
    case 'single':
    case 'multiple': {
      const options = stored.options.map((option) => ({
        _id: option._id,
        text: option.text,
        ...(option.image ? { image: option.image } : {}),
        correct: option.correct,
        ...(option.weight !== undefined ? { weight: option.weight } : {}),
      }));
      return stored.type === 'single'
        ? { ...base, type: 'single', options }
        : { ...base, type: 'multiple', options, scoring: stored.scoring };
    }
    case 'true-false':
      return { ...base, type: 'true-false', correct: stored.correct };
    case 'short-text':
      return {
        ...base,
        type: 'short-text',
        accepted: [...stored.accepted],
        ...(stored.partial ? { partial: stored.partial.map((answer) => ({ ...answer })) } : {}),
        ...(stored.wildcards ? { wildcards: true } : {}),
      };
    case 'numeric':
      return {
        ...base,
        type: 'numeric',
        value: stored.value,
        tolerance: stored.tolerance,
        ...(stored.partial ? { partial: stored.partial.map((answer) => ({ ...answer })) } : {}),
      };
    case 'essay':
      return { ...base, type: 'essay', ...(stored.guidance ? { guidance: stored.guidance } : {}) };
    case 'matching':
      return { ...base, type: 'matching', pairs: matchingPairsOf(stored.prompts, stored.choices) };
    case 'description':
      return { ...base, type: 'description', points: 0 };
  }
}

/** A file name for a quiz's export: its title, without what a file system or a header would trip on. */
export function giftFileName(title: string): string {
  const safe = title
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what is taken out
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return `${safe === '' ? 'quiz' : safe}.gift.txt`;
}
