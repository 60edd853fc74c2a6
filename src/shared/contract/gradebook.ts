import { z } from 'zod/mini';
import {
  gradebookColumnsSchema,
  gradebookQuerySchema,
  gradebookRowSchema,
  studentGradebookSchema,
} from '../gradebook.ts';
import { defineEndpoint } from './endpoint.ts';

/** The gradebook (issue 33 point 4, decision 062): a class's for its teachers, a student's own row. */

const classIdParams = z.object({ id: z.uuid() });

export const getGradebookColumns = defineEndpoint({
  method: 'GET',
  path: '/api/classes/:id/gradebook/columns',
  summary: "The gradebook's columns of a class the caller teaches: its quizzes and assignments, by due time",
  description:
    'Every quiz of the class and every assignment for it, archived ones included (they keep their grades), by due time (undated last), then title. `key` names this order: the rows are asked with it.',
  params: classIdParams,
  response: gradebookColumnsSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const listGradebookRows = defineEndpoint({
  method: 'GET',
  path: '/api/classes/:id/gradebook',
  summary:
    "The gradebook's rows of a class the caller teaches: each student's cells and average, sorted, filtered, paged",
  description:
    'Cells in the order of the columns. The average is weighted by points (decision 062): points earned over points possible, over the quizzes and graded assignments whose scores the student sees. Sorted by name, roll number or average (students without one last), filtered by a search in the name or roll number and by missing work, in SQL. GRADEBOOK_CHANGED when `columns` is not the key of the columns now.',
  params: classIdParams,
  query: gradebookQuerySchema,
  response: z.array(gradebookRowSchema),
  paged: true,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'GRADEBOOK_CHANGED'],
});

export const getStudentGradebook = defineEndpoint({
  method: 'GET',
  path: '/api/student/classes/:id/grades',
  summary: "The calling student's own grades in one of their classes, with their teachers' feedback and their average",
  params: classIdParams,
  response: studentGradebookSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
