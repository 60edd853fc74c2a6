import { z } from 'zod/mini';
import { deletedQuizSchema, deleteQuizQuerySchema, duplicateQuizSchema, editQuizSchema } from '../quiz-lifecycle.ts';
import { quizIdParamsSchema, teacherQuizSummarySchema } from '../quizzes.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * A quiz's life after publishing (decision 036): edit (and regrade), duplicate, delete or
 * archive. Its own module, so only the screens that call them load these schemas.
 */

export const editQuiz = defineEndpoint({
  method: 'PUT',
  path: '/api/quizzes/:id',
  summary: 'Changes a quiz of the caller; once students have started it, a changed key regrades their attempts',
  description:
    "The whole quiz as add-quiz sends it, each kept question and option with its _id. With no attempt, anything may change (a new class must be one of the caller's active ones). " +
    'Once an attempt exists the title, texts, images, deadline, time and review options, points and the key may change; adding, removing or reordering questions or options (by _id), changing a type, or the class, is QUIZ_HAS_ATTEMPTS. ' +
    "A changed key or points rescore every submitted attempt and their students' averages at once, and are listed in the quiz's regrades. " +
    'The deadline must be in the future only if it changes.',
  params: quizIdParamsSchema,
  body: editQuizSchema,
  response: z.strictObject({
    quiz: teacherQuizSummarySchema,
    /** Null when the key did not change (or nobody had submitted). */
    regrade: z.nullable(z.strictObject({ attemptsChanged: z.int() })),
  }),
  errors: ['NOT_FOUND', 'FORBIDDEN', 'QUIZ_HAS_ATTEMPTS', 'QUIZ_ARCHIVED', 'QUIZ_CHANGED', 'CLASS_ARCHIVED'],
});

export const duplicateQuiz = defineEndpoint({
  method: 'POST',
  path: '/api/quizzes/:id/duplicate',
  summary: "Copies a quiz of the caller, without its attempts, to one of the caller's active classes",
  params: quizIdParamsSchema,
  body: duplicateQuizSchema,
  response: teacherQuizSummarySchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'CLASS_ARCHIVED'],
});

export const deleteQuiz = defineEndpoint({
  method: 'DELETE',
  path: '/api/quizzes/:id',
  summary: 'Deletes a quiz of the caller; one with attempts is archived unless withResults=true',
  description:
    'Archived: hidden from students who did not take it, kept in analytics and averages; those who took it keep its review. ' +
    "withResults=true deletes it with its attempts and recomputes those students' averages.",
  params: quizIdParamsSchema,
  query: deleteQuizQuerySchema,
  response: deletedQuizSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
