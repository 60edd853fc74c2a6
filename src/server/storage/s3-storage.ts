import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { FileNotFoundError, type ByteRange, type FileStorage } from './file-storage.ts';

export type S3StorageOptions = {
  bucket: string;
  /** An S3-compatible server (MinIO, Ceph, …); unset means AWS itself. */
  endpoint?: string | undefined;
  region: string;
  /** Both or neither; neither means the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (most self-hosted servers). */
  forcePathStyle?: boolean | undefined;
};

/**
 * Parts uploaded at once by one write. lib-storage holds about (queue size + 1) parts of
 * 5 MB in memory per upload, so 2 keeps one upload near 15 MB instead of the default's 25.
 */
const UPLOAD_QUEUE_SIZE = 2;

/** An S3 bucket (AWS or S3-compatible) through the official SDK; the bucket stays private. */
export function createS3Storage(options: S3StorageOptions): FileStorage {
  const { bucket } = options;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // The SDK's default (CRC32 on every request) is not understood by many S3-compatible
    // servers; checksums are then sent only where the API demands them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  return {
    kind: 's3',

    async write(key, body, contentType) {
      let byteCount = 0;
      let bodyError: unknown;
      // Counts the bytes as they go by, and remembers an error of the body itself: lib-storage
      // would report its own follow-up error instead. Errors thrown in from the other side (the
      // teardown after an S3 failure) are not the body's and must not hide the S3 error.
      const chunks = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
      async function* counted() {
        try {
          while (true) {
            let step: IteratorResult<Buffer>;
            try {
              step = await chunks.next();
            } catch (error) {
              bodyError = error;
              throw error;
            }
            if (step.done) return;
            byteCount += step.value.byteLength;
            yield step.value;
          }
        } finally {
          await chunks.return?.();
        }
      }
      const source = Readable.from(counted(), { objectMode: false });
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: source, ContentType: contentType },
        queueSize: UPLOAD_QUEUE_SIZE,
        // On any failure lib-storage sends AbortMultipartUpload, so no parts are left behind.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // An upload that failed on the S3 side leaves the body half read: release it.
        source.destroy();
        body.destroy();
        throw bodyError ?? error;
      }
      return byteCount;
    },

    async read(key, range?: ByteRange) {
      try {
        const response = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        if (!(response.Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
        return response.Body;
      } catch (error) {
        if (isMissingObject(error)) throw new FileNotFoundError(key);
        throw error;
      }
    },

    async remove(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible servers answer 404.
        if (!isMissingObject(error)) throw error;
      }
    },

    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        // HEAD answers carry no error body, so a missing key is a bare 404 ("NotFound").
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        throw error;
      }
    },
  };
}

/** A missing key, but not a missing bucket: that is a configuration error worth surfacing. */
function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}
