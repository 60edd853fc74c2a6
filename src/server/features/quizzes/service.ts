import type { Database } from '../../db/client.ts';
import { readsUncached, type ReadCache } from '../../cache/read-cache.ts';
import { createFileAccess, type FileAccess } from '../resources/file-access.ts';
import { createQuizAttempts } from './attempts.ts';
import { createQuizAuthoring } from './authoring.ts';
import { createQuizGrading } from './grading.ts';
import { createQuizReading } from './reading.ts';

/**
 * The quizzes service the routes and the sweep call: authoring (authoring.ts), reading
 * (reading.ts), a student's attempt (attempts.ts) and grading (grading.ts), sharing one
 * grading so every closing goes through the same place. Edits, duplicates and deletions are
 * lifecycle.ts; accommodations, accommodations.ts.
 */
export function createQuizzesService(db: Database, cache: ReadCache, fileAccess: FileAccess) {
  const grading = createQuizGrading(db, cache);
  return {
    ...createQuizAuthoring(db, cache),
    ...createQuizReading(db, cache, fileAccess, grading),
    ...createQuizAttempts(db, cache, fileAccess, grading),
    closeExpiredAttempts: () => grading.closeExpiredAttempts(),
    releaseScores: grading.releaseScores,
  };
}

export type QuizzesService = ReturnType<typeof createQuizzesService>;

/**
 * The service for work that shows no quiz to anyone (closing attempts, releasing scores,
 * seeding the demo): no read cache, and an image signer whose secret nothing ever checks.
 */
export const createQuizJobsService = (db: Database) =>
  createQuizzesService(db, readsUncached(), createFileAccess('unused: this service presents no quiz'));
