import { shortAnswerPattern, type ShortAnswerPattern } from './short-answers.ts';

/**
 * Moodle's short answers as GIFT files write them (decision 049), for the reader and the export
 * only: kept out of short-answers.ts, which every screen that scores or shows a quiz loads.
 */

/** Whether a Moodle short answer has a wildcard: an `*` that is not written `\*`. */
export const hasWildcard = (text: string) => /(?<!\\)\*/.test(text);

/** A literal answer as Moodle writes it: every `*` escaped, so Moodle reads no wildcard in it. */
export const moodleAnswerOfLiteral = (text: string) => text.replace(/\*/g, '\\*');

const STAR = null;
type Token = string | typeof STAR;

/** A pattern as characters and wildcards, for shortAnswersOverlap. */
const tokensOf = (pattern: ShortAnswerPattern): Token[] =>
  pattern.flatMap((piece, index) => [...(index > 0 ? [STAR] : []), ...piece]);

/**
 * Whether some response matches both answers (each `text` with the question's `wildcards`).
 * The reader asks it to find an answer that Moodle would give before a later one that we try
 * first. Decided on the two patterns as automata walked side by side: at most (|a|+1)·(|b|+1)
 * states, each visited once.
 */
export function shortAnswersOverlap(a: string, b: string, wildcards: boolean): boolean {
  const left = tokensOf(shortAnswerPattern(a, wildcards));
  const right = tokensOf(shortAnswerPattern(b, wildcards));
  const width = right.length + 1;
  const seen = new Uint8Array((left.length + 1) * width);
  const stack: [number, number][] = [[0, 0]];
  const visit = (i: number, j: number) => {
    if (seen[i * width + j]) return;
    seen[i * width + j] = 1;
    stack.push([i, j]);
  };
  seen[0] = 1;
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    if (i === left.length && j === right.length) return true;
    const x = left[i];
    const y = right[j];
    // A wildcard may match nothing more: step over it.
    if (x === STAR) visit(i + 1, j);
    if (y === STAR) visit(i, j + 1);
    // One more character of the response: each side reads it with a literal or keeps its wildcard.
    if (x !== undefined && y !== undefined) {
      if (x === STAR && y !== STAR) visit(i, j + 1);
      else if (x !== STAR && y === STAR) visit(i + 1, j);
      else if (x !== STAR && x === y) visit(i + 1, j + 1);
    }
  }
  return false;
}
