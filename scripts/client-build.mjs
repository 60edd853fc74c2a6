// The built client that `npm start`, `npm run cluster` and the benchmarks serve: dist/client
// with both of its pages, the app's shell and the landing page prerendered for / (decision 014),
// and dist/build-stamp.json, what it was built from (decision 052).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLIENT_PAGES = ['index.html', 'landing.html'].map((page) => path.join('dist/client', page));
export const BUILD_STAMP = 'dist/build-stamp.json';
/**
 * What the build is made from: the client (its index.html and landing.html included), the shared
 * code, the build's config and plugins, package.json (the version the footer shows) and the
 * lockfile (the versions of React, Vite… that go into it). Tests are left out: they are not built.
 */
const BUILD_SOURCES = [
  'src/client',
  'src/shared',
  'vite.config.ts',
  // The translation layer's build: its config (catalogs, locales) and the macros' Babel step.
  'lingui.config.ts',
  'scripts/lingui-macros.ts',
  'scripts/vite-localized-shells.ts',
  'scripts/vite-precompress.ts',
  'scripts/vite-route-catalogs.ts',
  'scripts/vite-prerender-landing.ts',
  'scripts/vite-strip-endpoint-docs.ts',
  'scripts/vite-build-stamp.ts',
  'package.json',
  'package-lock.json',
];
const isTest = (name) => /\.test\.tsx?$/.test(name);

function listFiles(root, relative) {
  const absolute = path.join(root, relative);
  if (!existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => !isTest(entry.name))
    .flatMap((entry) => listFiles(root, path.posix.join(relative, entry.name)));
}

/** sha256 of every build source's path and content, in a stable order: equal exactly when the sources are. */
export function hashBuildSources(root = ROOT) {
  const hash = createHash('sha256');
  for (const file of BUILD_SOURCES.flatMap((source) => listFiles(root, source)).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Whether the client build in `root` is `current` (its stamp's hash is the sources' hash),
 * `stale` (the sources changed since, or a build from before stamps) or `missing`, and why.
 */
export function clientBuildState(root = ROOT) {
  if (!CLIENT_PAGES.every((page) => existsSync(path.join(root, page)))) {
    return { state: 'missing', reason: 'there is no client build (dist/client)' };
  }
  const stampFile = path.join(root, BUILD_STAMP);
  if (!existsSync(stampFile)) return { state: 'stale', reason: `the client build has no ${BUILD_STAMP}` };
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return { state: 'stale', reason: `${BUILD_STAMP} cannot be read` };
  }
  if (stamp?.sourcesHash !== hashBuildSources(root)) {
    return {
      state: 'stale',
      reason: `the client's sources changed since it was built${stamp?.version ? ` (as version ${stamp.version})` : ''}`,
    };
  }
  return { state: 'current', reason: 'the client build matches its sources' };
}

/** The message for a build that is needed where Vite is not installed (a production install). */
export function productionBuildMessage(reason) {
  return (
    `Cannot start: ${reason}, and Vite is not installed here (an install without dev dependencies, ` +
    '`npm ci --omit=dev`), so it cannot be built.\n' +
    'Run `npm run build` where the dev dependencies are installed (`npm ci`), from the same sources, ' +
    'then `npm ci --omit=dev` and `npm start` (README, "Deploying").'
  );
}

export function noBuildAtStartMessage(reason) {
  return (
    `Cannot start: ${reason}, and this server does not build at start (STUDYHALL_BUILD_AT_START=never, as the ` +
    'systemd unit sets it). Run `npm run build` as the user that owns the code, then start it again ' +
    '(README, "Upgrading").'
  );
}

/**
 * Builds the client (`vite build`) when it is missing or stale: the sources changed since it was
 * built, as after a `git pull`. Throws with a clear message when the build fails, or when a
 * build is needed and Vite is not installed.
 */
export function ensureClientBuild({
  quiet = false,
  root = ROOT,
  mayBuild = process.env.STUDYHALL_BUILD_AT_START !== 'never',
} = {}) {
  const { state, reason } = clientBuildState(root);
  if (state === 'current') return;
  // A service (deploy/systemd) runs with its code read-only: a build there would fail, and be
  // retried at every restart. It says so instead.
  if (!mayBuild) throw new Error(noBuildAtStartMessage(reason));
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) throw new Error(productionBuildMessage(reason));
  console.log(`Building the client (npm run build): ${reason}…`);
  const build = spawnSync(process.execPath, [vite, 'build'], {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (build.status !== 0) throw new Error('the client build (vite build) failed');
}
