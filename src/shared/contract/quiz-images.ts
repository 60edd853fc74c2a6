import { z } from 'zod/mini';
import { quizImageAccessQuerySchema, quizImageParamsSchema, uploadedQuizImageSchema } from '../quiz-images.ts';
import { defineEndpoint } from './endpoint.ts';

/** Images of quiz questions and options (decision 036, "Images"). */

export const uploadQuizImage = defineEndpoint({
  method: 'POST',
  path: '/api/quizzes/images',
  summary: 'Uploads an image for a quiz question or option (multipart/form-data, field "file")',
  description:
    "PNG, JPEG, GIF or WebP, decided from the bytes; at most 5 MB, counted in the teacher's storage space. " +
    'Answers the fileKey a question names with its alt text, and an address of the image signed for the uploader (the editor thumbnail).',
  body: {
    form: 'multipart',
    fields: z.strictObject({}),
    files: [{ name: 'file', description: 'The image: PNG, JPEG, GIF or WebP, up to 5 MB' }],
  },
  response: uploadedQuizImageSchema,
  status: 201,
  errors: ['STORAGE_QUOTA_EXCEEDED', 'FILE_TYPE_NOT_ALLOWED'],
});

export const getQuizImage = defineEndpoint({
  method: 'GET',
  path: '/api/quizzes/images/:fileKey',
  summary: 'A quiz image, by the signed address a quiz hands each viewer',
  description: 'No bearer header (<img>): the access value is signed for one user and image, for a limited time.',
  params: quizImageParamsSchema,
  query: quizImageAccessQuerySchema,
  response: { form: 'file', mediaType: 'image/*', description: 'The image with its detected type' },
  errors: ['NOT_FOUND'],
});
