import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_STAMP, clientBuildState, ensureClientBuild, hashBuildSources } from './client-build.mjs';

const repository = fileURLToPath(new URL('..', import.meta.url));

/** A project with a few build sources and, unless told otherwise, a client build stamped as current. */
function makeProject(root: string) {
  mkdirSync(path.join(root, 'src/client/features'), { recursive: true });
  mkdirSync(path.join(root, 'src/shared'), { recursive: true });
  mkdirSync(path.join(root, 'dist/client'), { recursive: true });
  writeFileSync(path.join(root, 'src/client/index.html'), '<div id="root"></div>');
  writeFileSync(path.join(root, 'src/client/features/page.tsx'), 'export const page = 1;');
  writeFileSync(path.join(root, 'src/client/features/page.test.tsx'), 'test');
  writeFileSync(path.join(root, 'src/shared/contract.ts'), 'export const contract = 1;');
  writeFileSync(path.join(root, 'vite.config.ts'), 'export default {};');
  writeFileSync(path.join(root, 'package.json'), '{"version":"0.2.0"}');
  writeFileSync(path.join(root, 'package-lock.json'), '{}');
  writeFileSync(path.join(root, 'dist/client/index.html'), 'built');
  writeFileSync(path.join(root, 'dist/client/landing.html'), 'built');
}
const stamp = (root: string, sourcesHash = hashBuildSources(root)) =>
  writeFileSync(path.join(root, BUILD_STAMP), JSON.stringify({ version: '0.2.0', sourcesHash }));

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'studyhall-build-stamp-'));
  makeProject(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the client build stamp (decision 052)', () => {
  it('finds a build current when its stamp holds the hash of the sources', () => {
    stamp(root);
    expect(clientBuildState(root).state).toBe('current');
  });

  it.each([
    ['a client file', 'src/client/features/page.tsx'],
    ['the HTML page', 'src/client/index.html'],
    ['shared code', 'src/shared/contract.ts'],
    ['the Vite config', 'vite.config.ts'],
    ['the version in package.json', 'package.json'],
    ['the lockfile', 'package-lock.json'],
  ])('finds it stale once %s changes, as after a git pull', (_, file) => {
    stamp(root);
    writeFileSync(path.join(root, file), 'changed');
    expect(clientBuildState(root)).toMatchObject({ state: 'stale', reason: expect.stringContaining('changed') });
  });

  it('finds it stale when a source file is added or removed', () => {
    stamp(root);
    writeFileSync(path.join(root, 'src/client/features/new.tsx'), 'export {};');
    expect(clientBuildState(root).state).toBe('stale');
    rmSync(path.join(root, 'src/client/features/new.tsx'));
    expect(clientBuildState(root).state).toBe('current');
    rmSync(path.join(root, 'src/shared/contract.ts'));
    expect(clientBuildState(root).state).toBe('stale');
  });

  it('ignores a test file (it is not built) and what lies outside the sources', () => {
    stamp(root);
    writeFileSync(path.join(root, 'src/client/features/page.test.tsx'), 'another test');
    writeFileSync(path.join(root, 'README.md'), 'docs');
    expect(clientBuildState(root).state).toBe('current');
  });

  it('finds a build without a stamp (made before stamps) stale, and no build missing', () => {
    expect(clientBuildState(root)).toMatchObject({ state: 'stale', reason: expect.stringContaining(BUILD_STAMP) });
    stamp(root, 'not the hash');
    expect(clientBuildState(root).state).toBe('stale');
    rmSync(path.join(root, 'dist/client/landing.html'));
    expect(clientBuildState(root).state).toBe('missing');
  });

  it('refuses a stale build without Vite installed (a production install), saying to run npm run build', () => {
    stamp(root);
    writeFileSync(path.join(root, 'src/client/features/page.tsx'), 'export const page = 2;');
    expect(() => ensureClientBuild({ root, quiet: true })).toThrow(
      /the client's sources changed since it was built \(as version 0\.2\.0\), and Vite is not installed[\s\S]*Run `npm run build` where the dev dependencies are installed/,
    );
  });

  it('refuses, rather than builds, a stale client where building at start is turned off (the systemd unit)', () => {
    stamp(root);
    writeFileSync(path.join(root, 'src/client/features/page.tsx'), 'export const page = 3;');
    expect(() => ensureClientBuild({ root, quiet: true, mayBuild: false })).toThrow(
      /sources changed since it was built[\s\S]*does not build at start \(STUDYHALL_BUILD_AT_START=never[\s\S]*Run `npm run build` as the user/,
    );
    stamp(root, hashBuildSources(root));
    expect(() => ensureClientBuild({ root, quiet: true, mayBuild: false })).not.toThrow();
  });

  it('starts from a current build without Vite: nothing to build', () => {
    stamp(root);
    expect(() => ensureClientBuild({ root, quiet: true })).not.toThrow();
  });

  it('hashes this repository the same twice (a stable order, no timestamps)', () => {
    expect(hashBuildSources(repository)).toBe(hashBuildSources(repository));
  });
});

// A copy of the build config and plugins could drift from BUILD_SOURCES: a plugin the config
// imports must be a build source, or editing it would not rebuild.
describe('the build sources', () => {
  it('include every plugin file vite.config.ts imports', async () => {
    const { readFileSync } = await import('node:fs');
    const config = readFileSync(path.join(repository, 'vite.config.ts'), 'utf8');
    const plugins = [...config.matchAll(/from '\.\/(scripts\/[^']+)'/g)].map((match) => match[1]!);
    expect(plugins.length).toBeGreaterThan(0);
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'studyhall-build-sources-'));
    try {
      for (const file of ['vite.config.ts', ...plugins]) {
        mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
        cpSync(path.join(repository, file), path.join(scratch, file));
      }
      for (const plugin of plugins) {
        const before = hashBuildSources(scratch);
        writeFileSync(path.join(scratch, plugin), 'changed');
        expect(hashBuildSources(scratch), plugin).not.toBe(before);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
