// The live game's addresses, in a module of their own: the screens that only link there (the
// quiz's analytics, the teacher's dashboard) load none of the game's code (decision 014).

/**
 * The quiz list with the "Play live" dialog open over one quiz (issue 34 point 2): the analytics
 * page links here, as it links to the edit screen for Duplicate and Delete, so that it loads none
 * of the dialog's code (its budget, decision 014).
 */
export const playLivePath = (quizId: string) => `/dashboard/teacher/all-quiz?play=${encodeURIComponent(quizId)}`;

/** Where one finished game's report is (its own route: a link a teacher can share or bookmark). */
export const liveGameReportPath = (quizId: string, gameId: string) =>
  `/dashboard/teacher/quiz-analytics/${encodeURIComponent(quizId)}/live/${encodeURIComponent(gameId)}`;

/** The host's page of a game (the projector), where a teacher of its class runs it or takes it back. */
export const liveHostPath = (gameId: string) => `/dashboard/teacher/live/${encodeURIComponent(gameId)}`;
