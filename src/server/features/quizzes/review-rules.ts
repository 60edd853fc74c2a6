import { QUIZ_LIMITS } from '#shared/quizzes';
import type { QuizAttemptRow, QuizRow } from '../../db/schema.ts';

/**
 * The one place that decides whether a student's answer key, what each question earned and the
 * score may leave the server (decisions 032, 036). Every student presenter, the statistics, the stored averages' release and
 * the authorization matrix's answer-key check ask it; nothing else compares review options.
 */

export type ReviewQuiz = Pick<QuizRow, 'closesAt' | 'reviewAnswers' | 'reviewScore'>;
/** essaysAwaiting: the attempt's essays not marked yet (decision 046); absent reads as none. */
export type ReviewAttempt = (Pick<QuizAttemptRow, 'submittedAt'> & { essaysAwaiting?: number }) | null;

export type Review = {
  showsAnswers: boolean;
  showsScore: boolean;
  /**
   * What each question earned (and so whether it was right): a piece of the key, since a
   * true-false question's points are its answer. It waits for the key, and for the score
   * (issue 30 point 1); the total follows showsScore alone.
   */
  showsQuestionResults: boolean;
  /**
   * Essays of the attempt still await a teacher's mark (decision 046): its score is the points so
   * far, never shown as final (showsScore then gives the points so far) and counted in no average.
   */
  awaitingMarking: boolean;
  /** The final score may show: the review options allow it and nothing awaits marking. */
  showsFinalScore: boolean;
  /** When the key leaves; null: never. Before a submission, the moment it would leave at the earliest. */
  answersVisibleAt: Date | null;
  scoreVisibleAt: Date;
};

/**
 * "After the deadline" is the quiz's close: an attempt started a moment before the deadline
 * runs its full time and grace (decision 006), and must not meet a key its classmates can see.
 * Without accommodations that is the deadline plus the time limit and the grace; with them, the
 * latest such moment of anyone (decision 036), which quizzes.closes_at holds (refreshClosesAt).
 */
export const closesWithoutAccommodations = (quiz: Pick<QuizRow, 'deadline' | 'maxTimeMinutes'>) =>
  new Date(quiz.deadline.getTime() + quiz.maxTimeMinutes * 60_000 + QUIZ_LIMITS.graceSeconds * 1000);

/** A new quiz's timing (created or duplicated): no accommodation yet, so it closes with its own time. */
export const newQuizTiming = (deadline: Date, maxTimeMinutes: number) => ({
  deadline,
  maxTimeMinutes,
  closesAt: closesWithoutAccommodations({ deadline, maxTimeMinutes }),
});

const quizClosesAt = (quiz: Pick<QuizRow, 'closesAt'>) => quiz.closesAt;

/** Whether the quiz's scores count in the students' stored averages and leaderboards at `now`. */
export const isScoreReleased = (quiz: ReviewQuiz, now: Date) =>
  quiz.reviewScore === 'after-submit' || quizClosesAt(quiz) <= now;

/** What a student may see of their own attempt's review at `now` (server time). */
export function reviewOf(quiz: ReviewQuiz, attempt: ReviewAttempt, now: Date): Review {
  const closesAt = quizClosesAt(quiz);
  const submittedAt = attempt?.submittedAt ?? null;
  // Not submitted yet: "right after submitting" is at the earliest now.
  const afterSubmit = submittedAt ?? now;
  const answersVisibleAt =
    quiz.reviewAnswers === 'never' ? null : quiz.reviewAnswers === 'after-submit' ? afterSubmit : closesAt;
  const scoreVisibleAt = quiz.reviewScore === 'after-submit' ? afterSubmit : closesAt;
  const isSubmitted = submittedAt !== null;
  const showsAnswers = isSubmitted && answersVisibleAt !== null && answersVisibleAt <= now;
  const showsScore = isSubmitted && isScoreReleased(quiz, now);
  const awaitingMarking = isSubmitted && (attempt?.essaysAwaiting ?? 0) > 0;
  return {
    showsAnswers,
    showsScore,
    showsQuestionResults: showsAnswers && showsScore,
    awaitingMarking,
    showsFinalScore: showsScore && !awaitingMarking,
    answersVisibleAt,
    scoreVisibleAt,
  };
}
