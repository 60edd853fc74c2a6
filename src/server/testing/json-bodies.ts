/** JSON texts for the body-limit tests (decision 023). */

/** `levels` arrays inside one another ([[[…]]]), or objects ({"a":{"a":…1}}). */
export function nestedJson(levels: number, kind: 'arrays' | 'objects'): string {
  return kind === 'arrays'
    ? '['.repeat(levels) + ']'.repeat(levels)
    : '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}

/** `value` (an object) as JSON of exactly `bytes` UTF-8 bytes, with an ASCII `padding` member added to reach it. */
export function jsonOfExactly(value: object, bytes: number): string {
  const bare = JSON.stringify({ ...value, padding: '' });
  const missing = bytes - Buffer.byteLength(bare);
  if (missing < 0) throw new Error(`the body is already ${Buffer.byteLength(bare)} bytes, over ${bytes}`);
  return JSON.stringify({ ...value, padding: 'x'.repeat(missing) });
}
