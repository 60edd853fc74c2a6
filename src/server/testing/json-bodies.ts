/** JSON texts for the body-limit tests (decision 023). */

/** `levels` arrays inside one another ([[[…]]]), or objects ({"a":{"a":…1}}). */
export function nestedJson(levels: number, kind: 'arrays' | 'objects'): string {
  return kind === 'arrays'
    ? '['.repeat(levels) + ']'.repeat(levels)
    : '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
}
