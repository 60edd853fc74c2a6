import { z } from 'zod/mini';
import { emptyBodySchema } from '../accounts.ts';
import {
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

/** The export's format: GIFT only for now (Aiken cannot carry the other types). */
export const quizExportQuerySchema = z.object({
  format: z._default(z.enum(['gift']), 'gift'),
});

export const exportQuiz = defineEndpoint({
  method: 'GET',
  path: '/api/quizzes/:id/export',
  summary: "The quiz's questions as a GIFT file (Moodle's text format), for its teachers",
  description:
    'Points and all-or-nothing scoring travel in comments (// points: 2) that the import reads back; ' +
    'images are not exported (a comment says so).',
  params: quizIdParamsSchema,
  query: quizExportQuerySchema,
  response: {
    form: 'file',
    mediaType: 'text/plain',
    description: 'The GIFT file, as an attachment named after the quiz',
  },
  errors: ['NOT_FOUND'],
});
