// Hand-in rush (issue 33, benchmark): a class of 35 hands in a 10 MB file each in the last minute
// before the due time — on local disk, then on an S3-compatible store (s3rver in this process, as
// the storage tests use) — while /api/health is probed 10 times a second. Every student uploads
// their file (streamed, multipart) and hands in with the version the upload answered, all within
// the minute; then the teacher's view is read back: every hand-in handed in, not late, with its
// file, whose bytes (downloaded by the teacher's signed address) hash as sent.
//
//   npm run bench:handin                      disk and S3, 35 × 10 MB, 60 s window
//   BENCH_QUICK=1 npm run bench:handin        CI smoke: 35 × 1 MB, 20 s window
//   BENCH_STORAGE=disk npm run bench:handin   one store (disk or s3)
//
// Environment: BENCH_PORT (default 3481), BENCH_FILE_MB (10; quick 1), BENCH_STUDENTS (35),
// BENCH_WINDOW_SECONDS (60; quick 20), BENCH_OUT (the JSON file; bench/results/hand-in-*.json).
//
// Exits 1 when a hand-in is lost or wrong (quick and full), or (full mode) health's p99 during
// the rush is 200 ms or more.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { pgliteDirectory } from '#server/db/client';
import { TEST_SETUP_CODE } from '#server/testing/factories';
import { startS3TestServer, type S3TestServer } from '#server/testing/s3-test-server';
import { summariseLatencies, type LatencySummary } from './api/load.ts';
import { copyMigratedPglite } from '#server/testing/pglite-template';
import { postJson, startAppServer, type RunningServer } from './api/servers.ts';
import { ensureClientBuild } from '../scripts/client-build.mjs';
import { codeVersion } from './code-version.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const MB = 1024 * 1024;
const HEALTH_BUDGET_MS = 200;

const isQuick = ['1', 'true'].includes(process.env.BENCH_QUICK ?? '');
const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const settings = {
  port: positive('BENCH_PORT', 3481),
  fileBytes: Math.round(positive('BENCH_FILE_MB', isQuick ? 1 : 10) * MB),
  students: Math.round(positive('BENCH_STUDENTS', 35)),
  windowSeconds: positive('BENCH_WINDOW_SECONDS', isQuick ? 20 : 60),
  stores: (process.env.BENCH_STORAGE ? [process.env.BENCH_STORAGE] : ['disk', 's3']) as ('disk' | 's3')[],
};

type Student = { token: string; rollNumber: string; id: string; body: Buffer; sha256: string };

/** A student's file: text lines naming them (the type check reads text), exactly `bytes` long. */
function fileFor(rollNumber: string, bytes: number): Buffer {
  const line = Buffer.from(`${rollNumber}: my measurements for the lab report, day by day.\n`);
  const body = Buffer.alloc(bytes);
  for (let offset = 0; offset < bytes; offset += line.length) line.copy(body, offset);
  return body;
}

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function getJson(baseUrl: string, url: string, token: string) {
  const response = await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
  const json = (await response.json()) as { data: unknown; message: string };
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${json.message}`);
  return json.data;
}

/** Health probed every 100 ms until stopped: each answer's time, and any that failed. */
function probeHealth(baseUrl: string) {
  const samples: number[] = [];
  let failures = 0;
  let isRunning = true;
  const loop = (async () => {
    while (isRunning) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/api/health`);
        await response.arrayBuffer();
        if (!response.ok) failures += 1;
      } catch {
        failures += 1;
      }
      samples.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop(): Promise<LatencySummary & { failures: number }> {
      isRunning = false;
      await loop;
      return { ...summariseLatencies(samples), failures };
    },
  };
}

/** One student's last minute: upload the file, then hand in with the version the upload answered. */
async function handInWithFile(baseUrl: string, assignmentId: string, student: Student) {
  const form = new FormData();
  form.append(
    'file',
    new Blob([new Uint8Array(student.body)], { type: 'text/plain' }),
    `${student.rollNumber}-lab-report.txt`,
  );
  const upload = await fetch(`${baseUrl}/api/student/assignments/${assignmentId}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${student.token}` },
    body: form,
  });
  const uploaded = (await upload.json()) as { data: { version: number }; message: string };
  if (upload.status !== 201) throw new Error(`upload for ${student.rollNumber}: ${upload.status} ${uploaded.message}`);
  await postJson(
    baseUrl,
    `/api/student/assignments/${assignmentId}/hand-in`,
    { text: 'My report is the attached file.', version: uploaded.data.version },
    student.token,
  );
}

