// `npm run check:production`: the production path of the README's "Deploying", on a clean copy
// (decision 052). Copies the project as it is (git's files, committed or not, without node_modules,
// dist or anything ignored) to a temporary folder, then there: `npm ci` and `npm run build` with
// the dev dependencies, `npm ci --omit=dev`, and `npm start` on a temporary DATA_DIR and port.
// With `--link-node-modules` (CI, right after its own `npm ci`), the dev install is this
// checkout's node_modules hard-linked instead of a second `npm ci` of the same lockfile.
// Passes when GET /api/health answers 200 with package.json's version and GET / serves the
// prerendered landing page showing it; fails otherwise. CI runs it after its build step.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const START_TIMEOUT_MS = 90_000;
const keep = process.env.CHECK_PRODUCTION_KEEP === '1';
/** `--link-node-modules`: the dev install is this checkout's node_modules, hard-linked (CI). */
const linkModules = process.argv.includes('--link-node-modules');

const step = (text) => console.log(`\n--- check:production: ${text}`);
function fail(text) {
  console.error(`\ncheck:production FAILED: ${text}`);
  process.exitCode = 1;
  return false;
}

/** Runs a command in the copy, its output shown; false when it fails. */
function run(copy, command, args, env = {}) {
  console.log(`$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: copy, stdio: 'inherit', env: { ...process.env, ...env } });
  return (
    result.status === 0 || fail(`\`${[command, ...args].join(' ')}\` exited with ${result.status ?? result.signal}`)
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The project's files as git sees them (tracked, and new ones not ignored), copied to `copy`. */
function copyProject(copy) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  });
  let count = 0;
  for (const file of listed.split('\0').filter(Boolean)) {
    const source = path.join(root, file);
    if (!existsSync(source)) continue; // deleted, not yet committed
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    copyFileSync(source, path.join(copy, file));
    count += 1;
  }
  return count;
}

async function waitForHealth(baseUrl, server) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) return undefined;
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return await response.json();
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return undefined;
}

async function checkRunningApp(copy) {
  const port = await freePort();
  const dataDir = path.join(copy, '.check-data');
  const baseUrl = `http://127.0.0.1:${port}`;
  step(`npm start on ${baseUrl}, DATA_DIR ${dataDir}`);
  // The embedded database on a folder of its own: none of the caller's database, Redis or Janus.
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'JANUS_URL', 'JWT_SECRET', 'S3_BUCKET']) delete env[name];
  const server = spawn('npm', ['start'], {
    cwd: copy,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: npm, node and all end together
  });
  let log = '';
  server.stdout.on('data', (chunk) => (log += chunk));
  server.stderr.on('data', (chunk) => (log += chunk));
  const stop = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-server.pid, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const health = await waitForHealth(baseUrl, server);
    if (!health)
      return fail(`the app did not answer /api/health within ${START_TIMEOUT_MS / 1000} s. Its log:\n${log}`);
    console.log(`GET /api/health: ${JSON.stringify(health)}`);
    if (health.status !== 'ok' || health.version !== version) {
      return fail(`/api/health answered ${JSON.stringify(health)}, not status ok and version ${version}`);
    }
    const landing = await fetch(`${baseUrl}/`);
    const page = await landing.text();
    if (landing.status !== 200 || !/<title>[^<]*StudyHall/i.test(page)) {
      return fail(`GET / answered ${landing.status} without the landing page`);
    }
    if (!page.includes(`v${version}`)) return fail(`the landing page does not show the version v${version}`);
    if (log.includes('Building the client')) return fail('npm start built the client again in production');
    console.log(`GET /: the landing page, showing v${version}`);
    return true;
  } finally {
    await stop();
  }
}

async function main() {
  const started = Date.now();
  const copy = mkdtempSync(path.join(os.tmpdir(), 'studyhall-production-'));
  try {
    step(`copying the project to ${copy}`);
    console.log(`${copyProject(copy)} files`);
    const npmQuiet = ['--no-audit', '--no-fund'];
    step('install with the dev dependencies, and build once');
    if (linkModules) {
      // CI's own `npm ci` of the same lockfile moments before: hard links save the two minutes of
      // a second one. The build writes nothing into node_modules, and the production install
      // below removes the links (unlinking leaves the checkout's files as they are).
      const modules = path.join(root, 'node_modules');
      if (!existsSync(path.join(modules, '.package-lock.json')))
        return fail(`--link-node-modules: no npm install in ${root}`);
      console.log(`$ cp -al ${modules} node_modules`);
      execFileSync('cp', ['-al', modules, path.join(copy, 'node_modules')]);
    } else if (!run(copy, 'npm', ['ci', ...npmQuiet])) return;
    if (!run(copy, 'npm', ['run', 'build'])) return;
    step('install the production dependencies only');
    if (!run(copy, 'npm', ['ci', '--omit=dev', ...npmQuiet])) return;
    for (const devOnly of ['vite', 'vitest', 'typescript']) {
      if (existsSync(path.join(copy, 'node_modules', devOnly)))
        return fail(`${devOnly} is installed: not a production install`);
    }
    if (!(await checkRunningApp(copy))) return;
    console.log(`\ncheck:production passed in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    if (keep) console.log(`kept ${copy} (CHECK_PRODUCTION_KEEP=1)`);
    else rmSync(copy, { recursive: true, force: true });
  }
}

await main();
