import { t } from '@lingui/core/macro';
import {
  isTeacherQuizDetail,
  isTeacherQuizSummary,
  type StudentQuizDetail,
  type StudentQuizSummary,
  type TeacherQuizDetail,
  type TeacherQuizSummary,
} from '#shared/quizzes';

/**
 * get-all-quiz and quiz/{id} answer each role with its own view, chosen by the token (the
 * contract says either). A screen of one role reads its own and refuses the other, which only
 * a session of the other role could have received. (The teacher's detail: teacher-detail-query.ts.)
 */
export const otherRoleError = () => new Error(t`This quiz was loaded for the other role: log in again.`);

export function studentView(quiz: TeacherQuizDetail | StudentQuizDetail): StudentQuizDetail {
  if (isTeacherQuizDetail(quiz)) throw otherRoleError();
  return quiz;
}

export const teacherSummaries = (quizzes: (TeacherQuizSummary | StudentQuizSummary)[]): TeacherQuizSummary[] =>
  quizzes.map((quiz) => {
    if (!isTeacherQuizSummary(quiz)) throw otherRoleError();
    return quiz;
  });

export const studentSummaries = (quizzes: (TeacherQuizSummary | StudentQuizSummary)[]): StudentQuizSummary[] =>
  quizzes.map((quiz) => {
    if (isTeacherQuizSummary(quiz)) throw otherRoleError();
    return quiz;
  });
