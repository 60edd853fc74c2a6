import { queryOptions } from '@tanstack/react-query';
import { getQuiz } from '#shared/contract/quizzes';
import { call, isWorthRetrying } from '../../lib/api.ts';
import { isTeacherQuizDetail, type StudentQuizDetail, type TeacherQuizDetail } from '#shared/quizzes';
import { otherRoleError } from './quiz-views.ts';

/**
 * A quiz with every attempt, as its teacher reads it (analytics, the edit screen); a refusal (not
 * found, not yours) is not retried. Apart from quizQueries so the edit screen takes it without the
 * lists' and the student's queries, and the student's screens without it (route budgets).
 */
/** The teacher's view of quiz/{id}; a student's means a session of the other role (quiz-views.ts). */
function teacherView(quiz: TeacherQuizDetail | StudentQuizDetail): TeacherQuizDetail {
  if (!isTeacherQuizDetail(quiz)) throw otherRoleError();
  return quiz;
}

export const teacherDetailQuery = (id: string) =>
  queryOptions({
    queryKey: ['quiz', 'teacher', id],
    queryFn: async ({ signal }) => teacherView((await call(getQuiz, { params: { id } }, { signal })).data),
    retry: (failureCount, error) => isWorthRetrying(error) && failureCount < 2,
  });
