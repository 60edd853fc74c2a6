// `npm run cluster`: StudyHall as several stateless instances behind a real load
// balancer on one machine. Two instances of the app (as `npm start` runs them)
// share one PostgreSQL database, one Redis and one folder of uploaded files;
// nginx spreads requests over them round robin, with no sticky sessions, so every
// page load, API call, upload and meeting socket may land on either instance.
// CI runs the e2e suite through the balancer (.ci/run).
//
//   CLUSTER_PORT          balancer port (default 8080); the instances use the next ports
//   CLUSTER_HOST          balancer interface (default 127.0.0.1)
//   CLUSTER_INSTANCES     how many instances (default 2)
//   CLUSTER_DATABASE_URL  a PostgreSQL database to use as it is; unset = a fresh database on
//                         postgres://postgres@127.0.0.1:5432, dropped when the cluster stops
//   CLUSTER_REDIS_URL     Redis (default redis://127.0.0.1:6379)
//   CLUSTER_DATA_DIR      the instances' shared DATA_DIR (uploads), kept; unset = a temporary one
//   CLUSTER_NGINX         the nginx binary (default: nginx on PATH, then /usr/sbin/nginx)
//   CLUSTER_JANUS         how many Janus servers to start when janus is installed (default 2;
//                         0 = none: meetings stay browser to browser)
//
// The instances trust nginx's X-Forwarded-For (TRUST_PROXY=127.0.0.1), so sign-ins are
// throttled per client address, not all under nginx's own. nginx proxies with
// deploy/nginx/studyhall-proxy.conf, the file a school's HTTPS server block includes (decision 053).
//
// Meetings (decision 037): with Debian's janus installed, the cluster starts CLUSTER_JANUS Janus
// servers from deploy/janus on free ports (WebSocket on 127.0.0.1, RTP on 20000-20999,
// 21000-21999, …) with a secret made for this run, and both instances share them: JANUS_URL
// lists them all and Redis says which serves each room. A JANUS_URL of your own (environment or
// .env) is used as it is instead. Without either, meetings are a browser mesh, as the start says.
//
// Everything else (UPLOAD_MAX_BYTES, S3_*, MEETING_ROOM_SIZE, ICE_SERVERS, JWT_SECRET, …)
// reaches the instances from the environment or .env, as with `npm start`. Stop with
// Ctrl+C or SIGTERM: nginx and the instances stop, and a database made here is dropped.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESOURCE_LIMITS } from '#shared/resources';
import { freePort } from '../src/server/testing/server-process.ts';
import { startCluster, type Cluster } from '../tests/e2e/app-instances.ts';
import { ensureClientBuild } from './client-build.mjs';
import { isJanusInstalled, JANUS_BINARY, startJanus, type JanusProcess } from './janus.ts';
import { findNginx, MULTIPART_ALLOWANCE_BYTES, privateNginxConfig, PROXY_INCLUDE_PATH, spawnNginx } from './nginx.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
/** The instances listen here, so nginx's connections to them come from this address. */
const NGINX_ADDRESS = '127.0.0.1';

process.chdir(ROOT);
// The instances read .env (src/server/main.ts); read it here too so the balancer's
// upload limit matches theirs. The real environment wins, as it does for them.
if (existsSync('.env')) process.loadEnvFile('.env');

const env = process.env;
const balancerPort = integerSetting('CLUSTER_PORT', 8080);
const balancerHost = env.CLUSTER_HOST || '127.0.0.1';
const instanceCount = integerSetting('CLUSTER_INSTANCES', 2);
const uploadMaxBytes = integerSetting('UPLOAD_MAX_BYTES', RESOURCE_LIMITS.uploadMaxBytesDefault);
const janusCount = integerSetting('CLUSTER_JANUS', 2, 0);
/** Each Janus of the cluster gets this many UDP ports for media, from 20000 on. */
const JANUS_RTP_PORTS = 1000;

function integerSetting(name: string, fallback: number, least = 1): number {
  const text = env[name];
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < least)
    fail(`${name} must be a whole number of ${least} or more, not ${text}`);
  return value;
}

function fail(message: string): never {
  console.error(`cluster: ${message}`);
  process.exit(1);
}

type NginxSettings = {
  folder: string;
  listen: string;
  upstreams: string[];
  clientMaxBodyBytes: number;
};

/**
 * The balancer's whole configuration; every path it writes is inside `folder` (no root-owned
 * paths). The proxying itself is deploy/nginx/studyhall-proxy.conf, the file a school copies
 * (decision 053): this adds the upstream of the instances and the listening port.
 */
