import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LIVE_GAME_SOCKET_PATH } from '#shared/live-games';
import { MEETING_SOCKET_PATH } from '#shared/meetings';
import { RESOURCE_LIMITS } from '#shared/resources';
import { uploadResource } from '#shared/contract/resources';
import { loadConfig } from '../src/server/config.ts';
import { DEPLOY_SITE_PATH, MULTIPART_ALLOWANCE_BYTES, PROXY_INCLUDE_PATH } from './nginx.ts';

/**
 * deploy/ (decision 053) against the app it serves: the limits and paths the files name by hand
 * are the app's. (tests/e2e/tls-proxy.spec.ts runs nginx with them; this catches a changed
 * default or route at once, and checks the Caddyfile and the service's settings, which CI does not run.)
 */
const read = (file: string) => readFileSync(path.join(import.meta.dirname, '..', file), 'utf8');
const DEFAULT_BODY_LIMIT_BYTES = RESOURCE_LIMITS.uploadMaxBytesDefault + MULTIPART_ALLOWANCE_BYTES;

/** The body of nginx's `location = <exact>` block in `config`. */
function exactLocation(config: string, exact: string): string {
  const start = config.indexOf(`location = ${exact} {`);
  expect(start, `no "location = ${exact}" in the nginx config`).toBeGreaterThanOrEqual(0);
  return config.slice(start, config.indexOf('\n}', start));
}

/** The regex location whose pattern matches `path` (nginx's `location ~ pattern {`). */
function locationMatching(config: string, path: string): string {
  const found = [...config.matchAll(/^location ~ (\S+) \{$/gm)].find(([, pattern]) => new RegExp(pattern!).test(path));
  expect(found, `no regex location for ${path} in the nginx config`).toBeDefined();
  return config.slice(found!.index, config.indexOf('\n}', found!.index));
}

describe('deploy/', () => {
  it('nginx lets through the largest upload the app accepts by default, plus its framing', () => {
    const site = readFileSync(DEPLOY_SITE_PATH, 'utf8');
    const [, megabytes] = /^\s*client_max_body_size (\d+)m;/m.exec(site) ?? [];
    expect(Number(megabytes) * 1024 * 1024).toBe(DEFAULT_BODY_LIMIT_BYTES);
    expect(site).toContain('include snippets/studyhall-proxy.conf;');
  });

  it("nginx upgrades the room sockets (meetings, live games) and streams the app's uploads unbuffered", () => {
    const proxy = readFileSync(PROXY_INCLUDE_PATH, 'utf8');
    for (const path of [MEETING_SOCKET_PATH, LIVE_GAME_SOCKET_PATH]) {
      const socket = locationMatching(proxy, path);
      expect(socket).toContain('proxy_set_header Upgrade $http_upgrade;');
      expect(socket).toContain('proxy_set_header Connection $studyhall_connection_upgrade;');
      expect(socket).toMatch(/proxy_read_timeout \d+h;/);
    }
    const upload = exactLocation(proxy, uploadResource.path);
    expect(upload).toContain('proxy_request_buffering off;');
    // Every location names the client to the app, as TRUST_PROXY expects.
    for (const location of proxy.split(/\n(?=location )/).filter((block) => block.includes('proxy_pass'))) {
      expect(location).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
      expect(location).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    }
  });

  it('Caddy lets through the same upload size', () => {
    const [, mebibytes] = /^\s*max_size (\d+)MiB$/m.exec(read('deploy/Caddyfile')) ?? [];
    expect(Number(mebibytes) * 1024 * 1024).toBe(DEFAULT_BODY_LIMIT_BYTES);
  });

  it("the service's settings are valid, local only, and trust the proxy on this machine", () => {
    const settings = parseEnv(read('deploy/studyhall.env.example'));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'studyhall-deploy-env-'));
    try {
      const config = loadConfig({ ...settings, DATA_DIR: dataDir });
      expect(config.host).toBe('127.0.0.1');
      expect(config.trustProxy).toEqual(['127.0.0.1']);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const unit = read('deploy/systemd/studyhall.service');
    expect(unit).toContain('EnvironmentFile=/etc/studyhall/studyhall.env');
    expect(unit).toMatch(/^User=studyhall$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    // Its code is read-only: a stale client refuses the start rather than fail a build at every restart.
    expect(unit).toMatch(/^Environment=STUDYHALL_BUILD_AT_START=never$/m);
    expect(unit).not.toMatch(/^ReadWritePaths=.*\/opt\/studyhall/m);
    expect(settings.DATA_DIR).toMatch(/^\/var\/lib\/studyhall\//); // the unit's StateDirectory
  });
});
