// `npm start`: build the client once if there is no build, then run the server
// in this same process (so SIGINT/SIGTERM reach it directly).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientIndex = fileURLToPath(new URL('../dist/client/index.html', import.meta.url));

if (!existsSync(clientIndex)) {
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
