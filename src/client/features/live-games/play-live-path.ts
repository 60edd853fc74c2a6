/**
 * The quiz list with the "Play live" dialog open over one quiz (issue 34 point 2): the analytics
 * page links here, as it links to the edit screen for Duplicate and Delete, so that it loads none
 * of the dialog's code (its budget, decision 014).
 */
export const playLivePath = (quizId: string) => `/dashboard/teacher/all-quiz?play=${encodeURIComponent(quizId)}`;
