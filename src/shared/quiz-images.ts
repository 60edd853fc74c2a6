import { z } from 'zod/mini';
import { IMAGE_MIME_TYPES } from './file-types.ts';
import { fieldCode } from './field-error-codes.ts';

/**
 * Images of quiz questions and options (decision 036, "Images"): uploaded on their own
 * (POST /api/quizzes/images), named in a question by their `fileKey` with a required alt text,
 * served to each viewer by an address signed for them.
 */
export const QUIZ_IMAGE_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  alt: 300,
} as const;

/** Decided from the file's bytes, never from its name or the browser's claim. */
export const QUIZ_IMAGE_TYPES = IMAGE_MIME_TYPES;

/** What the file input offers (a hint only: the server decides by content). */
export const QUIZ_IMAGE_ACCEPT = QUIZ_IMAGE_TYPES.join(',');

/** The random key the upload answers: base64url, never a path. */
export const quizImageKeySchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/));

export const quizImageParamsSchema = z.object({ fileKey: quizImageKeySchema });

const IMAGE_PATH = '/api/quizzes/images/';

/** An image's signed address (GET /api/quizzes/images/:fileKey). */
export const quizImageUrl = (fileKey: string, access: string) =>
  `${IMAGE_PATH}${fileKey}?access=${encodeURIComponent(access)}`;

/** The fileKey of an address quizImageUrl made (an edit sends a presented image back by its key). */
export function fileKeyOfQuizImageUrl(url: string): string | undefined {
  const key = url.startsWith(IMAGE_PATH) ? url.slice(IMAGE_PATH.length).split('?')[0] : undefined;
  return key !== undefined && quizImageKeySchema.safeParse(key).success ? key : undefined;
}

/** The signed `access` value is the credential (optional: a link without it gets 403). */
export const quizImageAccessQuerySchema = z.object({
  access: z.optional(z.string().check(z.maxLength(300))),
});

/** The upload's answer: the key to store in the question, and a thumbnail address signed for the uploader. */
export const uploadedQuizImageSchema = z.strictObject({ fileKey: z.string(), url: z.string() });
export type UploadedQuizImage = z.infer<typeof uploadedQuizImageSchema>;

/** An image as a question stores it (the question shape in quizzes.ts carries this). */
export const quizImageSchema = z.strictObject({
  fileKey: quizImageKeySchema,
  alt: z.string().check(
    z.trim(),
    z.maxLength(QUIZ_IMAGE_LIMITS.alt),
    // A refinement, not min(1): only refinements carry their own code (decision 026's addendum).
    z.refine((alt) => alt.length > 0, { params: fieldCode('IMAGE_DESCRIPTION_MISSING') }),
  ),
});
export type QuizImage = z.infer<typeof quizImageSchema>;

/** An image as a viewer gets it: an address signed for them, and its alt text. */
export type PresentedQuizImage = { url: string; alt: string };
