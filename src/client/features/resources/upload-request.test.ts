import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uploadResource } from '#shared/contract/resources';
import { RESOURCE_LIMITS } from '#shared/resources';
import { ApiError, type FailureCode } from '../../lib/api.ts';
import { failureText } from '../../lib/error-messages.ts';
import { onSessionEnded } from '../../lib/session.ts';
import {
  buildUploadFormData,
  checkUploadFile,
  describeStorageUsage,
  fileRefusal,
  formatUploadSize,
  resolveUploadSubject,
  sendMultipart,
  uploadPercent,
  usableStorageUsage,
  usableUploadLimit,
  type UploadFormValues,
} from './upload-request.ts';

// The client's texts are worded in the active locale: English, the code's own.
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

const CLASS_ID = '7b000000-0000-4000-8000-000000000000';

const pdf = () => new File(['%PDF-1.4 tiny'], 'notes.pdf', { type: 'application/pdf' });

const values = (overrides: Partial<UploadFormValues> = {}): UploadFormValues => ({
  file: pdf(),
  classId: CLASS_ID,
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
    expect([...body.keys()]).toEqual(['classId', 'subject', 'fileName', 'file']);
    expect(body.get('classId')).toBe(CLASS_ID);
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
    expect([...body.keys()]).toEqual(['classId', 'subject', 'fileName', 'description', 'tags', 'file']);
    expect(body.get('subject')).toBe('Physics');
    expect(body.get('description')).toBe('Chapter 1');
    expect(body.get('tags')).toBe('waves, light');
  });

  it("falls back to 'info' when neither the form nor the teacher has a subject", () => {
    expect(buildUploadFormData(values(), undefined).get('subject')).toBe('info');
  });
});

const limit = RESOURCE_LIMITS.uploadMaxBytesDefault;

describe('checkUploadFile', () => {
  it("asks for a file when there is none (SPEC §8 'Please select a file.')", () => {
    expect(checkUploadFile(null, limit)).toBe('Please select a file.');
    expect(checkUploadFile(undefined, limit)).toBe('Please select a file.');
  });

  it('refuses an empty file and one over the limit, with the sizes', () => {
    expect(checkUploadFile(new File([], 'empty.txt'), limit)).toBe('The selected file is empty.');
    const big = new File(['x'.repeat(2048)], 'big.bin');
    expect(checkUploadFile(big, 1024)).toBe('This file is 2 KB; files up to 1 KB can be uploaded.');
    const huge = { name: 'huge.mp4', size: limit + 5 * 1024 * 1024 } as File;
    expect(checkUploadFile(huge, limit)).toBe('This file is 105 MB; files up to 100 MB can be uploaded.');
  });

  it("follows the server's limit, not the default", () => {
    const sixMegabytes = { name: 'clip.mp4', size: 6 * 1024 * 1024 } as File;
    expect(checkUploadFile(sixMegabytes, 5 * 1024 * 1024)).toBe('This file is 6 MB; files up to 5 MB can be uploaded.');
    expect(checkUploadFile(sixMegabytes, 500 * 1024 * 1024)).toBeNull();
  });

  it('accepts a file up to the limit', () => {
    expect(checkUploadFile(pdf(), limit)).toBeNull();
    expect(checkUploadFile({ name: 'a', size: limit } as File, limit)).toBeNull();
  });

  it('refuses a file over the storage space left, saying what is left; up to the last byte fits', () => {
    const sixMegabytes = { name: 'clip.mp4', size: 6 * 1024 * 1024 } as File;
    expect(checkUploadFile(sixMegabytes, limit, 5.5 * 1024 * 1024)).toBe(
      'This file is 6 MB, but only 5.5 MB of your storage space is left. Delete files you no longer need to make room.',
    );
    expect(checkUploadFile(sixMegabytes, limit, 6 * 1024 * 1024 - 1)).not.toBeNull();
    expect(checkUploadFile(sixMegabytes, limit, 6 * 1024 * 1024)).toBeNull();
    expect(checkUploadFile(sixMegabytes, limit, undefined)).toBeNull(); // not known yet: the server checks
  });
});

