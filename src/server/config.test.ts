import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MEETING_LIMITS } from '#shared/meetings';
import { RESOURCE_LIMITS } from '#shared/resources';
import { ConfigError, loadConfig } from './config.ts';
import { patience } from './testing/patience.ts';

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

/** The problems a configuration is refused with (fails the test if it is accepted). */
function problemsOf(environment: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('loadConfig: throttling and storage (decision 016)', () => {
  it('defaults to trusting no proxy, 5,000 sign-ins and 500 registrations per address and hour, 5 GB per teacher', () => {
    const config = loadConfig({ DATA_DIR: freshDataDir() });
    expect(config).toMatchObject({
      trustProxy: false,
      signInLimitPerIp: 5000,
      registrationLimitPerIp: 500,
      storageQuotaBytes: 5 * 1024 * 1024 * 1024,
    });
  });

  it('reads TRUST_PROXY as addresses and ranges, or a number of proxies', () => {
    const read = (value: string) => loadConfig({ DATA_DIR: freshDataDir(), TRUST_PROXY: value }).trustProxy;
    expect(read('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(read(' 10.0.0.0/8, fd00::/8 ,loopback')).toEqual(['10.0.0.0/8', 'fd00::/8', 'loopback']);
    expect(read('::1')).toEqual(['::1']);
    expect(read('1')).toBe(1);
    expect(read('false')).toBe(false);
  });

  it.each([
    ['true', /^TRUST_PROXY=true would let any client choose the address it is counted under/],
    ['0', /^TRUST_PROXY must be between 1 and 10 proxies/],
    ['11', /^TRUST_PROXY must be between 1 and 10 proxies/],
    ['nginx', /^TRUST_PROXY: "nginx" is not an address or range/],
    ['10.0.0.0/33', /^TRUST_PROXY: "10.0.0.0\/33" is not an address or range/],
    ['127.0.0.1,', /^TRUST_PROXY: "" is not an address or range/],
  ])('refuses TRUST_PROXY=%s with what to write instead', (value, message) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), TRUST_PROXY: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(problems[0]).toContain('e.g. 127.0.0.1');
  });

  it('reads SIGN_IN_LIMIT_PER_IP, REGISTRATION_LIMIT_PER_IP and STORAGE_QUOTA_BYTES', () => {
    const config = loadConfig({
      DATA_DIR: freshDataDir(),
      SIGN_IN_LIMIT_PER_IP: '20000',
      REGISTRATION_LIMIT_PER_IP: '10',
      STORAGE_QUOTA_BYTES: '1073741824',
    });
    expect(config).toMatchObject({
      signInLimitPerIp: 20000,
      registrationLimitPerIp: 10,
      storageQuotaBytes: 1073741824,
    });
  });

  it.each([
    ['SIGN_IN_LIMIT_PER_IP', '9'],
    ['SIGN_IN_LIMIT_PER_IP', 'lots'],
    ['REGISTRATION_LIMIT_PER_IP', '2.5'],
    ['STORAGE_QUOTA_BYTES', '0'],
    ['STORAGE_QUOTA_BYTES', '5GB'],
  ])('refuses %s=%s with a clear message', (name, value) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name} must be`));
  });
});

describe('loadConfig: uploads', () => {
  it('defaults to 100 MB uploads kept on disk', () => {
    const config = loadConfig({ DATA_DIR: freshDataDir() });
    expect(config.uploadMaxBytes).toBe(RESOURCE_LIMITS.uploadMaxBytesDefault);
    expect(config.uploadMaxBytes).toBe(100 * 1024 * 1024);
    expect(config.s3).toBeUndefined();
  });

  it('reads UPLOAD_MAX_BYTES', () => {
    expect(loadConfig({ DATA_DIR: freshDataDir(), UPLOAD_MAX_BYTES: '5242880' }).uploadMaxBytes).toBe(5242880);
  });

  it.each(['ten', '0', '-5', '1.5', '100MB'])('refuses UPLOAD_MAX_BYTES=%s with a clear message', (value) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), UPLOAD_MAX_BYTES: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^UPLOAD_MAX_BYTES must be/);
  });

  it('stores in an S3-compatible server with path-style addresses when S3_ENDPOINT is set', () => {
    const config = loadConfig({
      DATA_DIR: freshDataDir(),
      S3_BUCKET: 'studyhall-files',
      S3_ENDPOINT: 'http://minio.school.lan:9000',
      S3_ACCESS_KEY_ID: 'studyhall',
      S3_SECRET_ACCESS_KEY: 'secret-key',
    });
    expect(config.s3).toEqual({
      bucket: 'studyhall-files',
      endpoint: 'http://minio.school.lan:9000',
      region: 'us-east-1',
      accessKeyId: 'studyhall',
      secretAccessKey: 'secret-key',
      forcePathStyle: true,
    });
  });

  it('stores in AWS with virtual-hosted addresses and the default credential chain when only S3_BUCKET is set', () => {
    const config = loadConfig({ DATA_DIR: freshDataDir(), S3_BUCKET: 'studyhall-files', S3_REGION: 'eu-west-3' });
    expect(config.s3).toEqual({
      bucket: 'studyhall-files',
      endpoint: undefined,
      region: 'eu-west-3',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
  });

  it('lets S3_FORCE_PATH_STYLE override the default either way', () => {
    const withEndpoint = { DATA_DIR: freshDataDir(), S3_BUCKET: 'files', S3_ENDPOINT: 'https://s3.example.org' };
    expect(loadConfig({ ...withEndpoint, S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false);
    expect(
      loadConfig({ DATA_DIR: freshDataDir(), S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle,
    ).toBe(true);
  });

  it('treats an empty S3_BUCKET as unset', () => {
    expect(loadConfig({ DATA_DIR: freshDataDir(), S3_BUCKET: '' }).s3).toBeUndefined();
  });

  it('lists every S3 problem at once', () => {
    const problems = problemsOf({
      DATA_DIR: freshDataDir(),
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'ftp://files.example.org',
      S3_FORCE_PATH_STYLE: 'yes',
      S3_ACCESS_KEY_ID: 'only-the-id',
      UPLOAD_MAX_BYTES: '0',
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/S3_ENDPOINT must be an http\(s\) URL/);
    expect(problems.join('\n')).toMatch(/S3_FORCE_PATH_STYLE must be true or false/);
    expect(problems.join('\n')).toMatch(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/);
    expect(problems.join('\n')).toMatch(/UPLOAD_MAX_BYTES/);
  });

  it('refuses S3 settings without S3_BUCKET rather than silently keeping files on disk', () => {
    const problems = problemsOf({
      DATA_DIR: freshDataDir(),
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(problems).toEqual([
      'S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY set without S3_BUCKET (set S3_BUCKET to store files in S3)',
    ]);
  });
});

describe('loadConfig: meetings', () => {
  it('defaults to in-process signalling, rooms of 8 and no ICE servers (host candidates only)', () => {
    const config = loadConfig({ DATA_DIR: freshDataDir() });
    expect(config.redisUrl).toBeUndefined();
    expect(config.meetingRoomSize).toBe(MEETING_LIMITS.defaultRoomSize);
    expect(config.meetingRoomSize).toBe(8);
    expect(config.iceServers).toEqual([]);
  });

  it('reads REDIS_URL, MEETING_ROOM_SIZE and ICE_SERVERS', () => {
    const iceServers = [
      { urls: 'stun:stun.school.lan:3478' },
      { urls: ['turn:turn.school.lan:3478', 'turns:turn.school.lan:5349'], username: 'studyhall', credential: 'pw' },
    ];
    const config = loadConfig({
      DATA_DIR: freshDataDir(),
      REDIS_URL: 'redis://:secret@redis.school.lan:6379/1',
      MEETING_ROOM_SIZE: '4',
      ICE_SERVERS: JSON.stringify(iceServers),
    });
    expect(config).toMatchObject({
      redisUrl: 'redis://:secret@redis.school.lan:6379/1',
      meetingRoomSize: 4,
      iceServers,
    });
    expect(loadConfig({ DATA_DIR: freshDataDir(), REDIS_URL: 'rediss://redis.example.org' }).redisUrl).toBe(
      'rediss://redis.example.org',
    );
  });

  it('treats empty meeting settings as unset', () => {
    const config = loadConfig({ DATA_DIR: freshDataDir(), REDIS_URL: '', MEETING_ROOM_SIZE: '', ICE_SERVERS: '' });
    expect(config).toMatchObject({ redisUrl: undefined, meetingRoomSize: 8, iceServers: [] });
  });

  it('reads READ_CACHE_MS: 1 s by default, 0 turns the cache off', () => {
    expect(loadConfig({ DATA_DIR: freshDataDir() }).readCacheMs).toBe(1000);
    expect(loadConfig({ DATA_DIR: freshDataDir(), READ_CACHE_MS: '0' }).readCacheMs).toBe(0);
    expect(loadConfig({ DATA_DIR: freshDataDir(), READ_CACHE_MS: '60000' }).readCacheMs).toBe(60000);
  });

  it.each(['-1', '60001', 'soon', '1.5'])('refuses READ_CACHE_MS=%s', (value) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), READ_CACHE_MS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^READ_CACHE_MS must be/);
  });

  it('keeps rooms above the mesh size for Janus', () => {
    expect(loadConfig({ DATA_DIR: freshDataDir(), MEETING_ROOM_SIZE: '16' }).meetingRoomSize).toBe(16);
    const problems = problemsOf({ DATA_DIR: freshDataDir(), MEETING_ROOM_SIZE: '17' });
    expect(problems).toEqual([expect.stringMatching(/^MEETING_ROOM_SIZE above 16 needs Janus \(JANUS_URL\)/)]);
    const withJanus = {
      DATA_DIR: freshDataDir(),
      MEETING_ROOM_SIZE: '50',
      JANUS_URL: 'ws://127.0.0.1:8188',
      JANUS_API_SECRET: 'a-janus-api-secret-for-tests',
    };
    expect(loadConfig(withJanus).meetingRoomSize).toBe(50);
  });

  it.each(['1', '51', 'eight', '2.5'])('refuses MEETING_ROOM_SIZE=%s', (value) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), MEETING_ROOM_SIZE: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^MEETING_ROOM_SIZE must be/);
  });

  it.each([
    ['not JSON', '[{urls:', /^ICE_SERVERS is not valid JSON/],
    ['an object instead of a list', '{"urls":"stun:a.example:3478"}', /^ICE_SERVERS: Missing, or not an array/],
    ['a web address', '[{"urls":"https://a.example"}]', /^ICE_SERVERS\[0\]\.urls: ICE server URLs start with stun:/],
    [
      'TURN without credentials',
      '[{"urls":"turn:a.example:3478"}]',
      /^ICE_SERVERS\[0\]: A TURN server without its username and credential/,
    ],
    ['an unknown field', '[{"urls":"stun:a.example","password":"x"}]', /^ICE_SERVERS\[0\]/],
  ])('refuses ICE_SERVERS that is %s, with an example', (_label, value, message) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), ICE_SERVERS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(problems[0]).toContain('expected a JSON list like');
  });

  it('lists every meeting problem at once, with the others', () => {
    const problems = problemsOf({
      DATA_DIR: freshDataDir(),
      REDIS_URL: 'http://redis.school.lan',
      MEETING_ROOM_SIZE: '100',
      ICE_SERVERS: 'stun:stun.school.lan',
      PORT: 'eighty',
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(problems.join('\n')).toMatch(/MEETING_ROOM_SIZE must be between 2 and 50/);
    expect(problems.join('\n')).toMatch(/ICE_SERVERS is not valid JSON/);
    expect(problems.join('\n')).toMatch(/PORT/);
  });
});

describe('loadConfig: Janus (decision 037)', () => {
  const secret = 'a1b2c3d4e5f6a7b8c9d0e1f2';

  it('leaves Janus off by default and when both settings are empty', () => {
    expect(loadConfig({ DATA_DIR: freshDataDir() }).janus).toBeUndefined();
    expect(loadConfig({ DATA_DIR: freshDataDir(), JANUS_URL: '', JANUS_API_SECRET: '' }).janus).toBeUndefined();
  });

  it('reads JANUS_URL and JANUS_API_SECRET together', () => {
    expect(
      loadConfig({ DATA_DIR: freshDataDir(), JANUS_URL: 'ws://127.0.0.1:8188', JANUS_API_SECRET: secret }).janus,
    ).toEqual({ urls: ['ws://127.0.0.1:8188/'], apiSecret: secret });
    expect(
      loadConfig({ DATA_DIR: freshDataDir(), JANUS_URL: 'wss://janus.school.lan/janus', JANUS_API_SECRET: secret })
        .janus?.urls,
    ).toEqual(['wss://janus.school.lan/janus']);
  });

  it('reads several Janus servers, separated by commas, in their order', () => {
    const janus = loadConfig({
      DATA_DIR: freshDataDir(),
      JANUS_URL: ' ws://janus-2.school.lan:8188 ,wss://janus-1.school.lan/janus,ws://[fd00::7]:8188',
      JANUS_API_SECRET: secret,
    }).janus;
    expect(janus).toEqual({
      urls: ['ws://janus-2.school.lan:8188/', 'wss://janus-1.school.lan/janus', 'ws://[fd00::7]:8188/'],
      apiSecret: secret,
    });
  });

  it('names every bad entry of a list, each once', () => {
    const problems = problemsOf({
      DATA_DIR: freshDataDir(),
      JANUS_URL: 'ws://a.lan:8188,http://b.lan:8088/janus,,c.lan:8188,ws://A.lan:8188/',
      JANUS_API_SECRET: secret,
    });
    expect(problems).toEqual([
      'JANUS_URL entry 2 ("http://b.lan:8088/janus") must be the ws:// or wss:// address of Janus\'s WebSocket transport, e.g. ws://127.0.0.1:8188',
      'JANUS_URL entry 3 is empty (a comma too many?)',
      'JANUS_URL entry 4 ("c.lan:8188") must be the ws:// or wss:// address of Janus\'s WebSocket transport, e.g. ws://127.0.0.1:8188',
      'JANUS_URL lists ws://a.lan:8188/ twice (entries 1 and 5): name each Janus server once',
    ]);
  });

  it.each([
    [{ JANUS_URL: 'ws://127.0.0.1:8188' }, /^JANUS_API_SECRET must be set with JANUS_URL/],
    [{ JANUS_API_SECRET: secret }, /^JANUS_API_SECRET set without JANUS_URL/],
    [
      { JANUS_URL: 'http://127.0.0.1:8088/janus', JANUS_API_SECRET: secret },
      /^JANUS_URL must be the ws:\/\/ or wss:\/\//,
    ],
    [{ JANUS_URL: '127.0.0.1:8188', JANUS_API_SECRET: secret }, /^JANUS_URL must be the ws:\/\/ or wss:\/\//],
    [{ JANUS_URL: 'ws://', JANUS_API_SECRET: secret }, /^JANUS_URL must be the ws:\/\/ or wss:\/\//],
    [{ JANUS_URL: 'ws://a.lan,ws://a.lan/', JANUS_API_SECRET: secret }, /^JANUS_URL lists ws:\/\/a.lan\/ twice/],
    [{ JANUS_URL: 'ws://127.0.0.1:8188', JANUS_API_SECRET: 'short' }, /^JANUS_API_SECRET must be at least 16/],
    [{ JANUS_URL: 'ws://127.0.0.1:8188', JANUS_API_SECRET: `${secret}"x` }, /^JANUS_API_SECRET must not contain/],
  ])('refuses %o with a clear message', (settings, message) => {
    const problems = problemsOf({ DATA_DIR: freshDataDir(), ...settings });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });
});

