import { plural } from '@lingui/core/macro';
import { formatNumber } from '../../lib/format.ts';

/**
 * Points as a teacher writes them: 1, 1.5, 0.25 (earned points may have hundredths), in the
 * locale's digits. Its own module so the editor and the lists take it without the review
 * helpers (route budgets).
 */
export const formatPoints = (points: number) => formatNumber(roundedPoints(points), { maximumFractionDigits: 2 });

const roundedPoints = (points: number) => Math.round(points * 100) / 100;

/** "1 point", "1.5 points": the number in the locale's digits, the word in its plural form. */
export const pointsLabel = (value: number) => {
  const points = roundedPoints(value);
  return plural(points, { one: '# point', other: '# points' });
};

/**
 * What a question earned out of what it is worth, as one reading: "1.5 / 2 points". One message
 * with the plural inside, so a language orders it as it reads (Arabic: "١٫٥ من أصل نقطتين",
 * not "1.5 / نقطتان") and isolates the earned number.
 */
export const earnedOfLabel = (earned: number, worth: number) => {
  const given = formatPoints(earned);
  const points = roundedPoints(worth);
  return plural(points, { one: `${given} / # point`, other: `${given} / # points` });
};
