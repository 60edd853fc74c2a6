import { z } from 'zod/mini';
import { teacherClassSchema } from '../classes.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * The teacher's own classes, in a module of its own: the class picker of the quiz, resource and
 * student forms loads this call without the rest of the classes contract (roster import, CSV).
 */
export const listMyClasses = defineEndpoint({
  method: 'GET',
  path: '/api/classes',
  summary: 'The classes the calling teacher teaches (archived last), with teachers, join code and student count',
  response: z.array(teacherClassSchema),
});
