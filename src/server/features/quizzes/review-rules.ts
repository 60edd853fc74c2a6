import { QUIZ_LIMITS } from '#shared/quizzes';
import type { QuizAttemptRow, QuizRow } from '../../db/schema.ts';

/**
 * The one place that decides whether a student's answer key and score may leave the server
 * (decision 032). Every student presenter, the statistics, the stored averages' release and
 * the authorization matrix's answer-key check ask it; nothing else compares review options.
 */

export type ReviewQuiz = Pick<QuizRow, 'closesAt' | 'reviewAnswers' | 'reviewScore'>;
export type ReviewAttempt = Pick<QuizAttemptRow, 'submittedAt'> | null;

export type Review = {
  showsAnswers: boolean;
  showsScore: boolean;
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
  return {
    showsAnswers: isSubmitted && answersVisibleAt !== null && answersVisibleAt <= now,
    showsScore: isSubmitted && isScoreReleased(quiz, now),
    answersVisibleAt,
    scoreVisibleAt,
  };
}
