import { scoreAnswers } from '#shared/quizzes';
import type { StoredQuestion } from '../../db/schema.ts';

/**
 * The one way the server scores an attempt (closings and regrades alike, decision 036): today
 * the shared exact-match count; the question types replace this body.
 */
export function scoreAttempt(
  questions: StoredQuestion[],
  answers: Record<string, string | null | undefined>,
): { score: number; accuracy: string } {
  return scoreAnswers(questions, answers);
}
