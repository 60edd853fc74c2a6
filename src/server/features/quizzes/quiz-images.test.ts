import { readdir } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quizImages } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { multipartBody, SAMPLE_FILES, type MultipartFile } from '../../testing/multipart.ts';
import { bearer, createTestApp, TEST_JWT_SECRET, type TestApp } from '../../testing/test-app.ts';
import { createFileAccess } from '../resources/file-access.ts';
import { assertQuizImagesExist, presentQuizImage } from './quiz-images.ts';

let t: TestApp;
let teacher: Awaited<ReturnType<typeof signUpTeacher>>;
let student: Awaited<ReturnType<typeof signUpStudent>>;
const fileAccess = createFileAccess(TEST_JWT_SECRET);
const HOUR_MS = 60 * 60 * 1000;

const png: MultipartFile = { name: 'figure.png', content: SAMPLE_FILES.png(), contentType: 'image/png' };
/** The first bytes of each image format are what its type is decided by. */
const IMAGES: Record<string, MultipartFile> = {
  'image/jpeg': {
    name: 'photo.jpg',
    content: Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64)]),
    contentType: 'image/jpeg',
  },
  'image/gif': {
    name: 'animation.gif',
    content: Buffer.concat([Buffer.from('GIF89a'), Buffer.from('0100010000ff002c', 'hex'), Buffer.alloc(32)]),
    contentType: 'image/gif',
  },
  'image/webp': {
    name: 'picture.webp',
    content: Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from('24000000', 'hex'),
      Buffer.from('WEBPVP8 '),
      Buffer.alloc(32),
    ]),
    contentType: 'image/webp',
  },
};

function upload(files: MultipartFile[], token: string | null = teacher.token, app: TestApp = t) {
  const { payload, headers } = multipartBody({}, files);
  return app.call({
    method: 'POST',
    url: '/api/quizzes/images',
    headers: { ...headers, ...(token ? bearer(token) : {}) },
    payload,
  });
}

async function uploadOk(file: MultipartFile = png): Promise<string> {
  const response = await upload([file]);
  expect(response.status, response.raw).toBe(201);
  return response.body.data.fileKey as string;
}

const storedImages = async (app: TestApp = t) =>
  (await readdir(app.uploadsFolder!)).filter((name) => name.startsWith('quiz-image-'));

beforeAll(async () => {
  t = await createTestApp();
  teacher = await signUpTeacher(t);
  student = await signUpStudent(t);
});
afterAll(async () => t.close());

describe('POST /api/quizzes/images', () => {
  it('stores a PNG and serves it by the address a quiz signs for a viewer', async () => {
    const fileKey = await uploadOk();
    expect(fileKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const [row] = await t.database.db.select().from(quizImages).where(eq(quizImages.fileKey, fileKey));
    expect(row).toMatchObject({
      uploadedByTeacherId: teacher.profile._id,
      mimeType: 'image/png',
      sizeBytes: png.content.length,
      storageKey: `quiz-image-${fileKey}`,
    });

    // The uploader's thumbnail address serves it to them.
    const thumbnail = await t.app.inject({ method: 'GET', url: (await upload([png])).body.data.url as string });
    expect(thumbnail.statusCode).toBe(200);
    const image = presentQuizImage(fileAccess, { fileKey, alt: 'A unit square' }, student.profile._id);
    expect(image.alt).toBe('A unit square');
    const served = await t.app.inject({ method: 'GET', url: image.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png.content)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.content.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=3600',
      'content-security-policy': "default-src 'none'; sandbox",
    });
  });

  it.each(Object.entries(IMAGES))('accepts %s, typed by its bytes', async (mimeType, file) => {
    // The browser's claim does not matter: sent as octet-stream under another name.
    const fileKey = await uploadOk({ ...file, name: 'upload.bin', contentType: 'application/octet-stream' });
    const [row] = await t.database.db.select().from(quizImages).where(eq(quizImages.fileKey, fileKey));
    expect(row!.mimeType).toBe(mimeType);
  });

  it.each([
    ['a PDF', { name: 'notes.pdf', content: SAMPLE_FILES.pdf(), contentType: 'application/pdf' }],
    ['an SVG (scripts run in it)', { name: 'figure.svg', content: SAMPLE_FILES.svg(), contentType: 'image/svg+xml' }],
    ['a program named .png', { name: 'figure.png', content: SAMPLE_FILES.exe(), contentType: 'image/png' }],
    ['an MP4', { name: 'clip.mp4', content: SAMPLE_FILES.mp4(), contentType: 'video/mp4' }],
  ])('refuses %s and keeps nothing of it', async (_label, file) => {
    const before = await storedImages();
    const response = await upload([file]);
    expect(response.status, response.raw).toBe(415);
    expect(response.body.code).toBe('FILE_TYPE_NOT_ALLOWED');
    expect(await storedImages()).toEqual(before);
  });

  it('refuses an image over 5 MB (413) and keeps nothing of it', async () => {
    const before = await storedImages();
    const rowsBefore = await t.database.db.select().from(quizImages);
    const big = { ...png, content: Buffer.concat([png.content, Buffer.alloc(5 * 1024 * 1024)]) };
    const response = await upload([big]);
    expect(response.status, response.raw).toBe(413);
    expect(response.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await storedImages()).toEqual(before);
    expect(await t.database.db.select().from(quizImages)).toHaveLength(rowsBefore.length);
  });

  it('asks for a file when none is sent', async () => {
    const response = await upload([]);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: 'file', code: 'FILE_MISSING', params: { kind: 'image' }, message: 'Choose an image.' },
    ]);
  });

  it('is for teachers only: a student is 403, no session 401', async () => {
    const before = await storedImages();
    expect((await upload([png], student.token)).status).toBe(403);
    expect((await upload([png], null)).status).toBe(401);
    expect(await storedImages()).toEqual(before);
  });

  it("counts in the teacher's storage space, as resource uploads do", async () => {
    const small = await createTestApp({ storageQuotaBytes: png.content.length * 2 + 10 });
    try {
      const owner = await signUpTeacher(small);
      expect((await upload([png], owner.token, small)).status).toBe(201);
      expect((await upload([png], owner.token, small)).status).toBe(201);
      const limits = await small.call({
        method: 'GET',
        url: '/api/teacher/upload-limits',
        headers: bearer(owner.token),
      });
      expect(limits.body.data.storageUsedBytes).toBe(png.content.length * 2);
      const full = await upload([png], owner.token, small);
      expect(full.status).toBe(413);
      expect(full.body.code).toBe('STORAGE_QUOTA_EXCEEDED');
      expect(await storedImages(small)).toHaveLength(2);
    } finally {
      await small.close();
    }
  });
});

