import { identityKey } from './identity.ts';

/**
 * How a typed short answer is compared with a short-text question's answers (decision 049).
 *
 * Literal answers (the default) compare as identities do (decision 024): case, width and
 * spacing do not count. A question with `wildcards` reads its answers as Moodle's short answer
 * question reads them (question/type/shortanswer/question.php, compare_string_with_wildcard):
 * the answer is matched against the WHOLE response, an unescaped `*` (or a run of them) matches
 * any text including none, `\*` is a literal asterisk. The literal pieces between the stars are
 * compared with the same normalisation as a literal answer, so `*colour*` matches "The COLOUR
 * red" as `colour` matches "COLOUR".
 *
 * No regular expression is built from a teacher's text: the pieces are matched left to right,
 * each at its first place (a `*`-only pattern never needs to backtrack), so a match costs at
 * most (response length × pattern length) character comparisons whatever the pattern.
 */

/** Short answers compare as identities do (decision 024): case, width and spacing do not count. */
export const shortTextKey = (text: string) => identityKey(text.normalize('NFC'));

/** Moodle's wildcard: a run of `*` not preceded by a backslash. */
const WILDCARD_RUN = /(?<!\\)\*+/g;
const ESCAPED_STAR = /\\\*/g;

/** A Moodle answer without wildcards as the literal text it matches: each `\*` is a `*`. */
export const literalOfMoodleAnswer = (text: string) => text.replace(ESCAPED_STAR, '*');

/**
 * A piece between two wildcards, normalised as a literal answer is, except that a space at its
 * edge stays (as one space): `red *` needs the space after "red", as in Moodle.
 */
function pieceKey(piece: string): string {
  const key = shortTextKey(piece);
  const before = /^\s/u.test(piece) ? ' ' : '';
  const after = /\s$/u.test(piece) ? ' ' : '';
  if (key === '') return before || after;
  return `${before}${key}${after}`;
}

/**
 * An answer as the matcher takes it: the literal pieces around its wildcards, normalised. A
 * literal answer (or one without a wildcard) is one piece: the response's key must equal it.
 */
export type ShortAnswerPattern = readonly string[];

export function shortAnswerPattern(text: string, wildcards: boolean): ShortAnswerPattern {
  if (!wildcards) return [shortTextKey(text)];
  // Moodle trims the answer when it is saved and the response when it compares.
  const pieces = text.trim().split(WILDCARD_RUN).map(literalOfMoodleAnswer);
  if (pieces.length === 1) return [shortTextKey(pieces[0]!)];
  return pieces.map(pieceKey);
}

/** Whether a response's key (shortTextKey) matches a pattern, start to end. */
export function matchesPattern(key: string, pattern: ShortAnswerPattern): boolean {
  if (pattern.length === 1) return key === pattern[0];
  const first = pattern[0]!;
  const last = pattern[pattern.length - 1]!;
  if (key.length < first.length + last.length || !key.startsWith(first) || !key.endsWith(last)) return false;
  const end = key.length - last.length;
  let at = first.length;
  // Each middle piece at its first place after the previous one: any later place leaves less
  // room for the pieces after it, so if that fails, every placement fails.
  for (let index = 1; index < pattern.length - 1; index++) {
    const piece = pattern[index]!;
    const found = key.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/** A short-text question's answers: what its scoring and its analytics read. */
export type ShortAnswers = {
  accepted: readonly string[];
  partial?: readonly { text: string; weight: number }[] | undefined;
  wildcards?: boolean | undefined;
};

/**
 * The percent of the points a response earns: 100 when an accepted answer matches, else the
 * weight of the first partial answer that matches (Moodle takes the first matching answer; the
 * accepted ones come first, see decision 049 for why the reader keeps the orders alike), else 0.
 */
export function shortAnswerWeight(question: ShortAnswers, response: string): number {
  const key = shortTextKey(response);
  // Only spaces is no answer (Moodle trims it to nothing), even for a pattern `*`.
  if (key === '') return 0;
  const wildcards = question.wildcards === true;
  const matches = (text: string) => matchesPattern(key, shortAnswerPattern(text, wildcards));
  if (question.accepted.some(matches)) return 100;
  return question.partial?.find((answer) => matches(answer.text))?.weight ?? 0;
}
