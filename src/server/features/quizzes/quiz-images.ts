import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { RESOURCE_LIMITS } from '#shared/resources';
import {
  QUIZ_IMAGE_TYPES,
  quizImageUrl,
  type PresentedQuizImage,
  type QuizImage,
  type UploadedQuizImage,
} from '#shared/quiz-images';
import type { Database } from '../../db/client.ts';
import { quizImages } from '../../db/schema.ts';
import { AppError, badRequest, fieldProblem, notFound } from '../../errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { FileAccess } from '../resources/file-access.ts';
import type { StoredUpload } from '../resources/service.ts';
import { claimStorageSpace, storageSpace, usedStorageBytes, type StorageSpace } from '../resources/storage-quota.ts';

/**
 * Images of quiz questions and options (decision 036, "Images"): stored through the file
 * storage like resources (decision 009), counted in the uploader's storage space, named in
 * questions by a random `fileKey` and served by addresses signed for each viewer.
 */

/** The storage is one flat folder: the prefix keeps images apart from resources (UUID keys). */
const storageKeyOf = (fileKey: string) => `quiz-image-${fileKey}`;

/** 144 random bits, base64url: 24 characters, unguessable, safe in a path and a storage key. */
const newFileKey = () => randomBytes(18).toString('base64url');

/** Signed apart from resources: an access value for one can never open the other. */
const signedName = (fileKey: string) => `quiz-image:${fileKey}`;

/**
 * An image as a quiz's presenter hands it to `userId`: its address signed for them (12 to 13
 * hours, as resource files) and its alt text. Call it only for viewers who may see the quiz:
 * the signature is the image's only credential (an <img> sends no bearer header).
 */
export function presentQuizImage(fileAccess: FileAccess, image: QuizImage, userId: string): PresentedQuizImage {
  return { url: quizImageUrl(image.fileKey, fileAccess.sign(signedName(image.fileKey), userId)), alt: image.alt };
}

/**
 * Quiz create and edit call this in their transaction with every fileKey the questions name:
 * a key never uploaded (typed, or of another server) is 400 before anything is written.
 */
export async function assertQuizImagesExist(tx: Pick<Database, 'select'>, fileKeys: readonly string[]): Promise<void> {
  const wanted = [...new Set(fileKeys)];
  if (wanted.length === 0) return;
  const found = await tx
    .select({ fileKey: quizImages.fileKey })
    .from(quizImages)
    .where(inArray(quizImages.fileKey, wanted));
  const known = new Set(found.map((row) => row.fileKey));
  const missing = wanted.filter((key) => !known.has(key));
  if (missing.length > 0) {
    throw badRequest(
      missing.length === 1
        ? 'An image of this quiz was never uploaded. Choose the image again.'
        : `${missing.length} images of this quiz were never uploaded. Choose them again.`,
    );
  }
}

export function createQuizImagesService(
  db: Database,
  storage: FileStorage,
  fileAccess: FileAccess,
  log: Pick<FastifyBaseLogger, 'warn'>,
  options: { storageQuotaBytes?: number } = {},
) {
  const storageQuotaBytes = options.storageQuotaBytes ?? RESOURCE_LIMITS.storageQuotaBytesDefault;

  return {
    async storageSpace(teacherId: string): Promise<StorageSpace> {
      return storageSpace(storageQuotaBytes, await usedStorageBytes(db, teacherId));
    },

    /** A fresh file key and its storage key, for one upload. */
    newUpload(): { fileKey: string; storageKey: string } {
      const fileKey = newFileKey();
      return { fileKey, storageKey: storageKeyOf(fileKey) };
    },

    /**
     * Records an image whose bytes are stored, if it is an image and fits in the teacher's
     * storage space; the caller removes the file if this throws. The teacher's row is locked
     * while the space is counted (as resource uploads do), so racing uploads are counted in turn.
     */
    async createImage(teacherId: string, fileKey: string, upload: StoredUpload): Promise<UploadedQuizImage> {
      if (!(QUIZ_IMAGE_TYPES as readonly string[]).includes(upload.mimeType)) {
        throw new AppError('FILE_TYPE_NOT_ALLOWED', 'Choose an image: PNG, JPEG, GIF or WebP.', {
          errors: fieldProblem('file', 'FILE_TYPE', 'Choose an image: PNG, JPEG, GIF or WebP.', {
            accepted: [...QUIZ_IMAGE_TYPES],
          }),
        });
      }
      await db.transaction(async (tx) => {
        await claimStorageSpace(tx, teacherId, storageQuotaBytes, upload.sizeBytes);
        await tx.insert(quizImages).values({
          fileKey,
          storageKey: upload.storageKey,
          uploadedByTeacherId: teacherId,
          mimeType: upload.mimeType,
          sizeBytes: upload.sizeBytes,
        });
      });
      // The editor's thumbnail: an <img> of our origin (the CSP allows no blob: or data: images).
      return { fileKey, url: presentQuizImage(fileAccess, { fileKey, alt: '' }, teacherId).url };
    },

    /** The image an address names, for the user it was signed for (403 forged, other image, expired). */
    async findServableImage(fileKey: string, access: string) {
      fileAccess.verify(signedName(fileKey), access);
      const [row] = await db
        .select({ storageKey: quizImages.storageKey, mimeType: quizImages.mimeType, sizeBytes: quizImages.sizeBytes })
        .from(quizImages)
        .where(eq(quizImages.fileKey, fileKey))
        .limit(1);
      if (!row) throw notFound('This image no longer exists');
      return row;
    },

    presentQuizImage: (image: QuizImage, userId: string) => presentQuizImage(fileAccess, image, userId),

    /** Best effort: a file we fail to remove is logged, never a failure for the user. */
    async removeStoredFile(storageKey: string) {
      try {
        await storage.remove(storageKey);
      } catch (error) {
        log.warn({ err: error, storageKey }, 'could not remove a stored quiz image');
      }
    },
  };
}

export type QuizImagesService = ReturnType<typeof createQuizImagesService>;
