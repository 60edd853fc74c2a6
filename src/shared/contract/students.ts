import { z } from 'zod/mini';
import {
  classListSchema,
  studentDetailsSchema,
  studentIdParamsSchema,
  studentListEntrySchema,
  studentListQuerySchema,
  temporaryPasswordSchema,
} from '../students.ts';
import { bodyObject } from '../fields.ts';
import { defineEndpoint } from './endpoint.ts';

/** The teacher's students screen (SPEC §2 /dashboard/teacher/students). */

export const listStudents = defineEndpoint({
  method: 'GET',
  path: '/api/teacher/students',
  summary:
    "The students of the caller's classes with their contact details, filtered by one of those classes and search, by name, paged",
  query: studentListQuerySchema,
  response: z.array(studentListEntrySchema),
  paged: true,
});

export const listClasses = defineEndpoint({
  method: 'GET',
  path: '/api/teacher/classes',
  summary: "The names of the caller's classes, sorted: the students screen's filter",
  response: classListSchema,
});

export const updateStudentDetails = defineEndpoint({
  method: 'PATCH',
  path: '/api/teacher/students/:id',
  summary: "Changes a student's name, account username, email and parent's contact (decision 033)",
  params: studentIdParamsSchema,
  body: studentDetailsSchema,
  response: studentListEntrySchema,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'ROLL_NUMBER_TAKEN', 'EMAIL_TAKEN', 'ACCOUNT_EXISTS'],
});

export const resetStudentPassword = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/students/:id/reset-password',
  summary:
    'Gives a student a temporary password, answered once: every session of the student ends, and the next sign-in must choose a new password (decision 033)',
  params: studentIdParamsSchema,
  // The address says it all: a body, if sent, must be empty (decision 025).
  body: z.nullish(bodyObject({})),
  response: temporaryPasswordSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
