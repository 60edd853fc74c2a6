// `npm start`: check the Node version, build the client when there is none or its sources changed
// since it was built (decision 052), then run the server in this same process (so SIGINT/SIGTERM
// reach it directly). Imports after the check: on too old a Node they would fail unexplained.
import { exitUnlessSupportedNode } from './node-version.mjs';

exitUnlessSupportedNode();

const { ensureClientBuild } = await import('./client-build.mjs');
try {
  ensureClientBuild();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const { register } = await import('tsx/esm/api');
register();
await import('../src/server/main.ts');
