/**
 * Starts Janus (Debian's `janus`, decision 037) with the configuration shipped in deploy/janus.
 * The shipped files carry placeholders between @ signs (port, address, secret, RTP ports): they are
 * filled into a private folder and Janus runs with `-C <folder>/janus.jcfg -F <folder>`, so the
 * secret is never on Janus's command line (visible to every user in `ps`) nor in the repository.
 *
 * `npm run janus` runs it in the foreground with JANUS_URL's port and address and
 * JANUS_API_SECRET; tests and `npm run cluster` call startJanus() on a free port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const JANUS_CONFIG_SOURCE = fileURLToPath(new URL('../deploy/janus/', import.meta.url));
export const JANUS_BINARY = process.env.JANUS_BINARY ?? 'janus';

export type JanusSettings = {
  /** The WebSocket transport's port and address (JANUS_URL's). */
  port: number;
  host: string;
  apiSecret: string;
  /** UDP ports for media, "min-max". */
  rtpPortRange: string;
};

export type JanusProcess = {
  url: string;
  child: ChildProcess;
  /** Everything Janus printed so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after a few seconds; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGKILL: Janus goes away as in a crash. */
  kill(): Promise<void>;
};

/** Whether the janus binary can be run here (it is an optional install, decision 037). */
export function isJanusInstalled(): boolean {
  const result = spawnSync(JANUS_BINARY, ['--help'], { stdio: 'ignore' });
  return result.error === undefined;
}

/** Copies deploy/janus into `folder` (private: the files carry the secret) with the settings filled in. */
export function writeJanusConfig(folder: string, settings: JanusSettings): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const values: Record<string, string> = {
    CONFIGS_FOLDER: folder,
    JANUS_API_SECRET: settings.apiSecret,
    WS_PORT: String(settings.port),
    WS_IP: settings.host,
    RTP_PORT_RANGE: settings.rtpPortRange,
  };
  for (const [name, value] of Object.entries(values)) {
    // A quote or backslash would end the jcfg string early and let the value rewrite the config.
    if (/["\\\n]/.test(value)) throw new Error(`${name} must not contain quotes, backslashes or line breaks`);
  }
  for (const name of readdirSync(JANUS_CONFIG_SOURCE).filter((file) => file.endsWith('.jcfg'))) {
    const text = readFileSync(path.join(JANUS_CONFIG_SOURCE, name), 'utf8').replace(
      /@([A-Z0-9_]+)@/g,
      (placeholder, key: string) => {
        const value = values[key];
        if (value === undefined) throw new Error(`${name}: no value for ${placeholder}`);
        return value;
      },
    );
    writeFileSync(path.join(folder, name), text, { mode: 0o600 });
  }
}

/** Starts Janus and waits until its WebSocket transport accepts connections. */
export async function startJanus(
  settings: JanusSettings,
  folder = mkdtempSync(path.join(tmpdir(), 'janus-')),
): Promise<JanusProcess> {
  writeJanusConfig(folder, settings);
  const child = spawn(
    JANUS_BINARY,
    ['-C', path.join(folder, 'janus.jcfg'), '-F', folder, '--disable-colors', '--debug-timestamps'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const spawnFailed = new Promise<never>((_, reject) => child.once('error', reject));
  spawnFailed.catch(() => {}); // observed below; not an unhandled rejection when Janus starts
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const janus: JanusProcess = {
    url: `ws://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${settings.port}`,
    child,
    output: () => output,
    stop: () => stop('SIGTERM'),
    kill: () => stop('SIGKILL'),
  };
  const deadline = Date.now() + 15_000;
  while (!(await isListening(settings.host, settings.port))) {
    const ended = await Promise.race([
      exited.then(() => true),
      spawnFailed,
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 100)),
    ]);
    if (ended) throw new Error(`janus exited before listening:\n${output}`);
    if (Date.now() > deadline) {
      await janus.kill();
      throw new Error(`janus did not listen on ${settings.host}:${settings.port} within 15 s:\n${output}`);
    }
  }
  return janus;
}

function isListening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * `npm run janus`: Janus in the foreground for this install's JANUS_URL and JANUS_API_SECRET. With
 * several servers in JANUS_URL, each host runs its own: JANUS_URL there names that one.
 */
async function main(): Promise<void> {
  const entries = (process.env.JANUS_URL || 'ws://127.0.0.1:8188').split(',').map((entry) => entry.trim());
  if (entries.length > 1) {
    throw new Error(
      `JANUS_URL lists ${entries.length} servers: run \`npm run janus\` on each Janus host with JANUS_URL set to that server's own address`,
    );
  }
  const url = new URL(entries[0]!);
  const apiSecret = process.env.JANUS_API_SECRET ?? '';
  if (apiSecret.length < 16) throw new Error('JANUS_API_SECRET must be set (16 characters or more)');
  const folder = path.resolve(process.env.DATA_DIR || './data', 'janus');
  rmSync(folder, { recursive: true, force: true });
  const janus = await startJanus(
    {
      port: Number(url.port || 8188),
      host: url.hostname.replace(/^\[|\]$/g, ''),
      apiSecret,
      rtpPortRange: process.env.JANUS_RTP_PORT_RANGE || '20000-40000',
    },
    folder,
  );
  process.stdout.write(janus.output()); // what it printed while starting, then the rest as it comes
  janus.child.stdout?.pipe(process.stdout);
  janus.child.stderr?.pipe(process.stderr);
  console.log(`janus listening on ${janus.url} (config in ${folder})`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void janus.stop());
  janus.child.once('exit', (code) => process.exit(code ?? 0));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
