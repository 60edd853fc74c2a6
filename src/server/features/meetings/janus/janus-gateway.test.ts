/**
 * The gateway against a real Janus, started by the test from the repository's config
 * (deploy/janus) on a free port. Janus is an optional install: without the binary these tests
 * are skipped with a message, unless JANUS_REQUIRED=1 (set by .ci/run), where its absence fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  isJanusInstalled,
  JANUS_BINARY,
  startJanus,
  type JanusProcess,
  type JanusSettings,
} from '../../../../../scripts/janus.ts';
import { freePort, startServerProcess, type ServerProcess } from '../../../testing/server-process.ts';
import { JanusGateway, janusRoomId, JanusUnavailableError, type JanusLogger } from './janus-gateway.ts';
import { eventually, patience } from '../../../testing/patience.ts';

/** The limit of the tests that start the app as a process (decision 042). */
const APP_TEST = { timeout: patience(90_000) };

const installed = isJanusInstalled();
const required = process.env.JANUS_REQUIRED === '1';
if (!installed && !required) {
  console.warn(`Janus tests skipped: no \`${JANUS_BINARY}\` here (apt-get install janus to run them)`);
}

describe.runIf(!installed && required)('Janus (required here: JANUS_REQUIRED=1)', () => {
  it('is installed', () => {
    expect.fail(`JANUS_REQUIRED=1 but \`${JANUS_BINARY}\` cannot be run: install Debian's janus`);
  });
});

/** The app as `npm start` runs it, with JANUS_URL set, until its log says `line`. */
async function serverLogging(janusUrl: string, apiSecret: string, line: RegExp): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studyhall-janus-app-'));
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    JANUS_URL: janusUrl,
    JANUS_API_SECRET: apiSecret,
    LOG_LEVEL: 'info',
  });
  server.exited.then(
    () => rmSync(dataDir, { recursive: true, force: true }),
    () => {},
  );
  await eventually(`${line} in the server's log`, () => line.test(server.output()), 15_000);
  return server;
}