describe('loadConfig: several instances', () => {
  const cluster = { DATABASE_URL: 'postgres://studyhall@db:5432/studyhall', REDIS_URL: 'redis://redis:6379' };

  it('refuses PostgreSQL + Redis without JWT_SECRET, before generating a secret of its own', () => {
    const dataDir = freshDataDir();
    const problems = problemsOf({ DATA_DIR: dataDir, ...cluster });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^JWT_SECRET must be set when DATABASE_URL and REDIS_URL are/);
    expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false);
  });

  it('accepts them with JWT_SECRET, and either one alone without it (one instance)', () => {
    expect(loadConfig({ DATA_DIR: freshDataDir(), ...cluster, JWT_SECRET: 's'.repeat(40) }).jwtSecret).toBe(
      's'.repeat(40),
    );
    expect(loadConfig({ DATA_DIR: freshDataDir(), DATABASE_URL: cluster.DATABASE_URL }).jwtSecret).toHaveLength(64);
    expect(loadConfig({ DATA_DIR: freshDataDir(), REDIS_URL: cluster.REDIS_URL }).jwtSecret).toHaveLength(64);
  });

  it('replaces a stored secret too short to use', () => {
    const dataDir = freshDataDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'jwt-secret'), 'short\n');
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.jwtSecret).toHaveLength(64);
    expect(readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(config.jwtSecret);
    expect(readdirSync(dataDir)).toEqual(['jwt-secret']);
  });

  it(
    'gives instances starting together on one shared DATA_DIR one and the same secret',
    { timeout: patience(60_000) },
    async () => {
      const dataDir = freshDataDir();
      // Each process says it is ready, then waits for the word to go: all read or create the
      // secret at once, however long each took to start (decision 042: an event, not a time).
      const script = `
      const { loadConfig } = await import(${JSON.stringify(new URL('./config.ts', import.meta.url).href)});
      process.stdout.write('ready\\n');
      await new Promise((resolve) => process.stdin.once('data', resolve));
      process.stdout.write(loadConfig({ DATA_DIR: ${JSON.stringify(dataDir)} }).jwtSecret);
      process.stdin.destroy();`;
      const children = Array.from({ length: 8 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let output = '';
        let isReady!: () => void;
        const ready = new Promise<void>((resolve) => (isReady = resolve));
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.startsWith('ready\n')) isReady();
        });
        const secret = new Promise<string>((resolve, reject) =>
          child.once('exit', (code) =>
            code === 0 ? resolve(output.slice('ready\n'.length)) : reject(new Error(`exit ${code}`)),
          ),
        );
        return { child, ready, secret };
      });
      // A child that fails before it is ready fails the test here rather than leaving it waiting.
      await Promise.all(children.map(({ ready, secret }) => Promise.race([ready, secret])));
      for (const { child } of children) child.stdin.write('go\n');
      const secrets = await Promise.all(children.map(({ secret }) => secret));
      const stored = readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8').trim();
      expect(new Set(secrets)).toEqual(new Set([stored]));
      expect(readdirSync(dataDir)).toEqual(['jwt-secret']); // no candidate file left behind
    },
  );
});
