// nginx for the scripts and tests that put it in front of the app: the cluster's balancer
// (scripts/cluster.ts) and the HTTPS e2e (tests/e2e/tls-proxy.spec.ts). Both proxy to the app
// with deploy/nginx/studyhall-proxy.conf, the file an administrator copies (decision 053), so
// what CI proves is what a school runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The proxy settings every StudyHall server block includes (locations, headers, timeouts). */
export const PROXY_INCLUDE_PATH = path.join(ROOT, 'deploy/nginx/studyhall-proxy.conf');
/** The server blocks an administrator copies (HTTP to HTTPS, TLS), read by the HTTPS e2e. */
export const DEPLOY_SITE_PATH = path.join(ROOT, 'deploy/nginx/studyhall.conf');
/**
 * nginx's client_max_body_size over the app's UPLOAD_MAX_BYTES: the multipart framing and the
 * form's other fields. The app refuses a declared upload over UPLOAD_MAX_BYTES + 256 KB itself
 * (resources/routes.ts), so it, not nginx, answers an oversized file.
 */
export const MULTIPART_ALLOWANCE_BYTES = 1024 * 1024;

/** The nginx binary: `configured`, else nginx on PATH, /usr/sbin or /usr/local/sbin; undefined if none. */
export function findNginx(configured?: string): string | undefined {
  if (configured) return configured;
  const folders = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin'];
  for (const folder of folders) {
    const candidate = path.join(folder, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * A whole nginx configuration around `http` (the http block's content) whose every path is
 * inside `folder`: no root-owned paths, no system config read. Makes the temporary folders.
 */
export function privateNginxConfig(folder: string, http: string): string {
  for (const name of ['client-body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(path.join(folder, name), { recursive: true });
  const indented = http
    .trim()
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
  return `# Written for one run by scripts/nginx.ts.
${process.getuid?.() === 0 ? `# Run as root: workers stay root so they can use this private folder.\nuser ${userInfo().username};\n` : ''}worker_processes 1;
pid ${folder}/nginx.pid;
error_log stderr warn;

events {
  worker_connections 1024;
}

http {
  client_body_temp_path ${folder}/client-body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  server_tokens off;

${indented}
}
`;
}

/** Runs nginx in the foreground on `configPath` (inside `folder`), its errors on this process's stderr. */
export function spawnNginx(nginxPath: string, folder: string, configPath: string): ChildProcess {
  // -e: nginx opens its compiled-in error log before reading the config; send it to stderr instead.
  return spawn(nginxPath, ['-p', folder, '-c', configPath, '-e', 'stderr', '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
