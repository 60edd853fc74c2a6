import { z } from 'zod';
import { classListSchema, studentListEntrySchema, studentListQuerySchema } from '../students.ts';
import { defineEndpoint } from './endpoint.ts';

/** The teacher's students screen (SPEC §2 /dashboard/teacher/students). */

export const listStudents = defineEndpoint({
  method: 'GET',
  path: '/api/teacher/students',
  summary: "The school's students with their contact details, filtered by class and search, by name, paged",
  query: studentListQuerySchema,
  response: z.array(studentListEntrySchema),
  paged: true,
});

export const listClasses = defineEndpoint({
  method: 'GET',
  path: '/api/teacher/classes',
  summary: 'Every class of the school (of students and of quizzes), each once by its key, sorted',
  response: classListSchema,
});