function nginxConfig(settings: NginxSettings): string {
  return privateNginxConfig(
    settings.folder,
    `# The meeting socket carries its token in the query string: log no request lines at all.
access_log off;
# The instances send the build's precompressed .br/.gz copies themselves, with Vary:
# Accept-Encoding (decision 021); nginx passes Accept-Encoding up and the encoded answer,
# Content-Encoding and Vary down untouched. No gzip here: it would spend CPU on what is
# compressed already. API JSON goes out uncompressed, as the app sends it (small answers,
# CPU-bound instances); a TLS proxy in front may compress it (e.g. gzip on; gzip_types
# application/json;), which leaves already encoded answers alone.
gzip off;

# Round robin, no sticky sessions: nothing may depend on which instance answers.
# Passive health checks (open-source nginx has no active ones): an instance that
# refuses a connection or times out is left alone for 5 s, and an idempotent
# request that failed that way is retried on the next instance (proxy_next_upstream's
# default "error timeout"), so stopping one instance loses no page load.
upstream studyhall {
${settings.upstreams.map((address) => `  server ${address} max_fails=1 fail_timeout=5s;`).join('\n')}
  keepalive 16;
}

# Only the room sockets upgrade; every other request reuses kept-alive connections.
map $http_upgrade $studyhall_connection_upgrade {
  default upgrade;
  '' '';
}

server {
  listen ${settings.listen};
  # Above the app's own limit (UPLOAD_MAX_BYTES + multipart framing) so that the app, not
  # nginx, answers an oversized upload; this is only the backstop, in the app's envelope.
  client_max_body_size ${settings.clientMaxBodyBytes};
  # An instance that has not accepted in 2 s is skipped for the next one.
  proxy_connect_timeout 2s;

  include ${PROXY_INCLUDE_PATH};
}`,
  );
}

async function waitForHealth(url: string, isAlive: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) return false;
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

type ClusterJanus = {
  /** What the instances get: JANUS_URL and JANUS_API_SECRET, or nothing (a mesh). */
  env: Record<string, string>;
  /** The start's line about meetings. */
  summary: string;
  stop(): Promise<void>;
};

/**
 * The cluster's Janus servers (decision 037): a JANUS_URL of one's own as it is, else `janusCount`
 * started here from deploy/janus when janus is installed, else none (meetings are a mesh).
 */