async function runOnStore(store: 'disk' | 's3') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studyhall-bench-handin-'));
  let s3: S3TestServer | undefined;
  let server: RunningServer | undefined;
  try {
    const env: Record<string, string> = {};
    if (store === 's3') {
      s3 = await startS3TestServer(path.join(dataDir, 's3'));
      const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
      const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
      await client.send(new CreateBucketCommand({ Bucket: 'bench-hand-ins' }));
      client.destroy();
      Object.assign(env, {
        S3_BUCKET: 'bench-hand-ins',
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      });
    }
    await copyMigratedPglite(pgliteDirectory(dataDir));
    server = await startAppServer({
      port: settings.port,
      database: { kind: 'pglite', dataDir },
      env: { ...env, UPLOAD_MAX_BYTES: String(Math.max(settings.fileBytes * 2, 20 * MB)) },
    });
    const { baseUrl } = server;
    const post = (url: string, body: unknown, token?: string) => postJson(baseUrl, url, body, token);

    const teacherToken = (await post('/api/school/setup', {
      setupCode: TEST_SETUP_CODE,
      schoolName: 'Bench School',
      name: 'Bench Teacher',
      subject: 'Science',
      email: 'bench-teacher@example.com',
      password: 'a long bench password',
    })) as string;
    const { _id: classId, joinCode } = (await post('/api/classes', { name: '10A' }, teacherToken)) as {
      _id: string;
      joinCode: string;
    };
    const students: Student[] = [];
    for (let number = 1; number <= settings.students; number += 1) {
      const rollNumber = `bench-${String(number).padStart(2, '0')}`;
      const password = 'a long bench password';
      await post('/api/student/register', {
        name: `Bench Student ${number}`,
        rollNumber,
        email: `${rollNumber}@example.com`,
        parentName: 'Bench Parent',
        parentEmail: `parent-${rollNumber}@example.com`,
        password,
        classCode: joinCode,
      });
      const token = (await post('/api/student/login', { rollNumber, password })) as string;
      const body = fileFor(rollNumber, settings.fileBytes);
      students.push({ token, rollNumber, id: '', body, sha256: sha256(body) });
    }
    // Due at the end of the window, late work refused: a hand-in after it would be lost to the rush.
    const dueAt = new Date(Date.now() + settings.windowSeconds * 1000 + 2000);
    const assignment = (await post(
      '/api/assignments',
      {
        classIds: [classId],
        title: 'Lab report',
        points: 10,
        dueAt: dueAt.toISOString(),
        acceptLate: false,
      },
      teacherToken,
    )) as { _id: string };

    // The rush: every student starts at a random moment of the window's first half.
    const health = probeHealth(baseUrl);
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      students.map(async (student) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * settings.windowSeconds * 500));
        const begun = performance.now();
        await handInWithFile(baseUrl, assignment._id, student);
        return performance.now() - begun;
      }),
    );
    const rushMs = performance.now() - started;
    const healthFigures = await health.stop();
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [String((outcome.reason as Error).message)] : [],
    );
    const handInMs = summariseLatencies(
      outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : [])),
    );

    // Read back as the teacher: every hand-in handed in on time, with its file, byte for byte.
    const rows = (await getJson(
      baseUrl,
      `/api/assignments/${assignment._id}/hand-ins?classId=${classId}&pageSize=100`,
      teacherToken,
    )) as {
      student: { _id: string; rollNumber: string };
      state: string;
      late: boolean;
    }[];
    const problems: string[] = [...refused];
    for (const student of students) {
      const row = rows.find((candidate) => candidate.student.rollNumber === student.rollNumber);
      if (!row || row.state !== 'handed-in' || row.late) {
        problems.push(`${student.rollNumber}: ${row ? `${row.state}${row.late ? ', late' : ''}` : 'no row'}`);
        continue;
      }
      const files = (await getJson(
        baseUrl,
        `/api/assignments/${assignment._id}/hand-ins/${row.student._id}/files`,
        teacherToken,
      )) as { url: string; size: number }[];
      if (files.length !== 1) {
        problems.push(`${student.rollNumber}: ${files.length} files`);
        continue;
      }
      const download = await fetch(new URL(files[0]!.url, baseUrl));
      const bytes = new Uint8Array(await download.arrayBuffer());
      if (!download.ok || sha256(bytes) !== student.sha256)
        problems.push(`${student.rollNumber}: the stored file differs (${download.status}, ${bytes.length} bytes)`);
    }
    return {
      store,
      students: settings.students,
      fileMB: settings.fileBytes / MB,
      rushSeconds: Math.round(rushMs) / 1000,
      acknowledged: settings.students - refused.length,
      lost: problems.length,
      problems: problems.slice(0, 10),
      handInMs,
      health: healthFigures,
    };
  } finally {
    await server?.stop();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

ensureClientBuild({ quiet: true });
const results = [];
for (const store of settings.stores) {
  const result = await runOnStore(store);
  results.push(result);
  console.log(
    `${store}: ${result.acknowledged}/${result.students} hand-ins of ${result.fileMB} MB acknowledged in ` +
      `${result.rushSeconds} s, ${result.lost} lost or wrong; upload + hand-in p50 ${Math.round(result.handInMs.p50)} ms, ` +
      `p99 ${Math.round(result.handInMs.p99)} ms; /api/health p99 ${Math.round(result.health.p99)} ms ` +
      `(max ${Math.round(result.health.max)} ms, ${result.health.n} probes, ${result.health.failures} failed)`,
  );
  for (const problem of result.problems) console.log(`  ${problem}`);
}
const out =
  process.env.BENCH_OUT ??
  path.join(
    root,
    'bench/results',
    `hand-in-${isQuick ? 'quick' : 'full'}-${new Date().toISOString().slice(0, 10)}.json`,
  );
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ version: codeVersion(), isQuick, settings: { ...settings }, results }, null, 2)}\n`,
);
console.log(`figures: ${path.relative(root, out)}`);

const isLost = results.some((result) => result.lost > 0);
const isSlow =
  !isQuick && results.some((result) => result.health.p99 >= HEALTH_BUDGET_MS || result.health.failures > 0);
if (isLost) console.log('FAILED: a hand-in was lost or stored wrong');
if (isSlow) console.log(`FAILED: /api/health p99 reached ${HEALTH_BUDGET_MS} ms during the rush`);
process.exit(isLost || isSlow ? 1 : 0);
