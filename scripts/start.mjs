// `npm start`: build the client once if there is no build, then run the server
// in this same process (so SIGINT/SIGTERM reach it directly).
import { register } from 'tsx/esm/api';
import { ensureClientBuild } from './client-build.mjs';

try {
  ensureClientBuild();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

register();
await import('../src/server/main.ts');
