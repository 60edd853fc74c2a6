import { z } from 'zod/mini';
import { essayMarkInputSchema, essayParamsSchema, essayToMarkSchema, markingListQuerySchema } from '../quiz-marking.ts';
import { quizIdParamsSchema } from '../quizzes.ts';
import { defineEndpoint } from './endpoint.ts';

/** Marking essays by hand (decision 046): the teachers of the quiz's class. */

export const listEssaysToMark = defineEndpoint({
  method: 'GET',
  path: '/api/quiz/:id/essays',
  summary: 'The essays of a quiz of a class the caller teaches: awaiting marking (default) or marked',
  description: 'Question by question in the quiz’s order, then by submission, oldest first.',
  params: quizIdParamsSchema,
  query: markingListQuerySchema,
  response: z.array(essayToMarkSchema),
  paged: true,
  errors: ['NOT_FOUND'],
});

export const markEssay = defineEndpoint({
  method: 'PUT',
  path: '/api/quiz/:id/essays/:attemptId/:questionId',
  summary: "Marks one student's essay (points and an optional comment), or changes its mark",
  description:
    "Points from 0 to the question's points, in halves. The attempt's score follows; once its last essay is " +
    'marked it counts in averages and leaderboards. `version` is the one the list gave: a mark given meanwhile ' +
    'by another teacher makes it 409 MARK_CHANGED, and nothing changes.',
  params: essayParamsSchema,
  body: essayMarkInputSchema,
  response: essayToMarkSchema,
  errors: ['NOT_FOUND', 'MARK_CHANGED'],
});
