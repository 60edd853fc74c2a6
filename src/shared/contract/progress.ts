import { z } from 'zod/mini';
import { leaderboardEntrySchema, leaderboardQuerySchema, studentStatisticsSchema } from '../progress.ts';
import { defineEndpoint } from './endpoint.ts';

/** Leaderboards (SPEC §7 get-students) and the student's own statistics. */

export const getLeaderboard = defineEndpoint({
  method: 'GET',
  path: '/api/get-students',
  summary: 'A leaderboard, ranked by average score: all classes or one for a teacher, the own class for a student',
  description:
    'Ranking fields only (never contact details). Equal averages share a rank (1, 1, 3); a search keeps ' +
    "each match's rank. A student asking for another class is refused.",
  query: leaderboardQuerySchema,
  response: z.array(leaderboardEntrySchema),
  paged: true,
});

export const getStudentStatistics = defineEndpoint({
  method: 'GET',
  path: '/api/student/statistics',
  summary: "The calling student's own results, overall and per subject",
  response: studentStatisticsSchema,
});
