import {
  QUESTION_LIMITS,
  parseNumber,
  typedQuestionInputSchema,
  type StoredQuestion,
  type TypedQuestion,
  type TypedQuestionInput,
} from './question-types.ts';

/**
 * GIFT (Moodle's text format for questions) in and out (issue 20 point 6, decision 036). Shared:
 * the browser checks a file and reports its lines before anything is sent; the server judges the
 * questions again on save. Points and the all-or-nothing rule have no GIFT syntax: the writer puts
 * them in comments (`// points: 2`, `// scoring: all-or-nothing`) that the reader takes back, so
 * a round trip keeps them; Moodle reads them as comments.
 */

export type ImportProblem = { line: number; message: string; severity: 'error' | 'warning' };
/** What a reader found: the valid questions with the line each starts on, and every problem. */
export type ImportResult = { questions: { line: number; question: TypedQuestionInput }[]; problems: ImportProblem[] };

const POINTS_COMMENT = /^\/\/\s*points:\s*(\S+)\s*$/i;
const SCORING_COMMENT = /^\/\/\s*scoring:\s*all-or-nothing\s*$/i;
const FORMAT_MARKER = /^\[(html|markdown|moodle|plain)\]/i;
/** A right option's weight may be rounded (33.33333): sums and equality allow this much. */
const WEIGHT_SLACK = 0.01;

class GiftError extends Error {}

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

/** Splits the file into blocks of non-blank lines (a question each), keeping line numbers. */
function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') {
      current = undefined;
      return;
    }
    if (!current) blocks.push((current = { lines: [] }));
    current.lines.push({ line: index + 1, text: raw });
  });
  return blocks;
}

type Token = { right: boolean; weight: number | undefined; text: string; feedback: boolean };

/** The answers of a block `{…}`: each `=` or `~` starts one, with its `%n%` weight and `#feedback`. */
function answerTokens(content: string): Token[] {
  const starts = unescapedIndexes(content, '=~');
  if (starts.length === 0 || content.slice(0, starts[0]).trim() !== '') {
    throw new GiftError('Every answer must start with = (right) or ~ (wrong)');
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
      text: unescapeGift(hash === -1 ? body : body.slice(0, hash)),
      feedback: hash !== -1,
    };
  });
}

function numericQuestion(content: string): Pick<Extract<TypedQuestion, { type: 'numeric' }>, 'value' | 'tolerance'> {
  let body = content.slice(1).trim();
  const answers = unescapedIndexes(body, '=~');
  if (answers.length > 1 || (answers.length === 1 && body.slice(0, answers[0]).trim() !== '')) {
    throw new GiftError('A number question with several answers is not supported: keep one value');
  }
  if (answers.length === 1) body = body.slice(answers[0]! + 1);
  if (/^\s*%/.test(body)) throw new GiftError('A weighted number answer is not supported: keep one value');
  const hash = firstUnescaped(body, '#');
  const spec = (hash === -1 ? body : body.slice(0, hash)).trim();
  const number = (text: string) => {
    const value = parseNumber(text);
    if (value === undefined) throw new GiftError(`“${text.trim()}” is not a number`);
    return value;
  };
  const range = /^(.+?)\.\.(.+)$/.exec(spec);
  if (range) {
    const [low, high] = [number(range[1]!), number(range[2]!)];
    if (low > high) throw new GiftError(`The range ${spec} goes down: write the smaller number first`);
    // Rounded to 12 significant digits: 3.141..3.142 is 3.1415 ± 0.0005, not binary noise.
    const tidy = (value: number) => Number(value.toPrecision(12));
    return { value: tidy((low + high) / 2), tolerance: tidy((high - low) / 2) };
  }
  const colon = spec.lastIndexOf(':');
  if (colon > 0) return { value: number(spec.slice(0, colon)), tolerance: number(spec.slice(colon + 1)) };
  return { value: number(spec), tolerance: 0 };
}

