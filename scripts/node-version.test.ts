import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { isSupportedNodeVersion, nodeVersionProblem, SUPPORTED_NODE_RANGE } from './node-version.mjs';

describe('the Node version check (decision 052)', () => {
  it('accepts the floor of each supported line and what follows it', () => {
    for (const version of ['20.19.0', 'v20.19.0', '20.20.2', '22.13.0', '22.20.1', '24.0.0', '25.1.0', '30.0.0']) {
      expect(isSupportedNodeVersion(version), version).toBe(true);
    }
  });

  it('refuses what the dependencies do not run on: below each floor, odd lines between, old lines', () => {
    for (const version of ['20.18.3', '20.12.0', '22.12.0', '22.0.0', '21.7.3', '23.11.0', '18.20.4', '19.9.0', '']) {
      expect(isSupportedNodeVersion(version), version).toBe(false);
    }
  });

  it('explains the refusal with the supported range and the version found', () => {
    expect(nodeVersionProblem('20.18.1')).toMatch(
      /needs Node\.js \^20\.19\.0 \|\| \^22\.13\.0 \|\| >=24\.0\.0; this is Node\.js 20\.18\.1/,
    );
    expect(nodeVersionProblem('v22.13.0')).toBeUndefined();
  });

  it("states the same range as package.json's engines", () => {
    expect(packageJson.engines.node).toBe(SUPPORTED_NODE_RANGE);
  });

  it('passes on the Node running the tests (CI and developers run a supported one)', () => {
    expect(nodeVersionProblem()).toBeUndefined();
  });

  it('stops the server before it loads anything when Node is too old', () => {
    // main.ts's first import checks; STUDYHALL_NODE_VERSION_FOR_TESTS pretends an older Node.
    const main = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, STUDYHALL_NODE_VERSION_FOR_TESTS: '20.18.0', PORT: '1', DATA_DIR: '/nonexistent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('StudyHall needs Node.js ^20.19.0 || ^22.13.0 || >=24.0.0; this is Node.js 20.18.0');
  });
});
