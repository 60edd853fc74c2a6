import { z } from 'zod';
import { emptyBodySchema } from '../accounts.ts';
import {
  deletedQuizSchema,
  deleteQuizQuerySchema,
  duplicateQuizSchema,
  editQuizSchema,
  newQuizSchema,
  quizIdParamsSchema,
  quizListQuerySchema,
  saveAnswersSchema,
  savedAnswersSchema,
  studentQuizDetailSchema,
  studentQuizSummarySchema,
  submitAttemptSchema,
  teacherQuizDetailSchema,
  teacherQuizSummarySchema,
} from '../quizzes.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * Quizzes (SPEC §7 add-quiz, get-all-quiz, quiz/{id}, update-student) and the attempt calls
 * that give the server the timer (start) and the answers as they are picked (decision 022).
 */

export const addQuiz = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/add-quiz',
  summary: "Creates a quiz for one of the caller's active classes (classId), with its review options",
  description: 'createdBy, subject and date (SPEC §7) are accepted and ignored: the token and the clock say them.',
  body: newQuizSchema,
  response: teacherQuizSummarySchema,
  status: 201,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED'],
});

export const listQuizzes = defineEndpoint({
  method: 'GET',
  path: '/api/get-all-quiz',
  summary: "A teacher's own quizzes with their attempt counts, or a student's class quizzes with their attempts",
  description: 'A student may ask for one view: online (can be taken now) or attempted.',
  query: quizListQuerySchema,
  response: z.array(z.union([teacherQuizSummarySchema, studentQuizSummarySchema])),
  paged: true,
});

export const getQuiz = defineEndpoint({
  method: 'GET',
  path: '/api/quiz/:id',
  summary: "One quiz: its teacher's view with every attempt, or the student's own attempt",
  description:
    'A student sees no question before starting, the shuffled questions without answers during the ' +
    'attempt, and the answer key and the score only in the review of their submitted attempt, when the ' +
    "quiz's review options allow (reviewAnswers, reviewScore; the attempt says from when).",
  params: quizIdParamsSchema,
  response: z.union([teacherQuizDetailSchema, studentQuizDetailSchema]),
  errors: ['NOT_FOUND'],
});

export const startQuiz = defineEndpoint({
  method: 'POST',
  path: '/api/quiz/:id/start',
  summary: "Starts the student's attempt (the server's timer); again, the attempt already under way",
  params: quizIdParamsSchema,
  body: emptyBodySchema,
  response: studentQuizDetailSchema,
  errors: ['NOT_FOUND', 'QUIZ_CLOSED'],
});

export const saveAnswers = defineEndpoint({
  method: 'PUT',
  path: '/api/quiz/:id/answers',
  summary: 'Saves choices of the attempt under way, as they are picked (null clears one)',
  params: quizIdParamsSchema,
  body: saveAnswersSchema,
  response: savedAnswersSchema,
  errors: ['NOT_FOUND', 'QUIZ_NOT_STARTED', 'QUIZ_ALREADY_SUBMITTED'],
});

export const submitQuiz = defineEndpoint({
  method: 'POST',
  path: '/api/student/update-student',
  summary: 'Submits the attempt: the server scores and times it and answers the review',
  description:
    'score, accuracy, attemptedAt, user and timeTaken (SPEC §7), and each question’s text and options, ' +
    'are accepted and ignored. Within the time (and its grace) the choices sent count; later, only those saved in time.',
  body: submitAttemptSchema,
  response: studentQuizDetailSchema,
  errors: ['NOT_FOUND', 'QUIZ_NOT_STARTED', 'QUIZ_ALREADY_SUBMITTED'],
});

// ---- A quiz's life after publishing (decision 036) ----------------------------------------

export const editQuiz = defineEndpoint({
  method: 'PUT',
  path: '/api/quizzes/:id',
  summary: 'Changes a quiz of the caller; once students have started it, a changed key regrades their attempts',
  description:
    "The whole quiz as add-quiz sends it, each kept question with its _id. With no attempt, anything may change (a new class must be one of the caller's active ones). " +
    'Once an attempt exists the title, texts, deadline, time and review options and the key may change; adding, removing or reordering questions or options, or the class, is QUIZ_HAS_ATTEMPTS. ' +
    "An option's text changes only while no attempt is open. A changed key rescores every submitted attempt and their students' averages at once, and is listed in the quiz's regrades. " +
    'The deadline must be in the future only if it changes.',
  params: quizIdParamsSchema,
  body: editQuizSchema,
  response: z.strictObject({
    quiz: teacherQuizSummarySchema,
    /** Null when the key did not change (or nobody had submitted). */
    regrade: z.strictObject({ attemptsChanged: z.number().int() }).nullable(),
  }),
  errors: ['NOT_FOUND', 'FORBIDDEN', 'QUIZ_HAS_ATTEMPTS', 'QUIZ_ATTEMPTS_OPEN', 'QUIZ_ARCHIVED', 'CLASS_ARCHIVED'],
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
