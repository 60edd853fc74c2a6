/**
 * A LIKE pattern matching `text` anywhere, with the wildcards % and _ (and the
 * escape \) taken literally: use with `ilike ... escape '\\'`. Searches are plain
 * text, never a pattern the user controls.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
