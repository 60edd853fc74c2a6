import { randomBytes } from 'node:crypto';

export type MultipartFile = { field?: string; name: string; content: Buffer; contentType?: string };

/**
 * A multipart/form-data body as a browser sends it (text fields, then files), for
 * inject() and raw HTTP requests.
 */
export function multipartBody(fields: Record<string, string>, files: MultipartFile[] = []) {
  const boundary = `----studyhall${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Small files whose first bytes are what real ones start with (enough for type detection). */
export const SAMPLE_FILES = {
  pdf: () => Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  png: () =>
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  mp4: (size = 2048) => {
    const ftyp = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
    return Buffer.concat([ftyp, Buffer.alloc(Math.max(0, size - ftyp.length), 1)]);
  },
  /** A Windows program: what a renamed .exe starts with. */
  exe: () => Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]),
  html: () => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>\n'),
  svg: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>\n'),
};
