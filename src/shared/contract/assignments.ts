import { z } from 'zod/mini';
import {
  assignmentIdParams,
  classAssignmentsQuery,
  deletedAssignmentSchema,
  duplicateAssignmentSchema,
  editAssignmentSchema,
  gradeBodySchema,
  handInBodySchema,
  handInDetailSchema,
  handInParams,
  handInRowSchema,
  handInsQuery,
  newAssignmentSchema,
  returnAllBodySchema,
  returnedCountSchema,
  studentAssignmentSchema,
  studentAssignmentsQuery,
  studentAssignmentSummarySchema,
  takeBackBodySchema,
  teacherAssignmentSchema,
} from '../assignments.ts';
import { bodyObject } from '../fields.ts';
import { defineEndpoint } from './endpoint.ts';

/** Assignments and hand-ins (issue 33, decision 058): the teacher's side, then the student's. */

const noBody = z.nullish(bodyObject({}));

export const createAssignment = defineEndpoint({
  method: 'POST',
  path: '/api/assignments',
  summary: 'Creates an assignment for one or more active classes the caller teaches',
  description:
    'Points null: ungraded. dueAt and publishAt are instants (the client turns the school’s wall time into them), years 2000–2100. ' +
    'Attachments are library resources of the caller or of the chosen classes (ATTACHMENT_UNAVAILABLE otherwise).',
  body: newAssignmentSchema,
  response: teacherAssignmentSchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'CLASS_ARCHIVED'],
});

export const editAssignment = defineEndpoint({
  method: 'PUT',
  path: '/api/assignments/:id',
  summary:
    'Changes an assignment the caller created; once work is handed in, its points, classes and publish time stay',
  description:
    'The whole assignment with the version it was read at (ASSIGNMENT_CHANGED when another edit came first). ' +
    'Once a student handed in, removing a class, changing the points or moving publishAt into the future is ASSIGNMENT_HAS_HAND_INS.',
  params: assignmentIdParams,
  body: editAssignmentSchema,
  response: teacherAssignmentSchema,
  errors: [
    'NOT_FOUND',
    'FORBIDDEN',
    'CLASS_ARCHIVED',
    'ASSIGNMENT_CHANGED',
    'ASSIGNMENT_HAS_HAND_INS',
    'ASSIGNMENT_ARCHIVED',
  ],
});

export const duplicateAssignment = defineEndpoint({
  method: 'POST',
  path: '/api/assignments/:id/duplicate',
  summary: 'Copies an assignment the caller created, without its hand-ins, to active classes the caller teaches',
  params: assignmentIdParams,
  body: duplicateAssignmentSchema,
  response: teacherAssignmentSchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'CLASS_ARCHIVED'],
});

