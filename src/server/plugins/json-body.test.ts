import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestedJson } from '../testing/json-bodies.ts';
import { JsonShapeScanner, measureJson } from './json-body.ts';

const NO_LIMITS = { maxDepth: Number.POSITIVE_INFINITY, maxValues: Number.POSITIVE_INFINITY };

/** The reference: nesting depth and values (array items, object members) of a parsed value. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}
function valuesOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Object.values(value);
  return children.length + children.reduce((total: number, child) => total + valuesOf(child), 0);
}

// Text made of what a naive scan would trip on: brackets, quotes, backslashes, commas, colons.
const trickyText = fc.string({
  unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', ' ', '\n', 'a', '€', '😀'),
  maxLength: 12,
});
const { value: jsonValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'medium', maxDepth: 8 },
    fc.constantFrom(null, true, false, 0, -1.5e-7, 42),
    trickyText,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyText, tie('value'), { maxKeys: 4 }),
  ),
}));

describe('measureJson', () => {
  it('finds the depth and the number of values JSON.parse would build, whatever the strings hold', () => {
    fc.assert(
      fc.property(jsonValue, fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(measureJson(text, NO_LIMITS)).toEqual({ depth: depthOf(value), values: valuesOf(value) });
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the same, byte for byte, whichever way the text is cut into chunks', () => {
    fc.assert(
      fc.property(jsonValue, fc.array(fc.nat(), { maxLength: 6 }), (value, cuts) => {
        const bytes = Buffer.from(JSON.stringify(value));
        const ends = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const scanner = new JsonShapeScanner(NO_LIMITS);
        let start = 0;
        for (const end of [...ends, bytes.length]) {
          scanner.push(bytes.subarray(start, end));
          start = end;
        }
        expect(scanner.shape).toEqual({ depth: depthOf(value), values: valuesOf(value) });
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['brackets in a string', '{"a":"[[[[{{{{"}', 1, 1],
    ['an escaped quote', '{"a":"\\"[[[","b":[1]}', 2, 3],
    ['an escaped backslash before the closing quote', '{"a":"\\\\","b":[[1]]}', 3, 4],
    ['three backslashes and a quote', '["\\\\\\"]]]",[[2]]]', 3, 4],
    ['a string at the root', '"[[[[,,,,"', 0, 0],
    ['empty containers', '[[],{},[[]]]', 3, 4],
    ['whitespace around everything', ' [ 1 , [ ] , { "a" : [ 2 ] } ] ', 3, 5],
  ])('%s', (_name, text, depth, values) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(measureJson(text, NO_LIMITS)).toEqual({ depth, values });
  });

  it('stops at the first level too deep, however deep the text goes', () => {
    for (const kind of ['arrays', 'objects'] as const) {
      expect(measureJson(nestedJson(100_000, kind), { maxDepth: 32, maxValues: 1000 })).toMatchObject({
        depth: 33,
        exceeded: 'depth',
      });
      expect(measureJson(nestedJson(32, kind), { maxDepth: 32, maxValues: 1000 }).exceeded).toBeUndefined();
    }
  });

  it('stops at the first value too many', () => {
    const limits = { maxDepth: 32, maxValues: 100 };
    expect(measureJson(`[${Array(100).fill(0).join(',')}]`, limits)).toEqual({ depth: 1, values: 100 });
    expect(measureJson(`[${Array(100_000).fill(0).join(',')}]`, limits)).toEqual({
      depth: 1,
      values: 101,
      exceeded: 'values',
    });
    const members = Array.from({ length: 101 }, (_, index) => `"k${index}":{}`).join(',');
    expect(measureJson(`{${members}}`, limits).exceeded).toBe('values');
  });

  it('leaves text that is not JSON to JSON.parse, having counted what comes before its first error', () => {
    expect(measureJson('{"a":"[[[[ never closed', NO_LIMITS)).toEqual({ depth: 1, values: 1 });
    // A closer with nothing open is where JSON.parse stops: the brackets after it do not matter.
    expect(measureJson(']' + '['.repeat(1000), { maxDepth: 32, maxValues: 10 }).exceeded).toBeUndefined();
    expect(measureJson('[[1]]]' + '['.repeat(1000), NO_LIMITS)).toEqual({ depth: 2, values: 2 });
  });
});
