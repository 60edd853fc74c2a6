import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESOURCE_LIMITS } from '#shared/resources';
import { ApiError } from '../../lib/api.ts';
import {
  buildUploadFormData,
  checkUploadFile,
  resolveUploadSubject,
  sendMultipart,
  uploadPercent,
  type UploadFormValues,
} from './upload-request.ts';

const pdf = () => new File(['%PDF-1.4 tiny'], 'notes.pdf', { type: 'application/pdf' });

const values = (overrides: Partial<UploadFormValues> = {}): UploadFormValues => ({
  file: pdf(),
  className: ' 7B ',
  subject: '',
  description: '',
  tags: '',
  ...overrides,
});

describe('resolveUploadSubject (SPEC §5)', () => {
  it("sends the form's subject, else the teacher's, else info", () => {
    expect(resolveUploadSubject(' Physics ', 'Maths')).toBe('Physics');
    expect(resolveUploadSubject('  ', 'Maths')).toBe('Maths');
    expect(resolveUploadSubject('', undefined)).toBe('info');
    expect(resolveUploadSubject('', '  ')).toBe('info');
  });
});

describe('buildUploadFormData', () => {
  it('sends the text fields first and the file last; description and tags only when filled', () => {
    const body = buildUploadFormData(values({ description: '   ', tags: '' }), 'Maths');
    expect([...body.keys()]).toEqual(['class', 'subject', 'fileName', 'file']);
    expect(body.get('class')).toBe('7B');
    expect(body.get('subject')).toBe('Maths');
    expect(body.get('fileName')).toBe('notes.pdf');
    const file = body.get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('notes.pdf');
  });

  it('adds a filled description and tags, trimmed, before the file', () => {
    const body = buildUploadFormData(
      values({ subject: 'Physics', description: ' Chapter 1 ', tags: ' waves, light ' }),
      'Maths',
    );
    expect([...body.keys()]).toEqual(['class', 'subject', 'fileName', 'description', 'tags', 'file']);
    expect(body.get('subject')).toBe('Physics');
    expect(body.get('description')).toBe('Chapter 1');
    expect(body.get('tags')).toBe('waves, light');
  });

  it("falls back to 'info' when neither the form nor the teacher has a subject", () => {
    expect(buildUploadFormData(values(), undefined).get('subject')).toBe('info');
  });
});

describe('checkUploadFile', () => {
  it("asks for a file when there is none (SPEC §8 'Please select a file.')", () => {
    expect(checkUploadFile(null)).toBe('Please select a file.');
    expect(checkUploadFile(undefined)).toBe('Please select a file.');
  });

  it('refuses an empty file and one over the limit, with the sizes', () => {
    expect(checkUploadFile(new File([], 'empty.txt'))).toBe('The selected file is empty.');
    const big = new File(['x'.repeat(2048)], 'big.bin');
    expect(checkUploadFile(big, 1024)).toBe('This file is 2.0 KB; files up to 1.0 KB can be uploaded.');
    const huge = { name: 'huge.mp4', size: RESOURCE_LIMITS.uploadMaxBytesDefault + 5 * 1024 * 1024 } as File;
    expect(checkUploadFile(huge)).toBe('This file is 105 MB; files up to 100 MB can be uploaded.');
  });

  it('accepts a file up to the limit', () => {
    expect(checkUploadFile(pdf())).toBeNull();
    expect(checkUploadFile({ name: 'a', size: RESOURCE_LIMITS.uploadMaxBytesDefault } as File)).toBeNull();
  });
});

describe('uploadPercent', () => {
  it('is a whole percent, 100 only when every byte has gone', () => {
    expect(uploadPercent(0, 1000)).toBe(0);
    expect(uploadPercent(999, 1000)).toBe(99);
    expect(uploadPercent(1000, 1000)).toBe(100);
    expect(uploadPercent(1200, 1000)).toBe(100);
    expect(uploadPercent(5, 0)).toBe(0);
  });
});

/** A stand-in XMLHttpRequest that the test drives by hand. */
class FakeRequest {
  static last: FakeRequest;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  upload: { onprogress?: (event: ProgressEvent) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  constructor() {
    FakeRequest.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

describe('sendMultipart', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeRequest);
    const storage = new Map([
      ['token', 'secret-token'],
      ['userType', 'teacher'],
    ]);
    vi.stubGlobal('localStorage', { getItem: (key: string) => storage.get(key) ?? null });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts with the bearer token, reports real progress and unwraps the envelope', async () => {
    const seen: number[] = [];
    const body = new FormData();
    const sent = sendMultipart<{ _id: string }>('/api/teacher/upload-resource', body, {
      onProgress: (percent) => seen.push(percent),
    });
    const request = FakeRequest.last;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/teacher/upload-resource');
    expect(request.headers.authorization).toBe('Bearer secret-token');
    expect(request.body).toBe(body);
    request.progress(250, 1000);
    request.progress(1000, 1000);
    request.respond(201, JSON.stringify({ success: true, message: 'Uploaded', data: { _id: 'r1' } }));
    await expect(sent).resolves.toEqual({ message: 'Uploaded', data: { _id: 'r1' }, page: undefined });
    expect(seen).toEqual([25, 100]);
  });

  it("turns the server's refusal into an ApiError with its message, status and field errors", async () => {
    const sent = sendMultipart('/api/teacher/upload-resource', new FormData());
    FakeRequest.last.respond(
      400,
      JSON.stringify({
        success: false,
        message: 'Class is required',
        data: null,
        errors: [{ field: 'class', message: 'Class is required' }],
      }),
    );
    const error = await sent.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Class is required',
      status: 400,
      fieldErrors: [{ field: 'class', message: 'Class is required' }],
    });
  });

  it('explains an answer that is not ours (a proxy refusing a large body)', async () => {
    const sent = sendMultipart('/api/teacher/upload-resource', new FormData());
    FakeRequest.last.respond(413, '<html>Request Entity Too Large</html>');
    await expect(sent).rejects.toMatchObject({ message: 'The file is too large to upload.', status: 413 });
  });

  it('says the server cannot be reached on a network failure', async () => {
    const sent = sendMultipart('/api/teacher/upload-resource', new FormData());
    FakeRequest.last.onerror?.();
    await expect(sent).rejects.toMatchObject({
      status: 0,
      message: expect.stringContaining('Cannot reach the server'),
    });
  });

  it('aborts when its signal fires, rejecting with an AbortError', async () => {
    const controller = new AbortController();
    const sent = sendMultipart('/api/teacher/upload-resource', new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(sent).rejects.toMatchObject({ name: 'AbortError' });
    await expect(
      sendMultipart('/api/teacher/upload-resource', new FormData(), { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