describe('GET /api/quizzes/images/:fileKey', () => {
  let fileKey: string;
  let otherKey: string;
  beforeAll(async () => {
    fileKey = await uploadOk();
    otherKey = await uploadOk();
  });
  const get = (url: string) => t.call({ method: 'GET', url });

  it('refuses an address without its access value (403)', async () => {
    const response = await get(`/api/quizzes/images/${fileKey}`);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
  });

  it('refuses a forged access value and one signed for another image (403)', async () => {
    const real = fileAccess.sign(`quiz-image:${fileKey}`, student.profile._id);
    const [userId, expires] = real.split('.');
    const forged = `${userId}.${expires}.${'A'.repeat(43)}`;
    expect((await get(`/api/quizzes/images/${fileKey}?access=${forged}`)).status).toBe(403);
    const otherImage = presentQuizImage(fileAccess, { fileKey: otherKey, alt: 'x' }, student.profile._id).url;
    expect((await get(otherImage.replace(otherKey, fileKey))).status).toBe(403);
    // A resource's access value for the same name does not open an image either.
    const resourceAccess = fileAccess.sign(fileKey, student.profile._id);
    expect((await get(`/api/quizzes/images/${fileKey}?access=${resourceAccess}`)).status).toBe(403);
    // Another user's id with this user's signature.
    const stolen = real.replace(student.profile._id, teacher.profile._id);
    expect((await get(`/api/quizzes/images/${fileKey}?access=${stolen}`)).status).toBe(403);
  });

  it('refuses an expired address (403) and serves a fresh one', async () => {
    const yesterday = createFileAccess(TEST_JWT_SECRET, () => Date.now() - 24 * HOUR_MS);
    const expired = presentQuizImage(yesterday, { fileKey, alt: 'x' }, student.profile._id).url;
    const response = await get(expired);
    expect(response.status).toBe(403);
    expect(response.body.message).toMatch(/expired/);
    expect((await get(presentQuizImage(fileAccess, { fileKey, alt: 'x' }, student.profile._id).url)).status).toBe(200);
  });

  it('answers 404 for a signed address of an image that does not exist, 400 for a key that cannot be one', async () => {
    const unknown = 'A'.repeat(24);
    expect(
      (await get(presentQuizImage(fileAccess, { fileKey: unknown, alt: 'x' }, teacher.profile._id).url)).status,
    ).toBe(404);
    expect((await get('/api/quizzes/images/..%2F..%2Fetc?access=x')).status).toBe(400);
  });
});

describe('assertQuizImagesExist', () => {
  it('passes for uploaded keys and refuses a key never uploaded with 400', async () => {
    const fileKey = await uploadOk();
    await expect(assertQuizImagesExist(t.database.db, [])).resolves.toBeUndefined();
    await expect(assertQuizImagesExist(t.database.db, [fileKey, fileKey])).resolves.toBeUndefined();
    const refusal = await assertQuizImagesExist(t.database.db, [fileKey, 'B'.repeat(24)]).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe('VALIDATION_FAILED');
    expect((refusal as AppError).message).toMatch(/never uploaded/);
  });
});
