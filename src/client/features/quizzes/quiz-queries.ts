import { queryOptions } from '@tanstack/react-query';
import { getQuiz, listQuizzes } from '#shared/contract/quizzes';
import { QUIZ_LIMITS } from '#shared/quizzes';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';
import { settledAnswerSaves } from './attempt/use-answer-saver.ts';
import { QUIZZES_KEY } from './quiz-keys.ts';
import { studentSummaries, studentView, teacherSummaries } from './quiz-views.ts';

export type StudentQuizView = 'online' | 'attempted';

/**
 * The quizzes feature's queries. A new quiz or a submission invalidates `all` (every list);
 * a quiz's own screen is under `quiz`.
 */
export const quizQueries = {
  all: QUIZZES_KEY,
  /** The teacher's own quizzes with their attempt counts, newest first. */
  teacherList: () =>
    pagedListOptions(
      [...quizQueries.all, 'teacher'],
      listQuizzes,
      { limit: QUIZ_LIMITS.pageSizeDefault },
      teacherSummaries,
    ),
  /** One view of the student's class quizzes. */
  studentList: (view: StudentQuizView) =>
    pagedListOptions(
      [...quizQueries.all, 'student', view],
      listQuizzes,
      { view, limit: QUIZ_LIMITS.pageSizeDefault },
      studentSummaries,
    ),
  /** The student's attempt at a quiz, as the server holds it. */
  studentDetail: (id: string) =>
    queryOptions({
      queryKey: ['quiz', 'student', id],
      queryFn: async () => {
        // Choices still on their way (sent as the screen was left) are part of the answer.
        await settledAnswerSaves(id);
        return studentView((await call(getQuiz, { params: { id } })).data);
      },
      // A refetch would restart the countdown from the server's figure: harmless, but
      // there is no reason to do it while the student works.
      refetchOnWindowFocus: false,
      retry: false,
      // The screen says what went wrong itself.
      meta: { errorToast: false },
    }),
};
