import { z } from 'zod/mini';
import {
  fileAccessQuerySchema,
  resourceIdParamsSchema,
  resourceListQuerySchema,
  resourceSchema,
  resourceUpdateSchema,
  starSchema,
  uploadFieldsSchema,
  uploadLimitsSchema,
  videoLinkSchema,
} from '../resources.ts';
import { defineEndpoint } from './endpoint.ts';

/** The resources library (SPEC §7 get-resources, upload-resource, star; decision 010). */

export const listResources = defineEndpoint({
  method: 'GET',
  path: '/api/get-resources',
  summary: "A teacher's own uploads, or the resources of a student's class, filtered, sorted and paged",
  description:
    'classId: one class of the caller, its whole library (a student asking for another is refused; a teacher gets ' +
    '404 for an unknown class). fileType is the SPEC name of type.',
  query: resourceListQuerySchema,
  response: z.array(resourceSchema),
  paged: true,
  errors: ['NOT_FOUND'],
});

export const uploadResource = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/upload-resource',
  summary: 'Uploads a file to the library (multipart/form-data; the file is streamed to storage)',
  description:
    'The file type is read from its bytes (an allow-list), not from its name. uploadedBy (SPEC §7) is accepted ' +
    'and ignored. A declared size over the limit or the space left is refused before the file is read.',
  body: {
    form: 'multipart',
    fields: uploadFieldsSchema,
    files: [{ name: 'file', description: 'The file: a document, an image or a video, up to UPLOAD_MAX_BYTES' }],
  },
  response: resourceSchema,
  status: 201,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED', 'STORAGE_QUOTA_EXCEEDED', 'FILE_TYPE_NOT_ALLOWED'],
});

export const getUploadLimits = defineEndpoint({
  method: 'GET',
  path: '/api/teacher/upload-limits',
  summary: "The largest upload the server accepts and the calling teacher's storage space",
  response: uploadLimitsSchema,
});

export const addResourceLink = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/add-resource-link',
  summary: 'Shares a hosted video (YouTube, Vimeo, Wistia) as a resource',
  body: videoLinkSchema,
  response: resourceSchema,
  status: 201,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED'],
});

export const updateResource = defineEndpoint({
  method: 'PATCH',
  path: '/api/teacher/resources/:id',
  summary: 'Changes the name, description, tags or class of a resource the caller shared',
  params: resourceIdParamsSchema,
  body: resourceUpdateSchema,
  response: resourceSchema,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED'],
});

export const deleteResource = defineEndpoint({
  method: 'DELETE',
  path: '/api/teacher/resources/:id',
  summary: 'Deletes a resource the caller shared, and its stored file',
  params: resourceIdParamsSchema,
  response: z.null(),
  errors: ['NOT_FOUND'],
});

export const starResource = defineEndpoint({
  method: 'POST',
  path: '/api/resources/:id/star',
  summary: "Stars or unstars a resource of the student's class",
  description: 'studentId (SPEC §7) is accepted and ignored: the token says who stars.',
  params: resourceIdParamsSchema,
  body: starSchema,
  response: resourceSchema,
  errors: ['NOT_FOUND'],
});

export const getResourceFile = defineEndpoint({
  method: 'GET',
  path: '/api/resources/:id/file',
  summary: 'The stored file of an upload, by the signed address a resource carries in fileURL',
  description:
    'No bearer header (links, <img>, <video>): the access value is signed for one user and file, for a ' +
    'limited time. Single byte ranges are answered 206 for seeking.',
  params: resourceIdParamsSchema,
  query: fileAccessQuerySchema,
  response: {
    form: 'file',
    mediaType: '*/*',
    description: 'The file with its detected type; inline only for types browsers display',
  },
  errors: ['NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
});
