import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const createdRoots: string[] = [];
const freshDataDir = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'studyhall-config-'));
  createdRoots.push(root);
  return path.join(root, 'nested', 'data');
};
afterAll(() => {
  for (const root of createdRoots) rmSync(root, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('defaults to port 3000, log level info and an embedded database in DATA_DIR', () => {
    const dataDir = freshDataDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ port: 3000, logLevel: 'info', databaseUrl: undefined, dataDir });
    expect(statSync(dataDir).isDirectory()).toBe(true);
  });

  it('generates a JWT secret once, keeps it private in DATA_DIR and reuses it', () => {
    const dataDir = freshDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    const secretFile = path.join(dataDir, 'jwt-secret');
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(secretFile).mode & 0o077).toBe(0);
  });

  it('prefers JWT_SECRET and DATABASE_URL when given', () => {
    const config = loadConfig({
      DATA_DIR: freshDataDir(),
      JWT_SECRET: 's'.repeat(40),
      DATABASE_URL: 'postgres://user@db:5432/studyhall',
      PORT: '8080',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      jwtSecret: 's'.repeat(40),
      databaseUrl: 'postgres://user@db:5432/studyhall',
      port: 8080,
      logLevel: 'warn',
    });
  });

  it('treats empty values as unset, as .env files write them', () => {
    const config = loadConfig({ DATA_DIR: freshDataDir(), PORT: '', DATABASE_URL: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('lists every problem at once', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', LOG_LEVEL: 'loud' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL/);
    expect(problems.join('\n')).toMatch(/JWT_SECRET/);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL/);
  });
});
