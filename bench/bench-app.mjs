// What every benchmark needs: the built app as `npm start` runs it (the client
// built first when the build is missing or older than the sources), on a fresh
// DATA_DIR and the embedded database, one instance, on BENCH_PORT; a POST helper
// for set-up through the API; and a stop that leaves nothing behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureClientBuild } from '../scripts/client-build.mjs';
import { copyMigratedPglite } from '../src/server/testing/pglite-template.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A teacher and a student to register, with names no earlier run used. */
export function benchAccounts() {
  const suffix = Date.now().toString(36);
  return {
    teacher: {
      name: 'Bench Teacher',
      subject: 'Physics',
      email: `bench-teacher-${suffix}@example.com`,
      password: 'a long bench password',
    },
    student: benchStudent(suffix),
  };
}

/** A student to register: `suffix` as benchAccounts makes it; `number` for a class of several. */
export function benchStudent(suffix, number) {
  const tag = number === undefined ? suffix : `${suffix}-${number}`;
  return {
    name: number === undefined ? 'Bench Student' : `Bench Student ${number}`,
    rollNumber: `bench-${tag}`,
    email: `bench-student-${tag}@example.com`,
    parentName: 'Bench Parent',
    parentEmail: `bench-parent-${tag}@example.com`,
    password: 'a long bench password',
  };
}

/** Registers `student` in the class with `joinCode` and signs them in: sets their `token`. */
export async function registerBenchStudent(post, student, joinCode) {
  await post('/api/student/register', { ...student, classCode: joinCode });
  student.token = await post('/api/student/login', { rollNumber: student.rollNumber, password: student.password });
  return student;
}

/** The first run's code of the bench's servers (decision 050). */
export const BENCH_SETUP_CODE = 'BENCH-SETUP-CODE';

/**
 * The bench's fresh school: its teacher sets it up (the first run's administrator, decision
 * 030) and makes class 10A; the student registers with its code (decision 031) and signs in.
 * Each account gets its `token`; answers the class's id and join code.
 */
export async function setUpBenchSchool(post, { teacher, student }) {
  teacher.token = await post('/api/school/setup', {
    setupCode: BENCH_SETUP_CODE,
    schoolName: 'Bench School',
    ...teacher,
  });
  const { _id: classId, joinCode } = await post('/api/classes', { name: '10A' }, teacher.token);
  await registerBenchStudent(post, student, joinCode);
  return { classId, joinCode };
}

/**
 * Starts the app on `port`, else `defaultPort` unless BENCH_PORT is set. `env`: settings on top
 * of the bench's (e.g. JANUS_URL); `pid` in the answer is the server's process, for CPU figures.
 */
export async function startBenchApp({ defaultPort, port = Number(process.env.BENCH_PORT ?? defaultPort), env = {} }) {
  ensureClientBuild({ quiet: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'studyhall-bench-'));
  await copyMigratedPglite(path.join(dataDir, 'data', 'pglite'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, 'data'),
      // One instance on the embedded database, default room size, no STUN/TURN, no Janus: whatever the calling shell has set.
      DATABASE_URL: '',
      REDIS_URL: '',
      MEETING_ROOM_SIZE: '',
      ICE_SERVERS: '',
      JANUS_URL: '',
      JANUS_API_SECRET: '',
      LOG_LEVEL: 'warn',
      QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
      SETUP_CODE: BENCH_SETUP_CODE,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  /** POST with an optional bearer token; resolves with the envelope's data, throws on failure. */
  const post = async (url, body, token) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body ?? {}),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
    return json.data;
  };

  for (let attempt = 0; attempt < 180; attempt += 1) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the server exited (${server.exitCode})`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { baseUrl, post, stop, pid: server.pid };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error('the server did not become healthy in 90 s');
}
