/**
 * The root query key of the quizzes feature: what a new quiz or a submission invalidates.
 * Its own module so the quiz editor can invalidate the lists without downloading the
 * queries (and the student's answer saver they reach).
 */
export const QUIZZES_KEY = ['quizzes'] as const;