describe('the app with JANUS_URL set', () => {
  it('starts and serves with Janus unreachable, and says so once in its log', APP_TEST, async () => {
    const server = await serverLogging(
      `ws://127.0.0.1:${await freePort()}`,
      randomBytes(18).toString('hex'),
      /janus unreachable/,
    );
    try {
      expect(server.output()).toMatch(/janus unreachable/);
      expect(server.output().match(/janus unreachable/g)).toHaveLength(1);
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('JanusGateway against a server that accepts but never answers', () => {
  it('reports unreachable after the request timeout rather than hanging', async () => {
    const silent = Fastify();
    await silent.register(fastifyWebsocket);
    silent.get('/', { websocket: true }, () => {}); // opens the socket, answers nothing
    await silent.listen({ port: 0, host: '127.0.0.1' });
    const { port } = silent.server.address() as { port: number };
    const warnings: string[] = [];
    const gateway = new JanusGateway({
      url: `ws://127.0.0.1:${port}/`,
      apiSecret: randomBytes(18).toString('hex'),
      logger: { info: () => {}, warn: (_object, message) => warnings.push(message) },
      requestTimeoutMs: 500,
    });
    try {
      expect(await gateway.start()).toBe('unreachable');
      expect(warnings).toEqual([expect.stringMatching(/^janus unreachable/)]);
    } finally {
      await gateway.close();
      await silent.close();
    }
  });
});

describe.runIf(installed)('JanusGateway against a real Janus', () => {
  const folders: string[] = [];
  const gateways: JanusGateway[] = [];
  let janus: JanusProcess;
  let settings: JanusSettings;

  const startOurJanus = async (given: JanusSettings) => {
    const folder = mkdtempSync(path.join(tmpdir(), 'studyhall-janus-'));
    folders.push(folder);
    return startJanus(given, folder);
  };

  const newGateway = (overrides: { url?: string; apiSecret?: string } = {}) => {
    const lines: { level: 'info' | 'warn'; message: string; object: object }[] = [];
    const logger: JanusLogger = {
      info: (object, message) => lines.push({ level: 'info', message, object }),
      warn: (object, message) => lines.push({ level: 'warn', message, object }),
    };
    const gateway = new JanusGateway({
      url: overrides.url ?? janus.url,
      apiSecret: overrides.apiSecret ?? settings.apiSecret,
      logger,
      retryDelaysMs: [100, 200, 400],
      requestTimeoutMs: 3000,
    });
    gateways.push(gateway);
    return { gateway, lines };
  };

  const room = (name: string) => ({
    room: janusRoomId(`${name}-${randomBytes(4).toString('hex')}`),
    description: `Test room ${name}`,
    maxPublishers: 8,
    secret: randomBytes(12).toString('hex'),
    pin: randomBytes(6).toString('hex'),
  });

  beforeAll(async () => {
    const base = 40000 + Math.floor(Math.random() * 200) * 100;
    settings = {
      port: await freePort(),
      host: '127.0.0.1',
      apiSecret: randomBytes(18).toString('hex'),
      rtpPortRange: `${base}-${base + 99}`,
    };
    janus = await startOurJanus(settings);
  });

  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
  });

  afterAll(async () => {
    await janus?.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('creates a private room, lists it, refuses a wrong secret and destroys it', async () => {
    const { gateway, lines } = newGateway();
    expect(await gateway.start()).toBe('connected');
    expect(lines).toEqual([expect.objectContaining({ level: 'info', message: 'janus connected' })]);

    const spec = room('lesson');
    await gateway.createRoom(spec);
    expect(await gateway.listRooms()).toContain(spec.room);
    // The same id again: Janus refuses, the room stays as it was.
    await expect(gateway.createRoom(spec)).rejects.toThrow(/^427 /);

    await expect(gateway.destroyRoom(spec.room, `${spec.secret}x`)).rejects.toThrow(/^433 /);
    expect(await gateway.listRooms()).toContain(spec.room);

    await gateway.destroyRoom(spec.room, spec.secret);
    expect(await gateway.listRooms()).not.toContain(spec.room);
    expect(gateway.status).toBe('connected');
  });

  it('is refused by Janus without our API secret', async () => {
    const { gateway, lines } = newGateway({ apiSecret: 'not-the-secret-of-this-janus' });
    expect(await gateway.start()).toBe('unreachable');
    expect(lines[0]).toMatchObject({ level: 'warn', object: { reason: expect.stringMatching(/403|unauthorized/i) } });
    await expect(gateway.listRooms()).rejects.toBeInstanceOf(JanusUnavailableError);
  });

  it('reports unreachable when Janus is down at start, then connects once it is up', async () => {
    const laterSettings = { ...settings, port: await freePort() };
    const { gateway, lines } = newGateway({ url: `ws://127.0.0.1:${laterSettings.port}` });
    expect(await gateway.start()).toBe('unreachable');
    await expect(gateway.createRoom(room('early'))).rejects.toBeInstanceOf(JanusUnavailableError);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/^janus unreachable/) }),
    ]);

    const later = await startOurJanus(laterSettings);
    try {
      await gateway.whenStatus('connected');
      const spec = room('late');
      await gateway.createRoom(spec);
      expect(await gateway.listRooms()).toContain(spec.room);
      // One warning for the whole outage, however many attempts it took.
      expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
    } finally {
      await later.stop();
    }
  });

  it('is connected by the app at start', APP_TEST, async () => {
    const server = await serverLogging(janus.url, settings.apiSecret, /janus connected/);
    try {
      expect(server.output()).toMatch(/janus connected/);
      expect(server.output()).not.toMatch(/janus unreachable/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('reports unreachable when Janus dies mid-way and recovers when it is back', async () => {
    const { gateway, lines } = newGateway();
    expect(await gateway.start()).toBe('connected');
    const statuses: string[] = [];
    gateway.onStatus((status) => statuses.push(status));
    await gateway.createRoom(room('before'));

    await janus.kill();
    await gateway.whenStatus('unreachable', patience(5000));
    await expect(gateway.createRoom(room('during'))).rejects.toBeInstanceOf(JanusUnavailableError);
    expect(lines.at(-1)).toMatchObject({ level: 'warn', message: expect.stringMatching(/^janus unreachable/) });

    janus = await startOurJanus(settings);
    await gateway.whenStatus('connected');
    expect(statuses).toEqual(['unreachable', 'connected']);
    // Rooms lived in the old Janus's memory: a fresh one starts empty, and rooms can be made again.
    const spec = room('after');
    await gateway.createRoom(spec);
    expect(await gateway.listRooms()).toEqual([spec.room]);
  });
});