describe('usableStorageUsage and describeStorageUsage', () => {
  // The sentence is translated: English, the code's own text.

  it('reads the storage space of an upload-limits answer', () => {
    const usage = usableStorageUsage({
      uploadMaxBytes: limit,
      storageQuotaBytes: 5 * 1024 ** 3,
      storageUsedBytes: 1.25 * 1024 ** 3,
      storageLeftBytes: 3.75 * 1024 ** 3,
    });
    expect(usage).toEqual({ quotaBytes: 5 * 1024 ** 3, usedBytes: 1.25 * 1024 ** 3, leftBytes: 3.75 * 1024 ** 3 });
    expect(describeStorageUsage(usage!)).toBe('1.3 GB of 5 GB used');
    expect(describeStorageUsage({ quotaBytes: 5 * 1024 ** 3, usedBytes: 0, leftBytes: 5 * 1024 ** 3 })).toBe(
      '0 bytes of 5 GB used',
    );
  });

  it('has nothing to show while loading or for an answer without usable figures (an older server)', () => {
    for (const answer of [
      undefined,
      null,
      { uploadMaxBytes: limit },
      { storageQuotaBytes: 0, storageUsedBytes: 0, storageLeftBytes: 0 },
      { storageQuotaBytes: 10, storageUsedBytes: -1, storageLeftBytes: 11 },
      { storageQuotaBytes: '10', storageUsedBytes: 0, storageLeftBytes: 10 },
    ]) {
      expect(usableStorageUsage(answer)).toBeUndefined();
    }
  });
});

describe('usableUploadLimit and formatUploadSize', () => {
  it("takes the server's limit when it is a positive whole number of bytes", () => {
    expect(usableUploadLimit(5 * 1024 * 1024)).toBe(5 * 1024 * 1024);
    expect(formatUploadSize(usableUploadLimit(5 * 1024 * 1024))).toBe('5 MB');
  });

  it('falls back to the default while loading or when the answer is unusable', () => {
    for (const value of [undefined, null, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1048576']) {
      expect(usableUploadLimit(value)).toBe(RESOURCE_LIMITS.uploadMaxBytesDefault);
    }
    expect(formatUploadSize(usableUploadLimit(undefined))).toBe('100 MB');
  });
});

describe('fileRefusal', () => {
  it('puts a refusal of the file itself (too large, no space, its type) under the file field, in the client’s words', () => {
    const refusal = (code: FailureCode) =>
      fileRefusal(new ApiError(code, { serverMessage: 'the server’s own words', endpoint: uploadResource }));
    expect(refusal('FILE_TYPE_NOT_ALLOWED')).toMatch(/^This type of file cannot be shared\. Upload a document/);
    expect(refusal('PAYLOAD_TOO_LARGE')).toBe('The file is too large to upload.');
    expect(refusal('STORAGE_QUOTA_EXCEEDED')).toMatch(/^This file does not fit in your storage space\./);
  });

  it('leaves other failures to the toast and the field errors', () => {
    expect(fileRefusal(new ApiError('VALIDATION_FAILED', { serverMessage: 'Class is required' }))).toBeNull();
    expect(fileRefusal(new ApiError('UNREACHABLE', { serverMessage: 'Cannot reach the server.' }))).toBeNull();
    expect(fileRefusal(new Error('boom'))).toBeNull();
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
  getResponseHeader(): string | null {
    return null;
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
    const sent = sendMultipart(uploadResource, body, {
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

  it("turns the server's refusal into an ApiError with its message, code and field errors", async () => {
    const sent = sendMultipart(uploadResource, new FormData());
    FakeRequest.last.respond(
      400,
      JSON.stringify({
        success: false,
        code: 'VALIDATION_FAILED',
        message: 'Class is required',
        data: null,
        errors: [{ field: 'class', code: 'REQUIRED', message: 'Class is required' }],
      }),
    );
    const error = await sent.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Class is required',
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'class', code: 'REQUIRED', message: 'Class is required' }],
    });
  });

  it('tells the session listeners when the stored token is refused (signed out elsewhere)', async () => {
    const heard: string[] = [];
    const stop = onSessionEnded((message) => heard.push(message));
    const sent = sendMultipart(uploadResource, new FormData());
    FakeRequest.last.respond(
      401,
      JSON.stringify({ success: false, code: 'SIGNED_OUT', message: 'You were signed out', data: null }),
    );
    await expect(sent).rejects.toMatchObject({ code: 'SIGNED_OUT' });
    stop();
    expect(heard).toEqual([failureText('SIGNED_OUT')]);
  });

  it('explains an answer that is not ours (a proxy refusing a large body)', async () => {
    const sent = sendMultipart(uploadResource, new FormData());
    FakeRequest.last.respond(413, '<html>Request Entity Too Large</html>');
    await expect(sent).rejects.toMatchObject({
      message: 'The file is too large to upload.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('says the server cannot be reached on a network failure', async () => {
    const sent = sendMultipart(uploadResource, new FormData());
    FakeRequest.last.onerror?.();
    await expect(sent).rejects.toMatchObject({
      code: 'UNREACHABLE',
      message: expect.stringContaining('Cannot reach the server'),
    });
  });

  it('aborts when its signal fires, rejecting with an AbortError', async () => {
    const controller = new AbortController();
    const sent = sendMultipart(uploadResource, new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(sent).rejects.toMatchObject({ name: 'AbortError' });
    await expect(sendMultipart(uploadResource, new FormData(), { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
