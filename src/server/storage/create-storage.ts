import path from 'node:path';
import type { AppConfig } from '../config.ts';
import { createDiskStorage } from './disk-storage.ts';
import type { FileStorage } from './file-storage.ts';

/** The configured store: the S3 bucket when S3_BUCKET is set, otherwise DATA_DIR/uploads on disk. */
export async function createFileStorage(config: Pick<AppConfig, 'dataDir' | 's3'>): Promise<FileStorage> {
  if (config.s3) {
    // Loaded only when used: the AWS SDK is large and most installations keep files on disk.
    const { createS3Storage } = await import('./s3-storage.ts');
    return createS3Storage(config.s3);
  }
  return createDiskStorage(path.join(config.dataDir, 'uploads'));
}
