import { z } from 'zod/mini';
import { accommodationInputSchema, accommodationParamsSchema, accommodationSchema } from '../quiz-accommodations.ts';
import { quizIdParamsSchema } from '../quizzes.ts';
import { defineEndpoint } from './endpoint.ts';

/** A quiz's accommodations (decision 036): per student, extra time and a later deadline. */

export const listAccommodations = defineEndpoint({
  method: 'GET',
  path: '/api/quiz/:id/accommodations',
  summary: "The accommodations of a quiz of a class the caller teaches, by student's name",
  params: quizIdParamsSchema,
  response: z.array(accommodationSchema),
  errors: ['NOT_FOUND'],
});

export const setAccommodation = defineEndpoint({
  method: 'PUT',
  path: '/api/quiz/:id/accommodations/:studentId',
  summary:
    "Sets one student's extra time (minutes, percent) and later deadline on a quiz of a class the caller teaches",
  description:
    "The student must be in the quiz's class; the deadline must be later than the quiz's. An attempt under way " +
    'gets the new time at once (its end moves). Refused once the quiz has closed (its key may be out).',
  params: accommodationParamsSchema,
  body: accommodationInputSchema,
  response: accommodationSchema,
  errors: ['NOT_FOUND', 'ACCOMMODATION_TOO_LATE'],
});

export const removeAccommodation = defineEndpoint({
  method: 'DELETE',
  path: '/api/quiz/:id/accommodations/:studentId',
  summary: "Removes one student's accommodation; an attempt under way gets the quiz's time back",
  params: accommodationParamsSchema,
  response: z.strictObject({ studentId: z.string() }),
  errors: ['NOT_FOUND'],
});