type Warn = (message: string) => void;
/** A question's answer part: its type and key (distributed over the union). */
type AnswerFields = TypedQuestion extends infer Q
  ? Q extends unknown
    ? Omit<Q, '_id' | 'question_text' | 'points' | 'image'>
    : never
  : never;

/** A block's answers `{…}` as the fields of its question. */
function answerFields(content: string, warn: Warn): AnswerFields {
  const trimmed = content.trim();
  if (trimmed === '') throw new GiftError('Essay questions ({}) are not supported');
  if (trimmed.startsWith('#')) {
    if (firstUnescaped(trimmed.slice(1), '#') !== -1) warn('Feedback (#…) is not kept');
    return { type: 'numeric', ...numericQuestion(trimmed) };
  }
  const trueFalse = /^(T|F|TRUE|FALSE)\s*(#[\s\S]*)?$/i.exec(trimmed);
  if (trueFalse) {
    if (trueFalse[2]) warn('Feedback (#…) is not kept');
    return { type: 'true-false', correct: trueFalse[1]!.toUpperCase().startsWith('T') };
  }
  if (/->/.test(trimmed)) throw new GiftError('Matching questions (->) are not supported');
  const tokens = answerTokens(trimmed);
  if (tokens.some((token) => token.feedback)) warn('Feedback (#…) is not kept');
  const weighted = tokens.filter((token) => token.weight !== undefined);

  if (tokens.every((token) => token.right)) {
    if (weighted.some((token) => token.weight !== 100)) {
      throw new GiftError('Partial credit for a short answer (=%n%) is not supported');
    }
    return { type: 'short-text', accepted: tokens.map((token) => token.text) };
  }

  const options = (isRight: (token: Token) => boolean) =>
    tokens.map((token) => ({ text: token.text, correct: isRight(token) }));

  if (weighted.length === 0) {
    const right = tokens.filter((token) => token.right).length;
    if (right === 0) throw new GiftError('No right answer: mark one with =');
    if (right > 1) throw new GiftError('Several right answers (=) need weights: ~%50%a ~%50%b ~%-100%c');
    return { type: 'single', options: options((token) => token.right) };
  }
  if (tokens.some((token) => token.right && token.weight === undefined)) {
    throw new GiftError('Partial credit on a single-choice question (~%n%) is not supported');
  }
  const positive = tokens.filter((token) => (token.weight ?? 0) > 0).map((token) => token.weight!);
  const sum = positive.reduce((total, weight) => total + weight, 0);
  if (positive.length === 0) throw new GiftError('No right answer: give at least one option a positive weight');
  if (Math.abs(sum - 100) > WEIGHT_SLACK * positive.length) {
    throw new GiftError(`The positive weights add up to ${Math.round(sum * 1000) / 1000}%, not 100%`);
  }
  if (positive.some((weight) => Math.abs(weight - positive[0]!) > WEIGHT_SLACK)) {
    throw new GiftError('The right options have different weights: every right option must count the same');
  }
  if (
    tokens.some((token) => (token.weight ?? 0) < 0 && Math.abs(token.weight! + sum / positive.length) > WEIGHT_SLACK)
  ) {
    warn('Each wrong option chosen takes off one right option’s share, whatever its weight');
  }
  return { type: 'multiple', scoring: 'partial', options: options((token) => (token.weight ?? 0) > 0) };
}

/** The question of one block, or a GiftError saying why there is none. */
function blockQuestion(block: Block, warn: Warn): TypedQuestionInput | undefined {
  let points: number = QUESTION_LIMITS.pointsDefault;
  let allOrNothing = false;
  const kept: string[] = [];
  for (const { text } of block.lines) {
    const trimmed = text.trim();
    const pointsComment = POINTS_COMMENT.exec(trimmed);
    if (pointsComment) {
      points = Number(pointsComment[1]);
      if (!Number.isFinite(points)) throw new GiftError(`“${pointsComment[1]}” is not a number of points`);
    } else if (SCORING_COMMENT.test(trimmed)) allOrNothing = true;
    else if (trimmed.startsWith('//')) continue;
    else if (/^\$CATEGORY:/i.test(trimmed)) warn('Categories ($CATEGORY) are ignored');
    else kept.push(text);
  }
  if (kept.length === 0) return undefined;
  let source = kept.join('\n').trim();
  if (source.startsWith('::')) {
    const end = source.indexOf('::', 2);
    if (end === -1) throw new GiftError('The title ::… is not closed with ::');
    source = source.slice(end + 2).trimStart();
  }
  const marker = FORMAT_MARKER.exec(source);
  if (marker) {
    source = source.slice(marker[0].length);
    const format = marker[1]!.toLowerCase();
    warn(
      format === 'html'
        ? 'The [html] marker is dropped: the HTML stays in the text as written'
        : `The [${format}] marker is dropped: the text is kept as plain text`,
    );
  }
  const open = firstUnescaped(source, '{');
  if (open === -1) throw new GiftError('Descriptions (text without an answer block {…}) are not supported');
  const close = firstUnescaped(source, '}', open);
  if (close === -1) throw new GiftError('The answer block { is not closed with }');
  if (source.slice(close + 1).trim() !== '') {
    throw new GiftError('Missing-word questions (text after the answer block) are not supported');
  }
  const fields = answerFields(source.slice(open + 1, close), warn);
  const question = {
    question_text: unescapeGift(source.slice(0, open)),
    points,
    ...fields,
    ...(fields.type === 'multiple' && allOrNothing ? { scoring: 'all-or-nothing' as const } : {}),
  } as TypedQuestionInput;
  const parsed = typedQuestionInputSchema.safeParse(question);
  if (!parsed.success) throw new GiftError(parsed.error.issues[0]!.message);
  return question;
}

/** Reads a GIFT file: the questions it can take, and each problem with its line. */
export function parseGift(text: string): ImportResult {
  const result: ImportResult = { questions: [], problems: [] };
  for (const block of blocksOf(text)) {
    const line = block.lines.find(({ text }) => !text.trim().startsWith('//'))?.line ?? block.lines[0]!.line;
    const warnings: ImportProblem[] = [];
    const warn: Warn = (message) => warnings.push({ line, message, severity: 'warning' });
    try {
      const question = blockQuestion(block, warn);
      if (question) result.questions.push({ line, question });
      result.problems.push(...warnings);
    } catch (error) {
      if (!(error instanceof GiftError)) throw error;
      result.problems.push({ line, message: error.message, severity: 'error' });
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
      if (points !== QUESTION_LIMITS.pointsDefault) lines.push(`// points: ${points}`);
      const withImages =
        (question.image ? 1 : 0) +
        (question.type === 'single' || question.type === 'multiple'
          ? question.options.filter((option) => option.image).length
          : 0);
      if (withImages > 0)
        lines.push(`// image: ${withImages} image(s) of this question are not exported (GIFT has none)`);
      const text = escapeGift(question.question_text);
      switch (question.type) {
        case 'single':
          lines.push(
            `${text} {`,
            ...question.options.map((option) => `${option.correct ? '=' : '~'}${escapeGift(option.text)}`),
            '}',
          );
          break;
        case 'multiple': {
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
        case 'short-text':
          lines.push(`${text} {`, ...question.accepted.map((accepted) => `=${escapeGift(accepted)}`), '}');
          break;
        case 'numeric':
          lines.push(`${text} {#${numberText(question.value)}:${numberText(question.tolerance)}}`);
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
      }));
      return stored.type === 'single'
        ? { ...base, type: 'single', options }
        : { ...base, type: 'multiple', options, scoring: stored.scoring };
    }
    case 'true-false':
      return { ...base, type: 'true-false', correct: stored.correct };
    case 'short-text':
      return { ...base, type: 'short-text', accepted: [...stored.accepted] };
    case 'numeric':
      return { ...base, type: 'numeric', value: stored.value, tolerance: stored.tolerance };
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
