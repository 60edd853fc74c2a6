import { crc32 } from '../demo/demo-files.ts';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';

export type MultipartFile = { field?: string; name: string; content: Buffer; contentType?: string };

/**
 * A multipart/form-data body as a browser sends it (text fields, then files), for
 * inject() and raw HTTP requests.
 */
export function multipartBody(fields: Record<string, string> | [string, string][], files: MultipartFile[] = []) {
  const boundary = `----studyhall${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  // Pairs can repeat a name or use any name (the fuzzer sends __proto__ fields).
  for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) {
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
  /** A real zip archive holding one stored file (what .docx, .xlsx and .zip files are). */
  zip: () => zipWithOneFile('notes.txt', Buffer.from('hello from a zip\n')),
  /** A Windows program: what a renamed .exe starts with. */
  exe: () => Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]),
  html: () => Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>\n'),
  svg: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>\n'),
};

/** A minimal, valid zip: one stored (uncompressed) entry, its central directory and the end record. */
function zipWithOneFile(name: string, content: Buffer): Buffer {
  const nameBytes = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const centralOffset = local.length + nameBytes.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, nameBytes, content, central, nameBytes, end]);
}

/**
 * Starts an upload over real HTTP, sends half of the body, waits `holdMs` (long enough for the
 * server to start storing it) and hangs up, as a closed tab or a lost connection would.
 */
export function uploadHalfThenHangUp(options: {
  port: number;
  token: string;
  body: ReturnType<typeof multipartBody>;
  holdMs: number;
}): Promise<void> {
  const { payload, headers } = options.body;
  return new Promise<void>((resolve) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port: options.port,
      method: 'POST',
      path: '/api/teacher/upload-resource',
      headers: { ...headers, authorization: `Bearer ${options.token}`, 'content-length': String(payload.length) },
    });
    request.on('error', () => resolve());
    request.on('close', () => resolve());
    request.write(payload.subarray(0, payload.length / 2), () => setTimeout(() => request.destroy(), options.holdMs));
  });
}