export const deleteAssignment = defineEndpoint({
  method: 'DELETE',
  path: '/api/assignments/:id',
  summary: 'Deletes an assignment the caller created; one with work handed in is archived instead',
  params: assignmentIdParams,
  response: deletedAssignmentSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const getAssignment = defineEndpoint({
  method: 'GET',
  path: '/api/assignments/:id',
  summary: 'An assignment of a class the caller teaches, with how its hand-ins stand in those classes',
  params: assignmentIdParams,
  response: teacherAssignmentSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const listClassAssignments = defineEndpoint({
  method: 'GET',
  path: '/api/classes/:id/assignments',
  summary: 'The assignments of a class the caller teaches (archived ones left out), newest first',
  params: z.object({ id: z.uuid() }),
  query: classAssignmentsQuery,
  response: z.array(teacherAssignmentSchema),
  paged: true,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const listHandIns = defineEndpoint({
  method: 'GET',
  path: '/api/assignments/:id/hand-ins',
  summary: 'Every student of one class of the assignment, by name, with their hand-in’s state and grade',
  description: 'A draft is the student’s own: it shows as not handed in, without its text.',
  params: assignmentIdParams,
  query: handInsQuery,
  response: z.array(handInRowSchema),
  paged: true,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const getHandIn = defineEndpoint({
  method: 'GET',
  path: '/api/assignments/:id/hand-ins/:studentId',
  summary: 'One student’s hand-in, with its text, for a teacher of their class of the assignment',
  params: handInParams,
  response: handInDetailSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const gradeHandIn = defineEndpoint({
  method: 'PUT',
  path: '/api/assignments/:id/hand-ins/:studentId/grade',
  summary: 'Gives a handed-in hand-in its points (0 to the assignment’s, null when ungraded) and feedback',
  description:
    'Sends the version the teacher read (HAND_IN_CHANGED when the student took it back or another teacher graded since). ' +
    'A returned hand-in graded again stays returned, flagged as changed after its return.',
  params: handInParams,
  body: gradeBodySchema,
  response: handInDetailSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'HAND_IN_CHANGED', 'HAND_IN_LOCKED'],
});

export const returnHandIn = defineEndpoint({
  method: 'POST',
  path: '/api/assignments/:id/hand-ins/:studentId/return',
  summary: 'Returns a graded hand-in: its student sees the points and feedback',
  params: handInParams,
  body: noBody,
  response: handInDetailSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'HAND_IN_LOCKED'],
});

export const returnAllHandIns = defineEndpoint({
  method: 'POST',
  path: '/api/assignments/:id/return-all',
  summary: 'Returns every graded hand-in of the assignment, of one class or of every class of it the caller teaches',
  params: assignmentIdParams,
  body: returnAllBodySchema,
  response: returnedCountSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

// ---- The student's side ---------------------------------------------------------------------

export const listStudentAssignments = defineEndpoint({
  method: 'GET',
  path: '/api/student/assignments',
  summary: 'The calling student’s published assignments in one group: to do, missing, done or returned',
  description:
    'todo: not handed in, not past due (by due time, undated last); missing: not handed in, past due (latest due first); ' +
    'done: handed in or graded, not returned (latest first); returned: with their grade (latest return first).',
  query: studentAssignmentsQuery,
  response: z.array(studentAssignmentSummarySchema),
  paged: true,
});

export const getStudentAssignment = defineEndpoint({
  method: 'GET',
  path: '/api/student/assignments/:id',
  summary: 'A published assignment of the calling student’s classes, with their own hand-in',
  params: assignmentIdParams,
  response: studentAssignmentSchema,
  errors: ['NOT_FOUND'],
});

export const saveHandInDraft = defineEndpoint({
  method: 'PUT',
  path: '/api/student/assignments/:id/draft',
  summary: 'Saves the calling student’s draft, if the version they read is still the latest',
  params: assignmentIdParams,
  body: handInBodySchema,
  response: studentAssignmentSchema,
  errors: ['NOT_FOUND', 'ASSIGNMENT_ARCHIVED', 'HAND_IN_CHANGED', 'HAND_IN_LOCKED'],
});

export const handInWork = defineEndpoint({
  method: 'POST',
  path: '/api/student/assignments/:id/hand-in',
  summary:
    'Hands in the calling student’s work; after the due time it is marked late, or refused if late work is not accepted',
  params: assignmentIdParams,
  body: handInBodySchema,
  response: studentAssignmentSchema,
  errors: ['NOT_FOUND', 'ASSIGNMENT_ARCHIVED', 'ASSIGNMENT_CLOSED', 'HAND_IN_CHANGED', 'HAND_IN_LOCKED'],
});

export const takeBackHandIn = defineEndpoint({
  method: 'POST',
  path: '/api/student/assignments/:id/take-back',
  summary: 'Takes the calling student’s hand-in back to a draft, unless graded or closed by the late rule',
  params: assignmentIdParams,
  body: takeBackBodySchema,
  response: studentAssignmentSchema,
  errors: ['NOT_FOUND', 'ASSIGNMENT_ARCHIVED', 'ASSIGNMENT_CLOSED', 'HAND_IN_CHANGED', 'HAND_IN_LOCKED'],
});