async function startClusterJanus(
  onUnexpectedExit: (index: number, janus: JanusProcess) => void,
): Promise<ClusterJanus> {
  const none = { env: {}, stop: async () => {} };
  if (env.JANUS_URL) {
    return { ...none, summary: `through Janus at ${env.JANUS_URL} (JANUS_URL: yours, not started here)` };
  }
  if (janusCount === 0) return { ...none, summary: 'browser to browser (a mesh): CLUSTER_JANUS=0' };
  if (!isJanusInstalled()) {
    return {
      ...none,
      summary: `browser to browser (a mesh): \`${JANUS_BINARY}\` is not installed (apt-get install janus to meet through Janus)`,
    };
  }
  const apiSecret = randomBytes(24).toString('hex');
  const folder = mkdtempSync(path.join(tmpdir(), 'studyhall-janus-'));
  const servers: JanusProcess[] = [];
  let isStopping = false;
  const stop = async () => {
    isStopping = true;
    await Promise.all(servers.map((janus) => janus.stop()));
    rmSync(folder, { recursive: true, force: true }); // the configs carry the secret
  };
  try {
    for (let index = 0; index < janusCount; index++) {
      const firstRtpPort = 20000 + index * JANUS_RTP_PORTS;
      const janus = await startJanus(
        {
          port: await freePort(),
          host: '127.0.0.1',
          apiSecret,
          rtpPortRange: `${firstRtpPort}-${firstRtpPort + JANUS_RTP_PORTS - 1}`,
        },
        path.join(folder, String(index + 1)),
      );
      servers.push(janus);
      janus.child.once('exit', () => {
        if (!isStopping) onUnexpectedExit(index, janus);
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const urls = servers.map((janus) => janus.url);
  return {
    env: { JANUS_URL: urls.join(','), JANUS_API_SECRET: apiSecret },
    summary: `through Janus, ${urls.length === 1 ? 'one server' : `${urls.length} servers`} started here: ${urls.join(', ')}`,
    stop,
  };
}

async function main() {
  const nginxPath =
    findNginx(env.CLUSTER_NGINX) ??
    fail('nginx is not installed (Debian/Ubuntu: apt-get install -y nginx), or set CLUSTER_NGINX');
  ensureClientBuild();

  const kept = Boolean(env.CLUSTER_DATABASE_URL);
  const redisUrl = env.CLUSTER_REDIS_URL || 'redis://127.0.0.1:6379';
  const firstInstancePort = balancerPort + 1;
  const label = (index: number) => String.fromCharCode(97 + index); // a, b, c…
  const nginxFolder = mkdtempSync(path.join(tmpdir(), 'studyhall-nginx-'));
  const running: { cluster?: Cluster; nginx?: ChildProcess; janus?: ClusterJanus; startup?: Promise<unknown> } = {};
  let isStopping = false;

  const stopAll = async (exitCode: number) => {
    if (isStopping) return;
    isStopping = true;
    // Instances still starting are stopped once they are up (or have failed).
    await running.startup?.catch(() => {});
    const { nginx } = running;
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM'); // fast shutdown: open meeting sockets are cut, as the instances cut them anyway
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    await running.cluster
      ?.stop()
      .catch((error: unknown) => console.error('cluster: stopping the instances failed:', error));
    await running.janus?.stop().catch((error: unknown) => console.error('cluster: stopping Janus failed:', error));
    rmSync(nginxFolder, { recursive: true, force: true });
    console.log('cluster: stopped');
    process.exit(exitCode);
  };
  let signals = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      signals += 1;
      if (signals > 1) {
        console.error(`cluster: ${signal} again: exiting without cleaning up`);
        process.exit(1);
      }
      console.log(`cluster: ${signal}: stopping nginx and the instances…`);
      void stopAll(0);
    });
  }

  const started = Date.now();
  const janusStartup = startClusterJanus((index, server) => {
    console.error(
      `cluster: janus ${index + 1} exited; the people in its rooms are told and reconnect (to another Janus, if any)\n${server.output().slice(-2000)}`,
    );
  });
  // A Ctrl+C meanwhile stops the Janus servers once they are up.
  running.startup = janusStartup.then((started) => (running.janus = started));
  let janus: ClusterJanus;
  try {
    janus = await janusStartup;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`cluster: Janus did not start (CLUSTER_JANUS=0 runs meetings as a mesh): ${reason}`);
    return stopAll(1);
  }
  if (isStopping) return;
  const startup = startCluster(
    { databaseUrl: env.CLUSTER_DATABASE_URL || LOCAL_POSTGRES, redisUrl, isDatabaseKept: kept },
    {
      count: instanceCount,
      firstPort: firstInstancePort,
      ...(env.CLUSTER_DATA_DIR ? { dataDir: path.resolve(env.CLUSTER_DATA_DIR) } : {}),
      env: {
        LOG_LEVEL: env.LOG_LEVEL || 'warn',
        // nginx connects to the instances from here: its X-Forwarded-For names the client.
        TRUST_PROXY: NGINX_ADDRESS,
        // Unlike the e2e instances, a configured quotes service or secret is used.
        ...(env.QUOTES_API_URL ? { QUOTES_API_URL: env.QUOTES_API_URL } : {}),
        ...(env.JWT_SECRET ? { JWT_SECRET: env.JWT_SECRET } : {}),
        ...janus.env,
      },
      onOutput: (text, port) => {
        // The instances' log lines, prefixed with the port of the one that wrote them.
        for (const line of text.split('\n').filter(Boolean)) process.stdout.write(`[${port}] ${line}\n`);
      },
      onUnexpectedExit: (port, code, signal) => {
        if (isStopping) return;
        console.error(`cluster: the instance on ${port} exited (${signal ?? `code ${code}`}); nginx uses the others`);
      },
    },
  );
  running.startup = startup.then((cluster) => (running.cluster = cluster));
  let cluster: Cluster;
  try {
    cluster = await startup;
  } catch (error) {
    console.error('cluster: the instances did not start:', error instanceof Error ? error.message : error);
    return stopAll(1);
  }
  if (isStopping) return;

  const configPath = path.join(nginxFolder, 'nginx.conf');
  writeFileSync(
    configPath,
    nginxConfig({
      folder: nginxFolder,
      listen: `${balancerHost}:${balancerPort}`,
      upstreams: cluster.instances.map((instance) => `${NGINX_ADDRESS}:${instance.port}`),
      clientMaxBodyBytes: uploadMaxBytes + MULTIPART_ALLOWANCE_BYTES,
    }),
  );
  const nginx = spawnNginx(nginxPath, nginxFolder, configPath);
  running.nginx = nginx;
  nginx.once('error', (error) => {
    console.error(`cluster: nginx did not run: ${error.message}`);
    void stopAll(1);
  });
  nginx.once('exit', (code, signal) => {
    if (isStopping) return;
    console.error(`cluster: nginx exited (${signal ?? `code ${code}`}); stopping the instances`);
    void stopAll(1);
  });

  const displayHost = balancerHost === '0.0.0.0' ? '127.0.0.1' : balancerHost;
  const balancerUrl = `http://${displayHost}:${balancerPort}`;
  const isNginxUp = () => nginx.exitCode === null && nginx.signalCode === null;
  if (!(await waitForHealth(`${balancerUrl}/api/health`, isNginxUp, 15_000))) {
    if (!isStopping) console.error(`cluster: the balancer at ${balancerUrl} did not answer /api/health`);
    return stopAll(1);
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    [
      `cluster: StudyHall is ready on ${balancerUrl} (nginx, round robin, in ${seconds} s)`,
      ...cluster.instances.map((instance, index) => `  instance ${label(index)}: ${instance.baseUrl}`),
      `  PostgreSQL: ${redactPassword(cluster.databaseUrl)}${kept ? '' : ' (made for this run, dropped at the end)'}`,
      `  Redis: ${redactPassword(redisUrl)}`,
      `  files: ${env.S3_BUCKET ? `S3 bucket ${env.S3_BUCKET}` : `${cluster.dataDir}/uploads (shared by the instances)`}`,
      `  meetings: ${janus.summary}`,
      `  nginx: ${configPath}`,
      'Stop with Ctrl+C.',
    ].join('\n'),
  );
}

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

await main();
