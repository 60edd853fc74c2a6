/**
 * Question and option texts may hold TeX (decision 036, "Mathematics"): `\( … \)` inline,
 * `$$ … $$` and `\[ … \]` on a line of their own. Single `$` is never a delimiter (prices and
 * currencies are common in questions); `\$` is a dollar sign, so `\$\$` is two of them.
 *
 * `splitMath` cuts a text into plain-text and math segments for the client (KaTeX renders the
 * math); the server needs it only to know whether a text holds math. A delimiter that is never
 * closed, or closes nothing but spaces, stays text, so a half-typed formula shows as typed.
 */

export type MathSegment =
  | { kind: 'text'; text: string }
  /** `tex` between the delimiters; `source` as typed, delimiters included (shown until KaTeX loads). */
  | { kind: 'math'; tex: string; display: boolean; source: string };

const DELIMITERS = [
  { open: '\\(', close: '\\)', display: false },
  { open: '\\[', close: '\\]', display: true },
  { open: '$$', close: '$$', display: true },
] as const;

/** Where `close` first appears from `start`, stepping over TeX escapes (`\$`, `\\`, `\{`...). -1 = never. */
function findClose(text: string, close: string, start: number): number {
  let index = start;
  while (index < text.length) {
    if (text.startsWith(close, index)) return index;
    index += text[index] === '\\' ? 2 : 1;
  }
  return -1;
}

/** The text's segments in order; adjacent text is merged, so plain text is one segment. */
export function splitMath(text: string): MathSegment[] {
  const segments: MathSegment[] = [];
  let plain = '';
  const flushPlain = () => {
    if (plain) segments.push({ kind: 'text', text: plain });
    plain = '';
  };
  let index = 0;
  while (index < text.length) {
    if (text.startsWith('\\$', index)) {
      plain += '$';
      index += 2;
      continue;
    }
    const delimiter = DELIMITERS.find(({ open }) => text.startsWith(open, index));
    if (delimiter) {
      const texStart = index + delimiter.open.length;
      const end = findClose(text, delimiter.close, texStart);
      const tex = end === -1 ? '' : text.slice(texStart, end);
      if (tex.trim() !== '') {
        flushPlain();
        const after = end + delimiter.close.length;
        segments.push({ kind: 'math', tex, display: delimiter.display, source: text.slice(index, after) });
        index = after;
        continue;
      }
      // Unclosed or empty: the opening delimiter is text, and the scan goes on after it.
      plain += delimiter.open;
      index = texStart;
      continue;
    }
    // A backslash escapes the next character in plain text too (`\\(` is a backslash and "(").
    if (text[index] === '\\' && text[index + 1] === '\\') {
      plain += '\\\\';
      index += 2;
      continue;
    }
    plain += text[index];
    index += 1;
  }
  flushPlain();
  return segments;
}

/** Whether a text holds math to render (and KaTeX is worth loading). */
export const hasMath = (text: string) => splitMath(text).some((segment) => segment.kind === 'math');
