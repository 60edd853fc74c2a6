// The built client that `npm start`, `npm run cluster` and the benchmarks serve: dist/client
// with both of its pages, the app's shell and the landing page prerendered for / (decision 014).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CLIENT_PAGES = ['index.html', 'landing.html'].map((page) => path.join(root, 'dist/client', page));
/** What the build is made from: the client, the shared code, and the build's own config and plugins. */
const BUILD_SOURCES = ['src/client', 'src/shared', 'vite.config.ts', 'scripts'].map((source) =>
  path.join(root, source),
);

function newestModification(file) {
  if (!statSync(file).isDirectory()) return statSync(file).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(file, { withFileTypes: true })) {
    if (entry.name.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestModification(path.join(file, entry.name)));
  }
  return newest;
}

/**
 * Builds the client (`vite build`) when a page of it is missing, or, with `whenStale`, older
 * than what it is built from (the benchmarks measure the code as it is). Throws when the build fails.
 */
export function ensureClientBuild({ whenStale = false, quiet = false } = {}) {
  const isMissing = !CLIENT_PAGES.every((page) => existsSync(page));
  const isStale =
    !isMissing &&
    whenStale &&
    Math.min(...CLIENT_PAGES.map((page) => statSync(page).mtimeMs)) <
      Math.max(...BUILD_SOURCES.map(newestModification));
  if (!isMissing && !isStale) return;
  console.log(`No ${isMissing ? '' : 'current '}client build found: building it (npm run build)…`);
  const build = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: root,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (build.status !== 0) throw new Error('the client build (vite build) failed');
}
