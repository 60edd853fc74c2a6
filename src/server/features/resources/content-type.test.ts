import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  IMAGE_MIME_TYPES,
  INLINE_MIME_TYPES,
  RESOURCE_MIME_TYPES_BY_CONTENT,
  TEXT_BY_EXTENSION,
  ZIP_FAMILY_BY_EXTENSION,
} from '#shared/file-types';
import { QUIZ_IMAGE_TYPES } from '#shared/quiz-images';
import { SAMPLE_FILES } from '../../testing/multipart.ts';
import { detectContentType, isInlineType } from './content-type.ts';

// Issue 30 point 11: the types an upload may have are one list in src/shared/file-types.ts; the
// server's content check, the inline rule and the quiz images read it, none keeps a copy.
describe('the upload types, one list in shared', () => {
  it('decide what the content check accepts and what opens in the browser', async () => {
    expect(await detectContentType(SAMPLE_FILES.pdf(), 'notes.pdf')).toBe('application/pdf');
    expect(await detectContentType(SAMPLE_FILES.png(), 'figure.png')).toBe('image/png');
    expect(await detectContentType(SAMPLE_FILES.mp4(), 'clip.mp4')).toBe('video/mp4');
    expect(await detectContentType(SAMPLE_FILES.zip(), 'essay.docx')).toBe(ZIP_FAMILY_BY_EXTENSION['.docx']);
    expect(await detectContentType(SAMPLE_FILES.svg(), 'logo.svg')).toBe(TEXT_BY_EXTENSION['.svg']);
    expect(await detectContentType(SAMPLE_FILES.exe(), 'notes.pdf')).toBeUndefined();
    expect(INLINE_MIME_TYPES.every(isInlineType)).toBe(true);
    expect(['image/svg+xml', 'text/html', ZIP_FAMILY_BY_EXTENSION['.docx']!].some(isInlineType)).toBe(false);
  });

  it('hold every inline type among the accepted ones, and the quiz images among the inline ones', () => {
    expect(RESOURCE_MIME_TYPES_BY_CONTENT).toEqual(expect.arrayContaining([...INLINE_MIME_TYPES]));
    expect(INLINE_MIME_TYPES).toEqual(expect.arrayContaining([...IMAGE_MIME_TYPES]));
    expect(QUIZ_IMAGE_TYPES).toBe(IMAGE_MIME_TYPES);
  });

  it('are named by no server module beside the shared list', () => {
    const source = readFileSync(new URL('./content-type.ts', import.meta.url), 'utf8');
    const copied = RESOURCE_MIME_TYPES_BY_CONTENT.filter((type) => source.includes(`'${type}'`));
    expect(copied).toEqual([]);
  });
});
