import { LIVE_GAME_LIMITS, livePoints, type Distribution, type LiveOutcome } from '#shared/live-games';
import { scoreQuestion } from '#shared/question-scoring';
import { isMatchingAnswer, parseNumber, type AnswerValue, type StoredQuestion } from '#shared/question-types';
import { shortTextKey } from '#shared/short-answers';

/**
 * The game's pure rules (decision 066): what an answer earns, how a question's answers spread, and
 * the ranking. No database, no clock: the play module gives them the times it measured.
 */

/**
 * The part of the question's points the quiz's own scoring gives `value` (partial credit as in
 * the quiz), within 0 and 1: a negative mark (a Moodle weight below 0) earns nothing in a game.
 */
export function answerFraction(question: StoredQuestion, value: AnswerValue): number {
  if (question.points <= 0) return 0;
  return Math.min(1, Math.max(0, scoreQuestion(question, value) / question.points));
}

/** An answer scored as it is received: its fraction and its points by the scoring rule. */
export function scoreLiveAnswer(question: StoredQuestion, value: AnswerValue, elapsedMs: number, durationMs: number) {
  const fraction = answerFraction(question, value);
  return { fraction, points: livePoints(fraction, elapsedMs, durationMs) };
}

export const outcomeOf = (fraction: number | null): LiveOutcome =>
  fraction === null ? 'none' : fraction >= 1 ? 'right' : fraction > 0 ? 'partial' : 'wrong';

/** The keys an answer adds to its question's distribution (see distributionSchema). */
export function distributionKeys(question: StoredQuestion, value: AnswerValue): string[] {
  switch (question.type) {
    case 'single':
      return typeof value === 'string' ? [value] : [];
    case 'multiple':
      return Array.isArray(value) ? value : [];
    case 'true-false':
      return typeof value === 'boolean' ? [String(value)] : [];
    case 'matching':
      return isMatchingAnswer(value) ? Object.entries(value).map(([prompt, choice]) => `${prompt}>${choice}`) : [];
    case 'numeric': {
      if (typeof value !== 'string') return [];
      const number = parseNumber(value);
      return [number === undefined ? shortTextKey(value) : String(number)];
    }
    case 'short-text':
      return typeof value === 'string' ? [shortTextKey(value)] : [];
    case 'essay':
    case 'description':
      return [];
  }
}

/** Whether a question's answers are typed texts (listed by frequency) rather than the question's own options. */
const isTyped = (question: StoredQuestion) => question.type === 'short-text' || question.type === 'numeric';

/**
 * How a question's answers spread: every option (or "true"/"false", or prompt>choice) with its
 * count, zeros included, in the question's order; typed answers by frequency, the most given
 * first, at most distributionTextsMax of them and the rest in `others`.
 */
export function distributionOf(
  question: StoredQuestion,
  answers: readonly { value: AnswerValue; fraction: number }[],
  players: number,
): Distribution {
  const counts = new Map<string, number>(baseKeys(question).map((key) => [key, 0]));
  for (const answer of answers) {
    for (const key of distributionKeys(question, answer.value)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let listed = [...counts].map(([key, count]) => ({ key, count }));
  let others = 0;
  if (isTyped(question)) {
    listed.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
    others = listed.slice(LIVE_GAME_LIMITS.distributionTextsMax).reduce((total, entry) => total + entry.count, 0);
    listed = listed.slice(0, LIVE_GAME_LIMITS.distributionTextsMax);
  }
  const right = answers.filter((answer) => answer.fraction >= 1).length;
  const wrong = answers.filter((answer) => answer.fraction <= 0).length;
  return {
    players,
    answered: answers.length,
    right,
    partial: answers.length - right - wrong,
    wrong,
    counts: listed,
    others,
  };
}

/** The keys a distribution shows even when nobody chose them: the question's options, in order. */
function baseKeys(question: StoredQuestion): string[] {
  switch (question.type) {
    case 'single':
    case 'multiple':
      return question.options.map((option) => option._id);
    case 'true-false':
      return ['true', 'false'];
    case 'matching':
      return question.prompts.flatMap((prompt) => question.choices.map((choice) => `${prompt._id}>${choice._id}`));
    // Typed answers are listed as given; essays and descriptions are not played.
    case 'short-text':
    case 'numeric':
    case 'essay':
    case 'description':
      return [];
  }
}

export type Standing = { studentId: string; name: string; score: number };

/**
 * Competition ranking (1, 1, 3): equal scores share a rank. Returned best first, equal scores by
 * name then id, so the leaderboard's order never flickers between two equal players.
 */
export function rankStandings<T extends Standing>(standings: readonly T[]): (T & { rank: number })[] {
  const sorted = [...standings].sort(
    (a, b) => b.score - a.score || a.name.localeCompare(b.name) || a.studentId.localeCompare(b.studentId),
  );
  let rank = 0;
  return sorted.map((standing, index) => {
    if (index === 0 || standing.score !== sorted[index - 1]!.score) rank = index + 1;
    return { ...standing, rank };
  });
}
