import { formatDateTime } from '../../lib/format.ts';

/**
 * What the student's review says about what it does not show yet (decision 032). The server
 * decides what leaves; these only say when the rest will, from the moments it answers.
 */

/** Under the review when the questions came without their key; null when the key is there. */
export function answersNotice(answersVisibleAt: string | null, hasKey: boolean): string | null {
  if (hasKey) return null;
  if (answersVisibleAt === null) return 'Your teacher has chosen not to show the correct answers.';
  return `Correct answers will be shown after the deadline, ${formatDateTime(answersVisibleAt)}.`;
}

/** In place of the score while it is hidden. */
export const scoreNotice = (scoreVisibleAt: string) =>
  `Your score will be shown after the deadline, ${formatDateTime(scoreVisibleAt)}.`;
