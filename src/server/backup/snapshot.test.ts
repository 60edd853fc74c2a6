import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { RESOURCE_LIMITS } from '#shared/resources';
import { buildApp } from '../app.ts';
import { openDatabase, pgliteDirectory, type DatabaseHandle } from '../db/client.ts';
import { createDiskStorage } from '../storage/disk-storage.ts';
import { buildSchoolSetup, TEST_SETUP_CODE } from '../testing/factories.ts';
import { multipartBody, SAMPLE_FILES } from '../testing/multipart.ts';
import { TEST_JWT_SECRET } from '../testing/test-app.ts';
import { newBackupStaging, takeSnapshot } from './snapshot.ts';
import { patience } from '../testing/patience.ts';

/**
 * The snapshot behind `npm run backup` (decision 019), in process: taken while teachers
 * upload and delete files, each copy of the database must find every file its rows refer
 * to, with its size, and nothing else.
 */
let dataDir: string;
let database: DatabaseHandle;
let app: FastifyInstance;
let teacherToken: string;
/** The teacher's class, which every upload goes into (decision 031). */
let classId: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'studyhall-snapshot-'));
  // The embedded database on disk, as the server has it; started from the migrated template when there is one.
  const template = process.env.TEST_DATABASE_URL ? undefined : readFileSync(inject('pgliteTemplatePath'));
  database = await openDatabase({
    kind: 'pglite',
    dataDir: pgliteDirectory(dataDir),
    ...(template ? { loadDataDir: new Blob([template]) } : {}),
  });
  app = await buildApp({
    database,
    jwtSecret: TEST_JWT_SECRET,
    logLevel: 'silent',
    storage: await createDiskStorage(path.join(dataDir, 'uploads')),
    uploadMaxBytes: RESOURCE_LIMITS.uploadMaxBytesDefault,
    setupCode: TEST_SETUP_CODE,
  });
  const teacher = buildSchoolSetup(); // the school's first teacher (decision 030)
  expect((await app.inject({ method: 'POST', url: '/api/school/setup', payload: teacher })).statusCode).toBe(201);
  teacherToken = (await app.inject({ method: 'POST', url: '/api/teacher/login', payload: teacher })).json().data;
  const created = await app.inject({
    method: 'POST',
    url: '/api/classes',
    headers: { authorization: `Bearer ${teacherToken}` },
    payload: { name: 'Snapshot' },
  });
  expect(created.statusCode).toBe(201);
  classId = created.json().data._id;
}, patience(120_000));

afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Each worker's uploads so far. */
const uploadsBy = new Map<number, number>();

/** Uploads and deletes files until told to stop; resolves with how many of each it did. */
function keepUploadingAndDeleting(worker: number, shouldStop: () => boolean) {
  return (async () => {
    const kept: string[] = [];
    let uploaded = 0;
    let deleted = 0;
    while (!shouldStop()) {
      const content = Buffer.concat([
        SAMPLE_FILES.pdf(),
        Buffer.alloc(1000 + ((uploaded * 97 + worker) % 5000), worker),
      ]);
      const { payload, headers } = multipartBody({ classId }, [{ name: `w${worker}-${uploaded}.pdf`, content }]);
      const response = await app.inject({
        method: 'POST',
        url: '/api/teacher/upload-resource',
        headers: { ...headers, authorization: `Bearer ${teacherToken}` },
        payload,
      });
      expect(response.statusCode).toBe(201);
      kept.push(response.json().data._id);
      uploaded += 1;
      uploadsBy.set(worker, uploaded);
      if (uploaded % 2 === 0) {
        const oldest = kept.shift()!;
        const removal = await app.inject({
          method: 'DELETE',
          url: `/api/teacher/resources/${oldest}`,
          headers: { authorization: `Bearer ${teacherToken}` },
        });
        expect(removal.statusCode).toBe(200);
        deleted += 1;
      }
    }
    return { uploaded, deleted };
  })();
}

describe('takeSnapshot', () => {
  it(
    'copies, while files come and go, a database whose every file is beside it, and no other file',
    { timeout: patience(120_000) },
    async () => {
      let isStopped = false;
      const workerIds = [1, 2, 3];
      const workers = workerIds.map((worker) => keepUploadingAndDeleting(worker, () => isStopped));
      // A worker ends only when told to, or with its failure: a wait for the workers ends with that.
      const aWorkerFailed = Promise.race(workers);
      /** Until every worker has uploaded once more (the event, not a guessed time: decision 042). */
      const everyWorkerUploads = async () => {
        const before = workerIds.map((worker) => uploadsBy.get(worker) ?? 0);
        while (workerIds.some((worker, index) => (uploadsBy.get(worker) ?? 0) === before[index])) {
          await Promise.race([aWorkerFailed, new Promise((resolve) => setTimeout(resolve, 20))]);
        }
      };
      const snapshots: string[] = [];
      try {
        // Snapshots while the workers are busy: after their first uploads, not before, and files
        // come and go between one snapshot and the next.
        await everyWorkerUploads();
        for (let round = 0; round < 3; round += 1) {
          const staging = newBackupStaging(dataDir);
          snapshots.push(staging);
          const manifest = await takeSnapshot(dataDir, database, staging);
          expect(manifest.files.missing).toEqual([]);
          await everyWorkerUploads();
        }
      } finally {
        isStopped = true;
      }
      const activity = await Promise.all(workers);
      // The snapshots were taken while the workers were busy, not before or after.
      expect(activity.every(({ uploaded, deleted }) => uploaded >= 3 && deleted >= 1)).toBe(true);

      for (const staging of snapshots) {
        const copy = await openDatabase({ kind: 'pglite', dataDir: path.join(staging, 'pglite'), isMigrated: false });
        try {
          const rows = (await copy.whileExclusive!((query) =>
            query('select storage_key, size_bytes::int as size from resources where storage_key is not null'),
          )) as { storage_key: string; size: number }[];
          const files = await readdir(path.join(staging, 'uploads'));
          expect(files.sort()).toEqual(rows.map((row) => row.storage_key).sort());
          for (const row of rows) {
            expect((await stat(path.join(staging, 'uploads', row.storage_key))).size).toBe(row.size);
          }
          expect(rows.length).toBeGreaterThan(0);
        } finally {
          await copy.close();
          await rm(staging, { recursive: true, force: true });
        }
      }
      // The live uploads folder still holds its own files (links, not moves).
      expect((await readdir(path.join(dataDir, 'uploads'))).length).toBeGreaterThan(1);
    },
  );
});
