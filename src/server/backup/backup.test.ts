import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '#shared/resources';
import { buildNewQuiz, buildStudentRegistration, buildSchoolSetup } from '../testing/factories.ts';
import { multipartBody, SAMPLE_FILES } from '../testing/multipart.ts';
import { callJson, runNpmScript, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { LOCK_FILE_NAME } from './data-dir-lock.ts';
import { MANIFEST_NAME } from './manifest.ts';
import { patience } from '../testing/patience.ts';

/**
 * Issue 9, backups: `npm run backup` and `npm run restore` on the embedded database and
 * DATA_DIR/uploads, through the real commands and real server processes. A school is seeded
 * through the API; its backup restored into a fresh DATA_DIR must answer the same reads
 * with the same tokens, and serve the same file bytes.
 */
const root = mkdtempSync(path.join(tmpdir(), 'studyhall-backup-'));
const dataDir = (name: string) => path.join(root, name);
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const server of running) server.kill();
  await Promise.all(running.map((server) => server.exited));
  rmSync(root, { recursive: true, force: true });
});

async function startServer(directory: string) {
  const server = await startServerProcess({ DATA_DIR: directory });
  running.push(server);
  return server;
}

const backup = (directory: string, output: string, environment: Record<string, string> = {}) =>
  runNpmScript('backup', ['--output', output], { DATA_DIR: directory, ...environment });
const restore = (directory: string, archive: string, extra: string[] = []) =>
  runNpmScript('restore', [archive, ...extra], { DATA_DIR: directory });

type Seeded = {
  teacherToken: string;
  studentTokens: [string, string];
  quizId: string;
  /** Bytes of each uploaded file, by resource id. */
  files: Map<string, Buffer>;
};

/** A small school through the API: accounts, a quiz with a submitted and an open attempt, tasks, files, a link, a star. */
async function seedSchool(server: ServerProcess): Promise<Seeded> {
  const call = (method: string, url: string, options?: { token?: string; body?: unknown }) =>
    callJson(server.baseUrl, method, url, options);
  const className = 'Backup 7B';
  const teacher = buildSchoolSetup(); // the school's first teacher (decision 030)
  expect((await call('POST', '/api/school/setup', { body: teacher })).status).toBe(201);
  const teacherToken = (await call('POST', '/api/teacher/login', { body: teacher })).body.data as string;
  const made = await call('POST', '/api/classes', { token: teacherToken, body: { name: className } });
  expect(made.status).toBe(201);
  const classId = made.body.data._id as string;
  const studentTokens: string[] = [];
  for (let index = 0; index < 2; index += 1) {
    const student = buildStudentRegistration({ classCode: made.body.data.joinCode });
    expect((await call('POST', '/api/student/register', { body: student })).status).toBe(201);
    studentTokens.push((await call('POST', '/api/student/login', { body: student })).body.data);
  }

  const quiz = await call('POST', '/api/teacher/add-quiz', {
    token: teacherToken,
    body: buildNewQuiz({ classId }),
  });
  expect(quiz.status).toBe(201);
  const quizId = quiz.body.data._id as string;
  const detail = (await call('GET', `/api/quiz/${quizId}`, { token: teacherToken })).body.data;
  for (const token of studentTokens) {
    expect((await call('POST', `/api/quiz/${quizId}/start`, { token, body: {} })).status).toBe(200);
  }
  // The first student submits with one wrong answer; the second one's attempt stays open.
  const answered = await call('POST', '/api/student/update-student', {
    token: studentTokens[0],
    body: {
      quiz: {
        _id: quizId,
        questions: detail.quiz.questions.map(
          (question: { _id: string; options: { _id: string; correct: boolean }[] }, index: number) => ({
            _id: question._id,
            selectedOption: question.options.find((option) => option.correct === (index !== 0))!._id,
          }),
        ),
      },
    },
  });
  expect(answered.status).toBe(200);

  const tasks = [
    { id: 'task00001', text: 'Mark the essays', isCompleted: false },
    { id: 'task00002', text: 'Plan the trip', isCompleted: true },
  ];
  expect(
    (await call('POST', '/api/teacher/update-task', { token: teacherToken, body: { tasks, version: 0 } })).status,
  ).toBe(200);
  expect(
    (
      await call('POST', '/api/student/update-task', {
        token: studentTokens[1],
        body: { tasks: tasks.slice(0, 1), version: 0 },
      })
    ).status,
  ).toBe(200);

  const files = new Map<string, Buffer>();
  const uploads = [
    { name: 'notes.pdf', content: Buffer.concat([SAMPLE_FILES.pdf(), randomBytes(3000)]) },
    { name: 'diagram.png', content: SAMPLE_FILES.png() },
    { name: 'clip.mp4', content: SAMPLE_FILES.mp4(200_000) },
  ];
  for (const file of uploads) files.set((await upload(server, teacherToken, classId, file)).resource._id, file.content);
  // A deleted resource leaves neither a row nor a file behind, in the backup either.
  const deleted = await upload(server, teacherToken, classId, { name: 'old.pdf', content: SAMPLE_FILES.pdf() });
  expect((await call('DELETE', `/api/teacher/resources/${deleted.resource._id}`, { token: teacherToken })).status).toBe(
    200,
  );
  const link = await call('POST', '/api/teacher/add-resource-link', {
    token: teacherToken,
    body: { url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', fileName: 'A film', classId },
  });
  expect(link.status).toBe(201);
  const [firstFile] = files.keys();
  expect(
    (await call('POST', `/api/resources/${firstFile}/star`, { token: studentTokens[1], body: { action: 'star' } }))
      .status,
  ).toBe(200);
  return { teacherToken, studentTokens: studentTokens as [string, string], quizId, files };
}

async function upload(server: ServerProcess, token: string, classId: string, file: { name: string; content: Buffer }) {
  const { payload, headers } = multipartBody({ classId, description: `About ${file.name}` }, [file]);
  const response = await fetch(`${server.baseUrl}/api/teacher/upload-resource`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: payload,
  });
  const body = (await response.json()) as { data: Resource };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return { resource: body.data };
}

