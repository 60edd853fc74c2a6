import { z } from 'zod/mini';
import {
  assignmentIdParams,
  attachmentFileParams,
  commentBodySchema,
  commentsQuery,
  handInCommentSchema,
  handInFileParams,
  handInFileSchema,
  handInParams,
  handInVersionSchema,
  storedFileParams,
  uploadedHandInFileSchema,
} from '../assignments.ts';
import { fileAccessQuerySchema } from '../resources.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * A hand-in's files, the assignment's attachments by signed address and the private thread of
 * a hand-in (issue 33 points 2, 3 and 6; decision 061).
 */

const storedFile = (description: string) => ({ form: 'file', mediaType: '*/*', description }) as const;

export const uploadHandInFile = defineEndpoint({
  method: 'POST',
  path: '/api/student/assignments/:id/files',
  summary: 'Adds a file to the calling student’s draft (multipart/form-data, field "file"; streamed to storage)',
  description:
    'The type is read from the bytes (the library’s allow-list), up to UPLOAD_MAX_BYTES; at most ' +
    'ASSIGNMENT_LIMITS.handInFilesMax files a hand-in (HAND_IN_FILES_FULL). Only while a draft (or not yet saved): ' +
    'HAND_IN_LOCKED once handed in. An upload bumps the hand-in’s version, which it answers: another tab’s save ' +
    'of what it read before gets HAND_IN_CHANGED. A refused upload stores nothing.',
  params: assignmentIdParams,
  body: {
    form: 'multipart',
    fields: z.strictObject({}),
    files: [{ name: 'file', description: 'A document, an image, audio or a video, up to UPLOAD_MAX_BYTES' }],
  },
  response: uploadedHandInFileSchema,
  status: 201,
  errors: [
    'NOT_FOUND',
    'FORBIDDEN',
    'ASSIGNMENT_ARCHIVED',
    'HAND_IN_LOCKED',
    'HAND_IN_FILES_FULL',
    'FILE_TYPE_NOT_ALLOWED',
  ],
});

export const listOwnHandInFiles = defineEndpoint({
  method: 'GET',
  path: '/api/student/assignments/:id/files',
  summary: 'The files of the calling student’s hand-in, oldest first, each with an address signed for them',
  params: assignmentIdParams,
  response: z.array(handInFileSchema),
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const deleteHandInFile = defineEndpoint({
  method: 'DELETE',
  path: '/api/student/assignments/:id/files/:fileId',
  summary: 'Removes a file from the calling student’s draft; answers the hand-in’s new version',
  params: handInFileParams,
  response: handInVersionSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'ASSIGNMENT_ARCHIVED', 'HAND_IN_LOCKED'],
});

export const listHandInFiles = defineEndpoint({
  method: 'GET',
  path: '/api/assignments/:id/hand-ins/:studentId/files',
  summary: 'The files of a student’s hand-in, for a teacher of their class (none while it is a draft)',
  params: handInParams,
  response: z.array(handInFileSchema),
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const getHandInFile = defineEndpoint({
  method: 'GET',
  path: '/api/hand-in-files/:id',
  summary: 'A hand-in’s file, by the address signed for its student or a teacher of their class',
  description:
    'No bearer header (links, <img>, <video>, <iframe>): the access value is signed for one user and file. ' +
    'Checked again now: the student who made it, or a teacher of their class once it is handed in.',
  params: storedFileParams,
  query: fileAccessQuerySchema,
  response: storedFile('The file with its detected type; inline only for types browsers display'),
  errors: ['NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
});

export const getAttachmentFile = defineEndpoint({
  method: 'GET',
  path: '/api/assignments/:id/attachments/:resourceId/file',
  summary: 'An attachment of an assignment, by the address signed for one of its students or teachers',
  description:
    'The address a student or teacher of any of the assignment’s classes reads in attachments[].fileUrl, even when ' +
    'the resource belongs to another class’s library. Checked again now.',
  params: attachmentFileParams,
  query: fileAccessQuerySchema,
  response: storedFile('The file with its detected type; inline only for types browsers display'),
  errors: ['NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
});

export const listOwnHandInComments = defineEndpoint({
  method: 'GET',
  path: '/api/student/assignments/:id/comments',
  summary: 'The private thread of the calling student’s hand-in, oldest first, paged',
  params: assignmentIdParams,
  query: commentsQuery,
  response: z.array(handInCommentSchema),
  paged: true,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const postOwnHandInComment = defineEndpoint({
  method: 'POST',
  path: '/api/student/assignments/:id/comments',
  summary: 'Writes to the class’s teachers in the private thread of the calling student’s hand-in',
  params: assignmentIdParams,
  body: commentBodySchema,
  response: handInCommentSchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const listHandInComments = defineEndpoint({
  method: 'GET',
  path: '/api/assignments/:id/hand-ins/:studentId/comments',
  summary: 'The private thread of a student’s hand-in, for a teacher of their class, oldest first, paged',
  params: handInParams,
  query: commentsQuery,
  response: z.array(handInCommentSchema),
  paged: true,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const postHandInComment = defineEndpoint({
  method: 'POST',
  path: '/api/assignments/:id/hand-ins/:studentId/comments',
  summary: 'Writes to the student in the private thread of their hand-in, as a teacher of their class',
  params: handInParams,
  body: commentBodySchema,
  response: handInCommentSchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});
