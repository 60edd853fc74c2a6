import { t } from '@lingui/core/macro';
import { formatDateTime } from '../../lib/format.ts';
import { formatPoints } from './points.ts';

/**
 * What the student's review says about what it does not show yet (decision 032). The server
 * decides what leaves; these only say when the rest will, from the moments it answers.
 */

/**
 * Under the review when the questions came without their key; null when the key is there. Each
 * question's points come with the key (issue 30 point 1), so the notice names them too.
 */
export function answersNotice(answersVisibleAt: string | null, hasKey: boolean): string | null {
  if (hasKey) return null;
  if (answersVisibleAt === null)
    return t`Your teacher has chosen not to show the correct answers or the points of each question.`;
  const deadline = formatDateTime(answersVisibleAt);
  return t`Correct answers and the points of each question will be shown after the deadline, ${deadline}.`;
}

/** The attempt's facts the score notice reads (a submitted attempt's state). */
export type ScoreState = {
  scoreVisibleAt: string;
  awaitingMarking?: true | undefined;
  scoreSoFar?: number | undefined;
};

/**
 * In place of the score while it is hidden: until the deadline (decision 032), or while essays
 * await the teacher's marks (decision 046), with the points so far when the score may show.
 */
export function scoreNotice(state: ScoreState, totalPoints?: number): string {
  if (!state.awaitingMarking) {
    const deadline = formatDateTime(state.scoreVisibleAt);
    return t`Your score will be shown after the deadline, ${deadline}.`;
  }
  if (state.scoreSoFar === undefined)
    return t`Awaiting marking: your teacher marks your written answers, then your score is shown.`;
  const soFar = formatPoints(state.scoreSoFar);
  if (totalPoints === undefined)
    return t`Awaiting marking: your teacher marks your written answers, then your score is shown. Points so far: ${soFar}.`;
  const total = formatPoints(totalPoints);
  return t`Awaiting marking: your teacher marks your written answers, then your score is shown. Points so far: ${soFar} of ${total}.`;
}
