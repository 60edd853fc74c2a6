import { readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
// @ts-expect-error s3rver ships no type declarations; the little used here is typed below.
import S3rverUntyped from 's3rver';

/** A stand-in for S3 in the tests and the benches (storage.test.ts, bench:handin): local, in this process. */

// An S3-compatible server in this process: s3rver, plus the two calls it lacks.

/**
 * s3rver 3.7.1 (the last release) stores multipart uploads but answers AbortMultipartUpload
 * with 405 and ListMultipartUploads with 501 (jamhall/s3rver#784 adds the former, unmerged).
 * These two handlers act on s3rver's own upload folders (`<bucket>/._S3rver_uploads/<id>/`,
 * holding `key` and the parts), so an abort really removes the stored parts and the listing
 * shows what s3rver really holds. Everything else is s3rver's.
 */
function withMultipartHousekeeping(
  directory: string,
  s3rverHandler: (req: IncomingMessage, res: ServerResponse) => void,
) {
  const uploadsFolder = (bucket: string) => path.join(directory, bucket, '._S3rver_uploads');
  const counts = { aborted: 0 };
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const [bucket = '', ...keyParts] = url.pathname.slice(1).split('/').map(decodeURIComponent);
    const key = keyParts.join('/');
    if (req.method === 'DELETE' && key && url.searchParams.has('uploadId')) {
      const uploadFolder = path.join(uploadsFolder(bucket), path.basename(url.searchParams.get('uploadId')!));
      const storedKey = await readFile(path.join(uploadFolder, 'key'), 'utf8').catch(() => undefined);
      if (storedKey !== key) {
        res.writeHead(404, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code></Error>');
        return;
      }
      await rm(uploadFolder, { recursive: true, force: true });
      counts.aborted += 1;
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && !key && url.searchParams.has('uploads')) {
      const uploadIds = await readdir(uploadsFolder(bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        uploadIds.map(async (id) => {
          const storedKey = await readFile(path.join(uploadsFolder(bucket), id, 'key'), 'utf8');
          return `<Upload><Key>${storedKey}</Key><UploadId>${id}</UploadId></Upload>`;
        }),
      );
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult>' +
          `<Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`,
      );
      return;
    }
    s3rverHandler(req, res);
  };
  return { counts, handler };
}

type S3rverInstance = {
  getMiddleware(): (req: IncomingMessage, res: ServerResponse) => void;
  logger: { close(): void };
};
const S3rver = S3rverUntyped as new (options: { silent: boolean; directory: string }) => S3rverInstance;

export type S3TestServer = { endpoint: string; counts: { aborted: number }; close(): Promise<void> };

export async function startS3TestServer(directory: string): Promise<S3TestServer> {
  const s3rver = new S3rver({ silent: true, directory });
  const { counts, handler } = withMultipartHousekeeping(directory, s3rver.getMiddleware());
  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      s3rver.logger.close();
    },
  };
}
