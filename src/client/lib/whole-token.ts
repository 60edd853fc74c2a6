/** Longer than this a token could not fit a phone's line: it may break anywhere (the last resort). */
const WHOLE_TOKEN_MAX = 36;

/**
 * A token stays on one line: never broken at its hyphen (`imp592c6-` / `01@school.test`). Only
 * one too long for any line may break, anywhere, rather than push the page sideways.
 */
export function wholeToken(value: string, where: 'always' | 'on-a-phone' = 'always') {
  const isShort = value.length <= WHOLE_TOKEN_MAX;
  // Whole class names, for Tailwind to find them in the source.
  if (where === 'on-a-phone') return isShort ? 'max-sm:whitespace-nowrap' : 'max-sm:wrap-anywhere';
  return isShort ? 'whitespace-nowrap' : 'wrap-anywhere';
}
