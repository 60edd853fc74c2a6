import type { LeaderboardEntry, StudentStatistics, SubjectStatistics } from '#shared/progress';

/**
 * What of a student leaves the server on a leaderboard: the ranking fields and
 * nothing else, so emails, roll numbers, parent contacts and hashes cannot leak
 * even if the query selects more one day.
 */

/** A leaderboard row as the service reads it. */
export type LeaderboardRow = {
  id: string;
  name: string;
  className: string;
  averageScore: number;
  averageAccuracy: number;
  totalScore: number;
  quizzesAttempted: number;
  rank: number;
};

/** Drivers may hand numbers over as text (numeric, bigint): the API speaks numbers, 2 decimals. */
const twoDecimals = (value: number | string | null | undefined) => Math.round(Number(value ?? 0) * 100) / 100;

export function presentLeaderboardEntry(row: LeaderboardRow): LeaderboardEntry {
  return {
    _id: row.id,
    name: row.name,
    class: row.className,
    averageScore: twoDecimals(row.averageScore),
    averageAccuracy: twoDecimals(row.averageAccuracy),
    totalScore: twoDecimals(row.totalScore),
    quizzesAttempted: Number(row.quizzesAttempted),
    rank: Number(row.rank),
  };
}

/** One group of the statistics query: a subject, or the caller's overall (subject null). */
export type StatisticsRow = {
  subject: string | null;
  averageScore: number | string;
  averageAccuracy: number | string;
  attempts: number | string;
  averageTimeMinutes: number | string;
};

export function presentStudentStatistics(name: string, rows: StatisticsRow[]): StudentStatistics {
  const overall = rows.find((row) => row.subject === null);
  const subjects = rows
    .filter((row): row is StatisticsRow & { subject: string } => row.subject !== null)
    .map((row): SubjectStatistics => ({
      subject: row.subject,
      averageAccuracy: twoDecimals(row.averageAccuracy),
      averageScore: twoDecimals(row.averageScore),
      testsAttempted: Number(row.attempts),
      averageTimeMinutes: twoDecimals(row.averageTimeMinutes),
    }))
    .sort((a, b) => a.subject.localeCompare(b.subject, 'en'));
  return {
    name,
    averageScore: twoDecimals(overall?.averageScore),
    averageAccuracy: twoDecimals(overall?.averageAccuracy),
    quizzesAttempted: Number(overall?.attempts ?? 0),
    subjects,
  };
}
