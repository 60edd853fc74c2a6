import { uploadQuizImage } from '#shared/contract/quiz-images';
import { sendMultipart } from '../../../lib/multipart-upload.ts';

/**
 * Sends one chosen image (decision 036). Loaded when a teacher picks a file, so the editor's
 * routes do not carry the upload contract on first paint (their 200 kB budget, decision 014).
 */
export async function uploadQuizImageFile(file: File, signal: AbortSignal) {
  const body = new FormData();
  body.append('file', file, file.name);
  return (await sendMultipart(uploadQuizImage, body, { signal })).data;
}
