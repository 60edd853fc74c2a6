import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import packageJson from '../package.json' with { type: 'json' };
import { BUILD_STAMP, hashBuildSources } from './client-build.mjs';

/**
 * Vite plugin: writes dist/build-stamp.json once a build has succeeded, with the hash of what it
 * was built from (client-build.mjs's BUILD_SOURCES), so that `npm start` rebuilds a client older
 * than its sources, as after a `git pull` (decision 052). The hash is taken as the build starts:
 * a file edited during the build makes the stamp older than the sources, which rebuilds.
 * The stamp is removed as the build starts, so that a build that fails leaves none.
 */
export function writeBuildStamp(): Plugin {
  let root = process.cwd();
  let sourcesHash = '';
  let failed = false;
  return {
    name: 'studyhall:build-stamp',
    apply: 'build',
    configResolved(config) {
      // vite.config.ts's root is src/client; the stamp and the sources are the project's.
      root = path.resolve(config.root, '../..');
    },
    buildStart() {
      failed = false;
      rmSync(path.join(root, BUILD_STAMP), { force: true });
      sourcesHash = hashBuildSources(root);
    },
    buildEnd(error) {
      if (error) failed = true;
    },
    closeBundle: {
      order: 'post',
      handler(error?: Error) {
        if (failed || error) return;
        const stampFile = path.join(root, BUILD_STAMP);
        mkdirSync(path.dirname(stampFile), { recursive: true });
        const stamp = { version: packageJson.version, sourcesHash, builtAt: new Date().toISOString() };
        writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
      },
    },
  };
}
