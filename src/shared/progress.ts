import { z } from 'zod/mini';
import { optionalQueryId, optionalQueryText, pagingFields } from './fields.ts';
import { FIELD_LIMITS } from './limits.ts';

/**
 * Class progress contract: leaderboards (SPEC §2 Leaderboards, §7 get-students,
 * §9) and the student's statistics (SPEC §2 Student statistics).
 */

/** Leaderboard constants of SPEC §9, as data both sides read. */
export const LEADERBOARD = {
  /** Rows ranked 1..3 are highlighted. */
  highlightedTop: 3,
  /** Accuracy colours: green at 80 or above, yellow at 60 or above, red below. */
  accuracyGoodMin: 80,
  accuracyFairMin: 60,
  /** The teacher table stars ranks under 5 (ranks count from 1: ranks 1 to 4). */
  teacherStarBelowRank: 5,
  /** get-students pages. */
  pageSizeDefault: 50,
  pageSizeMax: 100,
} as const;

export type AccuracyBand = 'good' | 'fair' | 'poor';

/** SPEC §2: green ≥ 80, yellow ≥ 60, red below. */
export function accuracyBand(accuracy: number): AccuracyBand {
  if (accuracy >= LEADERBOARD.accuracyGoodMin) return 'good';
  if (accuracy >= LEADERBOARD.accuracyFairMin) return 'fair';
  return 'poor';
}

export const isHighlightedRank = (rank: number) => rank <= LEADERBOARD.highlightedTop;
export const isStarredRank = (rank: number) => rank < LEADERBOARD.teacherStarBelowRank;

/**
 * get-students query. classId: a class by its id (decision 031). A teacher may pick any class
 * of the school (omitted = all classes); a student any of their own classes (omitted = their
 * first by name), and another class is refused (403).
 * search: case-insensitive substring of the student's name.
 */
export const leaderboardQuerySchema = z.object({
  classId: optionalQueryId(),
  search: optionalQueryText(FIELD_LIMITS.name),
  ...pagingFields(LEADERBOARD),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

// ---- What the server presents ----------------------------------------------------------

/** One leaderboard row: only what a leaderboard needs, never contact details. */
export const leaderboardEntrySchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  /** The names of the student's classes, sorted and joined with ", " ("" for none). */
  class: z.string(),
  /** Points per quiz, 2 decimals. */
  averageScore: z.number(),
  /** Percent, 2 decimals. */
  averageAccuracy: z.number(),
  totalScore: z.number(),
  quizzesAttempted: z.int(),
  /** Position in the leaderboard (the class's, or all classes'), from 1; a search keeps it. */
  rank: z.int().check(z.gte(1)),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const subjectStatisticsSchema = z.strictObject({
  subject: z.string(),
  /** Percent, 2 decimals: the slice size of the pie. */
  averageAccuracy: z.number(),
  averageScore: z.number(),
  testsAttempted: z.int(),
  /** Average time spent per quiz: seconds / 60, 2 decimals. */
  averageTimeMinutes: z.number(),
});
export type SubjectStatistics = z.infer<typeof subjectStatisticsSchema>;

/** The caller's own analytics, computed from their submitted attempts. */
export const studentStatisticsSchema = z.strictObject({
  name: z.string(),
  averageScore: z.number(),
  averageAccuracy: z.number(),
  quizzesAttempted: z.int(),
  subjects: z.array(subjectStatisticsSchema),
});
export type StudentStatistics = z.infer<typeof studentStatisticsSchema>;
