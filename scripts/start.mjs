// `npm start`: build the client once if there is no build, then run the server
// in this same process (so SIGINT/SIGTERM reach it directly).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
// Both pages of the build: the app's shell and the landing page prerendered for / (decision 014).
const clientPages = ['index.html', 'landing.html'].map((page) =>
  fileURLToPath(new URL(`../dist/client/${page}`, import.meta.url)),
);

if (!clientPages.every((page) => existsSync(page))) {
  console.log('No client build found: building it once (npm run build)…');
  const build = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url)), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

register();
await import('../src/server/main.ts');
