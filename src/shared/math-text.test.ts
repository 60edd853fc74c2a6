import { describe, expect, it } from 'vitest';
import { hasMath, splitMath } from './math-text.ts';

const text = (value: string) => ({ kind: 'text', text: value });
const inline = (tex: string) => ({ kind: 'math', tex, display: false, source: `\\(${tex}\\)` });

describe('splitMath', () => {
  it('leaves plain text as one text segment', () => {
    expect(splitMath('What is 2 + 2?')).toEqual([text('What is 2 + 2?')]);
    expect(splitMath('')).toEqual([]);
  });

  it('cuts inline and display math out of the text', () => {
    expect(splitMath('Solve \\(x^2 = 4\\) for x.')).toEqual([text('Solve '), inline('x^2 = 4'), text(' for x.')]);
    expect(splitMath('$$\\frac{1}{2}$$')).toEqual([
      { kind: 'math', tex: '\\frac{1}{2}', display: true, source: '$$\\frac{1}{2}$$' },
    ]);
    expect(splitMath('Area: \\[ \\pi r^2 \\] and \\(d\\)')).toEqual([
      text('Area: '),
      { kind: 'math', tex: ' \\pi r^2 ', display: true, source: '\\[ \\pi r^2 \\]' },
      text(' and '),
      inline('d'),
    ]);
  });

  it('reads \\$ as a dollar sign, in text and next to delimiters', () => {
    expect(splitMath('It costs \\$5')).toEqual([text('It costs $5')]);
    expect(splitMath('\\$\\$5\\$\\$')).toEqual([text('$$5$$')]);
    // A single $ is never a delimiter.
    expect(splitMath('From $5 to $10')).toEqual([text('From $5 to $10')]);
  });

  it('does not close math on an escaped delimiter inside it', () => {
    expect(splitMath('$$\\$5 + \\$3$$')).toEqual([
      { kind: 'math', tex: '\\$5 + \\$3', display: true, source: '$$\\$5 + \\$3$$' },
    ]);
    expect(splitMath('\\(a \\\\) b\\)')).toEqual([inline('a \\\\) b')]);
  });

  it('shows unbalanced or empty delimiters as text', () => {
    expect(splitMath('Half \\(x + 1')).toEqual([text('Half \\(x + 1')]);
    expect(splitMath('$$ x')).toEqual([text('$$ x')]);
    expect(splitMath('x \\] y')).toEqual([text('x \\] y')]);
    expect(splitMath('empty $$  $$ here')).toEqual([text('empty $$  $$ here')]);
    // The unclosed opener is text; a later pair still counts.
    expect(splitMath('\\[ open, then \\(y\\)')).toEqual([text('\\[ open, then '), inline('y')]);
  });

  it('keeps an escaped backslash from opening math', () => {
    expect(splitMath('C:\\\\(x\\)')).toEqual([text('C:\\\\(x\\)')]);
  });
});

describe('hasMath', () => {
  it('is true only when a closed delimiter holds TeX', () => {
    expect(hasMath('\\(x\\)')).toBe(true);
    expect(hasMath('$$ y $$')).toBe(true);
    expect(hasMath('\\$\\$ y \\$\\$')).toBe(false);
    expect(hasMath('no math here')).toBe(false);
  });
});