/**
 * What the seeded people see, read through the API. File addresses are signed with an
 * expiry rounded to the hour, so their `access` value is set aside (the bytes are compared).
 * An open attempt's remaining seconds move with the clock, so they are set aside too.
 */
async function readSchool(server: ServerProcess, seeded: Seeded) {
  const get = async (url: string, token: string, method = 'GET') => {
    const response = await callJson(server.baseUrl, method, url, { token, ...(method === 'POST' ? { body: {} } : {}) });
    expect(response.status, url).toBe(200);
    return JSON.parse(
      JSON.stringify(response.body.data)
        .replace(/access=[^"&]+/g, 'access=…')
        .replace(/"remainingSeconds":\d+/g, '"remainingSeconds":0'),
    );
  };
  const [first, second] = seeded.studentTokens;
  return {
    teacher: {
      profile: await get('/api/teacher/get-teacher-by-id', seeded.teacherToken, 'POST'),
      quizzes: await get('/api/get-all-quiz', seeded.teacherToken),
      analytics: await get(`/api/quiz/${seeded.quizId}`, seeded.teacherToken),
      tasks: await get('/api/tasks', seeded.teacherToken),
      resources: await get('/api/get-resources', seeded.teacherToken),
      leaderboard: await get('/api/get-students', seeded.teacherToken),
      students: await get('/api/teacher/students', seeded.teacherToken),
    },
    firstStudent: {
      quizzes: await get('/api/get-all-quiz', first),
      review: await get(`/api/quiz/${seeded.quizId}`, first),
      statistics: await get('/api/student/statistics', first),
      resources: await get('/api/get-resources', first),
    },
    secondStudent: {
      attempt: await get(`/api/quiz/${seeded.quizId}`, second),
      tasks: await get('/api/tasks', second),
      resources: await get('/api/get-resources', second),
    },
  };
}

/** Every uploaded file, fetched through the addresses the teacher's list hands out: the bytes uploaded. */
async function expectSameFiles(server: ServerProcess, seeded: Seeded) {
  const listed = await callJson(server.baseUrl, 'GET', '/api/get-resources', { token: seeded.teacherToken });
  const fileResources = (listed.body.data as Resource[]).filter((resource) => resource.kind === 'file');
  expect(fileResources.map((resource) => resource._id).sort()).toEqual([...seeded.files.keys()].sort());
  for (const resource of fileResources) {
    const response = await fetch(`${server.baseUrl}${resource.fileURL}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(seeded.files.get(resource._id)!)).toBe(true);
  }
}

describe('npm run backup and npm run restore (embedded database)', () => {
  let original: ServerProcess;
  let seeded: Seeded;
  let before: Awaited<ReturnType<typeof readSchool>>;
  let liveArchive: string;

  beforeAll(async () => {
    original = await startServer(dataDir('original'));
    seeded = await seedSchool(original);
    before = await readSchool(original, seeded);
  }, patience(120_000));

  it(
    'backs up the running server; restored into a fresh DATA_DIR, the server answers the same reads and files',
    { timeout: patience(120_000) },
    async () => {
      liveArchive = path.join(root, 'archives', 'live.tar.gz');
      const taken = await backup(dataDir('original'), liveArchive);
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stdout).toContain('taken by the running server');
      expect(taken.stdout).toContain('1 teachers, 2 students, 1 quizzes, 2 attempts, 3 tasks, 4 resources');
      expect(taken.stdout).toContain('files: 3');
      expect(statSync(liveArchive).mode & 0o077).toBe(0); // password hashes and the secret: private
      expect(readdirSync(path.dirname(liveArchive))).toEqual(['live.tar.gz']); // no .partial left

      // A change after the backup is not in it: the archive is one moment.
      const later = await callJson(original.baseUrl, 'POST', '/api/teacher/update-task', {
        token: seeded.teacherToken,
        body: { tasks: [{ id: 'task00003', text: 'After the backup', isCompleted: false }], version: 1 },
      });
      expect(later.status).toBe(200);

      const restored = await restore(dataDir('restored'), liveArchive);
      expect(restored.code, restored.stderr).toBe(0);
      expect(existsSync(path.join(dataDir('restored'), LOCK_FILE_NAME))).toBe(false);
      expect(statSync(dataDir('restored')).mode & 0o077).toBe(0); // private to the server's user, as DATA_DIR is
      const copy = await startServer(dataDir('restored'));
      expect(await readSchool(copy, seeded)).toEqual(before);
      await expectSameFiles(copy, seeded);
      expect(await copy.stop()).toBe(0);
    },
  );

  it(
    'refuses clearly: a second server, a restore over data or under a running server, a foreign or cut archive',
    { timeout: patience(120_000) },
    async () => {
      const second = await startServerProcess({ DATA_DIR: dataDir('original') }).catch((error: Error) => error);
      expect(second).toBeInstanceOf(Error);
      expect((second as Error).message).toMatch(/is in use by a StudyHall server \(pid \d+/);

      const underServer = await restore(dataDir('original'), liveArchive, ['--force']);
      expect(underServer.code).toBe(1);
      expect(underServer.stderr).toMatch(/in use by a StudyHall server/);

      const notEmpty = await restore(dataDir('restored'), liveArchive);
      expect(notEmpty.code).toBe(1);
      expect(notEmpty.stderr).toMatch(/is not empty .*--force/s);

      const fromTheFuture = await restore(dataDir('future'), await archiveFromANewerVersion());
      expect(fromTheFuture.code).toBe(1);
      expect(fromTheFuture.stderr).toMatch(/made by a newer StudyHall .*0099_from-the-future/);
      expect(existsSync(dataDir('future'))).toBe(false); // refused before anything was created

      const newerFormat = await repackedArchive(liveArchive, (manifest) => {
        manifest.formatVersion = 2;
      });
      const unreadable = await restore(dataDir('format'), newerFormat);
      expect(unreadable.code).toBe(1);
      expect(unreadable.stderr).toMatch(/has format 2; this StudyHall .* reads up to format 1/);

      const fileMissing = await repackedArchive(liveArchive, (manifest) => {
        manifest.files.count += 1;
      });
      const short = await restore(dataDir('short'), fileMissing);
      expect(short.code).toBe(1);
      expect(short.stderr).toMatch(/holds \d+ uploaded files where its manifest lists \d+/);

      const wrongCounts = await repackedArchive(liveArchive, (manifest) => {
        manifest.database.counts.quizAttempts += 1;
      });
      const mismatch = await restore(dataDir('mismatch'), wrongCounts);
      expect(mismatch.code).toBe(1);
      expect(mismatch.stderr).toMatch(/does not hold what the backup's manifest lists/);
      expect(readdirSync(dataDir('mismatch'))).toEqual([]);

      const cut = path.join(root, 'archives', 'cut.tar.gz');
      const whole = readFileSync(liveArchive);
      writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
      const truncated = await restore(dataDir('cut'), cut);
      expect(truncated.code).toBe(1);
      expect(truncated.stderr).toMatch(/is not a usable StudyHall backup/);
    },
  );

  it(
    'backs up with the server stopped; restored with --force over the first copy, it starts too',
    { timeout: patience(120_000) },
    async () => {
      expect(await original.stop()).toBe(0);
      const archive = path.join(root, 'archives', 'stopped.tar.gz');
      const taken = await backup(dataDir('original'), archive);
      expect(taken.code, taken.stderr).toBe(0);
      expect(taken.stdout).toContain('taken with the server stopped');
      expect(existsSync(path.join(dataDir('original'), LOCK_FILE_NAME))).toBe(false);

      // The first test's copy is not empty: --force replaces it.
      const restored = await restore(dataDir('restored'), archive, ['--force']);
      expect(restored.code, restored.stderr).toBe(0);
      expect(readdirSync(dataDir('restored')).sort()).toEqual(['jwt-secret', 'pglite', 'uploads']);
      const copy = await startServer(dataDir('restored'));
      const after = await readSchool(copy, seeded);
      // The task written after the first backup is in this one.
      expect(after.teacher.tasks.tasks).toEqual([{ id: 'task00003', text: 'After the backup', isCompleted: false }]);
      expect({ ...after, teacher: { ...after.teacher, tasks: before.teacher.tasks } }).toEqual(before);
      await expectSameFiles(copy, seeded);
      expect(await copy.stop()).toBe(0);
    },
  );

  it('explains pg_dump / pg_restore and the bucket tools instead of backing up PostgreSQL or S3', async () => {
    const postgres = await backup(dataDir('unused'), path.join(root, 'archives', 'none.tar.gz'), {
      DATABASE_URL: 'postgres://studyhall@127.0.0.1:5432/studyhall',
    });
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain('pg_dump --format=custom');
    expect(postgres.stderr).toContain('pg_restore --clean --if-exists');
    const s3 = await runNpmScript('restore', [path.join(root, 'archives', 'any.tar.gz')], {
      DATA_DIR: dataDir('unused'),
      S3_BUCKET: 'school-files',
    });
    expect(s3.code).toBe(1);
    expect(s3.stderr).toContain('bucket school-files');
    expect(s3.stderr).toContain('stop the server, then copy'); // the embedded database of that installation
    expect(existsSync(path.join(root, 'archives', 'none.tar.gz'))).toBe(false);
    expect(existsSync(dataDir('unused'))).toBe(false);
  });
});

/** A small archive whose manifest says a later StudyHall made it (a migration this one does not know). */
async function archiveFromANewerVersion(): Promise<string> {
  const folder = mkdtempSync(path.join(root, 'future-'));
  mkdirSync(path.join(folder, 'pglite'));
  writeFileSync(path.join(folder, 'pglite', 'PG_VERSION'), '18\n');
  mkdirSync(path.join(folder, 'uploads'));
  const manifest = {
    format: 'studyhall-backup',
    formatVersion: 1,
    createdAt: new Date().toISOString(),
    app: { version: '9.0.0' },
    database: {
      kind: 'pglite',
      migrations: { applied: 99, latest: '0099_from-the-future' },
      counts: { teachers: 0, students: 0, quizzes: 0, quizAttempts: 0, tasks: 0, resources: 0, resourceStars: 0 },
    },
    files: { count: 0, bytes: 0, missing: [] },
    hasJwtSecret: false,
  };
  writeFileSync(path.join(folder, MANIFEST_NAME), JSON.stringify(manifest));
  const output = `${folder}.tar.gz`;
  await tar.create({ gzip: true, cwd: folder, file: output, portable: true }, [MANIFEST_NAME, 'pglite', 'uploads']);
  return output;
}

/** The archive with its manifest edited: what a restore of a tampered or foreign backup meets. */
async function repackedArchive(archive: string, edit: (manifest: any) => void): Promise<string> {
  const folder = mkdtempSync(path.join(root, 'repack-'));
  await tar.extract({ file: archive, cwd: folder, maxDecompressionRatio: 100_000 });
  const manifestPath = path.join(folder, MANIFEST_NAME);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  edit(manifest);
  writeFileSync(manifestPath, JSON.stringify(manifest));
  const output = `${folder}.tar.gz`;
  await tar.create({ gzip: true, cwd: folder, file: output, portable: true }, [
    MANIFEST_NAME,
    'pglite',
    'uploads',
    'jwt-secret',
  ]);
  return output;
}
