import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { fieldCodeOf } from '#shared/api';
import { iceServersSchema, MEETING_LIMITS, type IceServer } from '#shared/meetings';
import { RESOURCE_LIMITS } from '#shared/resources';
import { normaliseSetupCode } from './features/school/setup-code.ts';
import { DEFAULT_READ_CACHE_TTL_MS, MAX_TAGGED_TTL_MS } from './cache/read-cache.ts';
import { DEFAULT_THROTTLE_LIMITS, FAILURE_COST } from './throttle/limits.ts';
import { fieldErrorMessage } from './field-error-messages.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ROOM_SIZE_RANGE = `MEETING_ROOM_SIZE must be between ${MEETING_LIMITS.minRoomSize} and ${MEETING_LIMITS.maxRoomSize}`;
const ICE_SERVERS_EXAMPLE =
  'expected a JSON list like [{"urls":"stun:stun.example.org:3478"},{"urls":"turn:turn.example.org:3478","username":"u","credential":"p"}]';

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY as Fastify accepts them. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const TRUST_PROXY_EXAMPLE =
  'the address of your proxy or load balancer (e.g. 127.0.0.1, or 10.0.0.0/8,fd00::/8), or how many proxies stand in front (e.g. 1)';
const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY: whose X-Forwarded-For to believe. Unset: nobody's, every client is the
 * address that connected. A list of proxy addresses (or ranges), or a number of proxies in
 * front. `true` (believe any) is refused: a client could then name any address it likes and
 * take a fresh sign-in budget with every request (decision 016).
 */
const trustProxySetting = z
  .string()
  .trim()
  .transform((text, context): TrustProxy => {
    if (text === 'false') return false;
    if (text === 'true') {
      context.addIssue({
        code: 'custom',
        message: `TRUST_PROXY=true would let any client choose the address it is counted under; give ${TRUST_PROXY_EXAMPLE}`,
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops >= 1 && hops <= MAX_PROXY_HOPS) return hops;
      context.addIssue({
        code: 'custom',
        message: `TRUST_PROXY must be between 1 and ${MAX_PROXY_HOPS} proxies; expected ${TRUST_PROXY_EXAMPLE}`,
      });
      return z.NEVER;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    const invalid = entries.filter((entry) => !isProxyAddress(entry));
    if (invalid.length === 0) return entries;
    context.addIssue({
      code: 'custom',
      message: `TRUST_PROXY: ${invalid.map((entry) => JSON.stringify(entry)).join(', ')} is not an address or range; expected ${TRUST_PROXY_EXAMPLE}`,
    });
    return z.NEVER;
  });

/** An IP address, a CIDR range or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const JANUS_URL_ADDRESS = "the ws:// or wss:// address of Janus's WebSocket transport, e.g. ws://127.0.0.1:8188";

/**
 * JANUS_URL: one Janus, or several separated by commas (decision 037, "Several Janus servers").
 * Each address is normalised (`ws://host:8188` and `ws://host:8188/` are one server): it is also
 * the server's name in the room-to-server records every instance shares, so every instance must
 * list the same servers.
 */
const janusUrlsSetting = z.string().transform((text, context): string[] => {
  const entries = text.split(',').map((entry) => entry.trim());
  const isList = entries.length > 1;
  const urls: string[] = [];
  entries.forEach((entry, index) => {
    const name = isList ? `JANUS_URL entry ${index + 1} (${JSON.stringify(entry)})` : 'JANUS_URL';
    if (entry === '') {
      context.addIssue({ code: 'custom', message: `JANUS_URL entry ${index + 1} is empty (a comma too many?)` });
      return;
    }
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!url || !['ws:', 'wss:'].includes(url.protocol) || url.hostname === '') {
      context.addIssue({ code: 'custom', message: `${name} must be ${JANUS_URL_ADDRESS}` });
      return;
    }
    const earlier = urls.indexOf(url.href);
    if (earlier !== -1) {
      context.addIssue({
        code: 'custom',
        message: `JANUS_URL lists ${url.href} twice (entries ${earlier + 1} and ${index + 1}): name each Janus server once`,
      });
    }
    urls.push(url.href);
  });
  return urls;
});

/** A number of sign-ins or registrations per network address and hour. */
const perNetworkLimit = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number per hour, e.g. ${fallback}` })
    .int({ error: `${name} must be a whole number` })
    .min(FAILURE_COST * 2, { error: `${name} must be at least ${FAILURE_COST * 2}` })
    .max(10_000_000, { error: `${name} is too large` })
    .default(fallback);

const environmentSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int({ error: 'PORT must be a whole number' })
    .min(1, { error: 'PORT must be between 1 and 65535' })
    .max(65535, { error: 'PORT must be between 1 and 65535' })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1, { error: 'DATA_DIR must not be empty' }).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'DATABASE_URL must start with postgres:// or postgresql://' })
    .optional(),
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'DATABASE_LISTEN_URL must start with postgres:// or postgresql://' })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'JWT_SECRET must be at least 32 characters' }).optional(),
  SETUP_CODE: z
    .string()
    .refine((code) => normaliseSetupCode(code).length >= 8, {
      error: 'SETUP_CODE must have at least 8 letters or digits (or leave it unset: the server derives one)',
    })
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  QUOTES_API_URL: z.url({ protocol: /^https?$/, error: 'QUOTES_API_URL must be an http(s) URL' }).optional(),
  QUOTES_API_KEY: z.string().min(1).optional(),
  UPLOAD_MAX_BYTES: z.coerce
    .number({ error: 'UPLOAD_MAX_BYTES must be a number of bytes, e.g. 104857600 for 100 MB' })
    .int({ error: 'UPLOAD_MAX_BYTES must be a whole number of bytes' })
    .positive({ error: 'UPLOAD_MAX_BYTES must be greater than 0' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'UPLOAD_MAX_BYTES is too large' })
    .default(RESOURCE_LIMITS.uploadMaxBytesDefault),
  STORAGE_QUOTA_BYTES: z.coerce
    .number({ error: 'STORAGE_QUOTA_BYTES must be a number of bytes, e.g. 5368709120 for 5 GB' })
    .int({ error: 'STORAGE_QUOTA_BYTES must be a whole number of bytes' })
    .positive({ error: 'STORAGE_QUOTA_BYTES must be greater than 0' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'STORAGE_QUOTA_BYTES is too large' })
    .default(RESOURCE_LIMITS.storageQuotaBytesDefault),
  TRUST_PROXY: trustProxySetting.optional(),
  SIGN_IN_LIMIT_PER_IP: perNetworkLimit('SIGN_IN_LIMIT_PER_IP', DEFAULT_THROTTLE_LIMITS.signInPerNetwork),
  REGISTRATION_LIMIT_PER_IP: perNetworkLimit(
    'REGISTRATION_LIMIT_PER_IP',
    DEFAULT_THROTTLE_LIMITS.registrationsPerNetwork,
  ),
  S3_BUCKET: z
    .string()
    .regex(/^[^\s/]+$/, { error: 'S3_BUCKET must be a bucket name (no spaces or slashes)' })
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'S3_ENDPOINT must be an http(s) URL' }).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'S3_FORCE_PATH_STYLE must be true or false' }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a redis:// or rediss:// URL' }).optional(),
  MEETING_ROOM_SIZE: z.coerce
    .number({ error: `MEETING_ROOM_SIZE must be a number of people, e.g. ${MEETING_LIMITS.defaultRoomSize}` })
    .int({ error: 'MEETING_ROOM_SIZE must be a whole number of people' })
    .min(MEETING_LIMITS.minRoomSize, { error: ROOM_SIZE_RANGE })
    .max(MEETING_LIMITS.maxRoomSize, { error: ROOM_SIZE_RANGE })
    .default(MEETING_LIMITS.defaultRoomSize),
  READ_CACHE_MS: z.coerce
    .number({ error: 'READ_CACHE_MS must be a number of milliseconds, e.g. 1000 (0 turns the read cache off)' })
    .int({ error: 'READ_CACHE_MS must be a whole number of milliseconds' })
    .min(0, { error: `READ_CACHE_MS must be between 0 and ${MAX_TAGGED_TTL_MS}` })
    .max(MAX_TAGGED_TTL_MS, { error: `READ_CACHE_MS must be between 0 and ${MAX_TAGGED_TTL_MS}` })
    .default(DEFAULT_READ_CACHE_TTL_MS),
  JANUS_URL: janusUrlsSetting.optional(),
  JANUS_API_SECRET: z
    .string()
    .min(16, { error: 'JANUS_API_SECRET must be at least 16 characters (the api_secret of your janus.jcfg)' })
    .regex(/^[^"\\\s]+$/, { error: 'JANUS_API_SECRET must not contain spaces, quotes or backslashes' })
    .optional(),
  ICE_SERVERS: z
    .string()
    .transform((text, context) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        context.addIssue({ code: 'custom', message: `ICE_SERVERS is not valid JSON (${ICE_SERVERS_EXAMPLE})` });
        return z.NEVER;
      }
      const servers = iceServersSchema.safeParse(parsed);
      if (servers.success) return servers.data;
      const issue = servers.error.issues[0]!;
      const where = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
      // The shared schema says a code; the operator reads words.
      const coded = fieldCodeOf(issue);
      const words =
        coded.code === 'INVALID_FORMAT' && issue.path.includes('urls')
          ? 'ICE server URLs start with stun:, stuns:, turn: or turns:'
          : fieldErrorMessage(coded);
      context.addIssue({ code: 'custom', message: `ICE_SERVERS${where}: ${words} (${ICE_SERVERS_EXAMPLE})` });
      return z.NEVER;
    })
    .optional(),
});

/** Set only together with S3_BUCKET: alone they would silently keep files on disk. */
const S3_SETTINGS = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

/** Fastify's trustProxy as we allow it: nobody, a number of proxies in front, or their addresses. */
export type TrustProxy = false | number | string[];

export type AppConfig = {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded PGlite database inside dataDir. */
  databaseUrl: string | undefined;
  /** A direct connection for LISTEN (account changes, decision 017) when DATABASE_URL goes through PgBouncer. */
  databaseListenUrl: string | undefined;
  jwtSecret: string;
  /** SETUP_CODE; unset: derived from jwtSecret (decision 050). */
  setupCode: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** API Ninjas-compatible quotes service; unset means the bundled quotes only. */
  quotesApiUrl: string | undefined;
  quotesApiKey: string | undefined;
  /** Largest accepted upload, in bytes. */
  uploadMaxBytes: number;
  /** Bytes of uploaded files one teacher may keep (video links take none). */
  storageQuotaBytes: number;
  /** Whose X-Forwarded-For is believed (the load balancer's); false = the connecting address is the client. */
  trustProxy: TrustProxy;
  /** Sign-in and registration points per network address and hour (decision 016). */
  signInLimitPerIp: number;
  registrationLimitPerIp: number;
  /** Uploads go to this bucket; unset means files on disk in dataDir/uploads. */
  s3: S3Config | undefined;
  /** Meeting signalling across instances; unset means in-process (one instance). */
  redisUrl: string | undefined;
  /** Most people in one meeting room (the browser mesh). */
  meetingRoomSize: number;
  /** STUN/TURN servers handed to browsers; empty means host candidates only (one network). */
  iceServers: IceServer[];
  /** How long the common reads may be answered from memory (decision 015); 0 = never. */
  readCacheMs: number;
  /** The Janus SFU servers our server drives (decision 037); unset means meetings stay a browser mesh. */
  janus: JanusConfig | undefined;
};

export type JanusConfig = {
  /** Each Janus's WebSocket transport (the Janus API), reached by our server only; normalised, none twice. */
  urls: string[];
  /** The api_secret of every one of them (and the VideoRoom admin_key): without it Janus refuses every request. */
  apiSecret: string;
};

export type S3Config = {
  bucket: string;
  /** An S3-compatible server; unset means AWS. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither; neither means the AWS SDK's default credential chain. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Empty strings in the environment mean "not set", as they do in .env files. */
function withoutEmptyValues(environment: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
}

/**
 * Reads and validates the environment. Every problem is reported at once so a
 * person fixing a deployment sees the whole list, not one error per restart.
 */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): AppConfig {
  const given = withoutEmptyValues(environment);
  const parsed = environmentSchema.safeParse(given);
  const problems = [
    ...(parsed.error?.issues.map((issue) => issue.message) ?? []),
    ...s3Problems(given),
    ...meshRoomSizeProblems(given),
    ...severalInstancesProblems(given),
    ...janusProblems(given),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  // The database and the signing secret live here: only our user may enter.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    databaseListenUrl: values.DATABASE_LISTEN_URL,
    jwtSecret: values.JWT_SECRET ?? readOrCreateJwtSecret(dataDir),
    setupCode: values.SETUP_CODE,
    logLevel: values.LOG_LEVEL,
    quotesApiUrl: values.QUOTES_API_URL,
    quotesApiKey: values.QUOTES_API_KEY,
    uploadMaxBytes: values.UPLOAD_MAX_BYTES,
    storageQuotaBytes: values.STORAGE_QUOTA_BYTES,
    signInLimitPerIp: values.SIGN_IN_LIMIT_PER_IP,
    registrationLimitPerIp: values.REGISTRATION_LIMIT_PER_IP,
    s3: values.S3_BUCKET
      ? {
          bucket: values.S3_BUCKET,
          endpoint: values.S3_ENDPOINT,
          region: values.S3_REGION,
          accessKeyId: values.S3_ACCESS_KEY_ID,
          secretAccessKey: values.S3_SECRET_ACCESS_KEY,
          // Self-hosted servers (MinIO, Ceph) rarely have a DNS name per bucket; AWS prefers one.
          forcePathStyle: values.S3_FORCE_PATH_STYLE
            ? values.S3_FORCE_PATH_STYLE === 'true'
            : values.S3_ENDPOINT !== undefined,
        }
      : undefined,
    redisUrl: values.REDIS_URL,
    meetingRoomSize: values.MEETING_ROOM_SIZE,
    iceServers: values.ICE_SERVERS ?? [],
    readCacheMs: values.READ_CACHE_MS,
    janus:
      values.JANUS_URL && values.JANUS_API_SECRET
        ? { urls: values.JANUS_URL, apiSecret: values.JANUS_API_SECRET }
        : undefined,
    trustProxy: values.TRUST_PROXY ?? false,
  };
}

/** Where the data lives: what `npm run backup` and `npm run restore` need. */
export type DataSettings = { dataDir: string; databaseUrl: string | undefined; s3Bucket: string | undefined };

/**
 * The storage settings alone, validated like loadConfig does, creating nothing: a restore
 * must find its target folder as the person left it (no generated secret in it).
 */
export function loadDataSettings(environment: NodeJS.ProcessEnv = process.env): DataSettings {
  const parsed = environmentSchema
    .pick({ DATA_DIR: true, DATABASE_URL: true, S3_BUCKET: true })
    .safeParse(withoutEmptyValues(environment));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message));
  return {
    dataDir: path.resolve(parsed.data.DATA_DIR),
    databaseUrl: parsed.data.DATABASE_URL,
    s3Bucket: parsed.data.S3_BUCKET,
  };
}

/**
 * Rooms above the mesh's size need Janus: browser to browser, each person sends their video to
 * every other (decisions 013 and 037).
 */
function meshRoomSizeProblems(given: Record<string, string>): string[] {
  const size = Number(given.MEETING_ROOM_SIZE);
  if (given.JANUS_URL || !Number.isInteger(size) || size <= MEETING_LIMITS.maxMeshRoomSize) return [];
  if (size > MEETING_LIMITS.maxRoomSize) return []; // the schema says so already
  return [
    `MEETING_ROOM_SIZE above ${MEETING_LIMITS.maxMeshRoomSize} needs Janus (JANUS_URL): without it each person sends their video to every other, which no browser keeps up with; see "Meetings through Janus" in the README`,
  ];
}

/** The rules that span several S3 variables (each variable's own format is in the schema). */
function s3Problems(given: Record<string, string>): string[] {
  const problems: string[] = [];
  if (!given.S3_BUCKET) {
    const stray = S3_SETTINGS.filter((name) => given[name] !== undefined);
    if (stray.length > 0) {
      problems.push(`${stray.join(', ')} set without S3_BUCKET (set S3_BUCKET to store files in S3)`);
    }
  }
  if ((given.S3_ACCESS_KEY_ID === undefined) !== (given.S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credentials)',
    );
  }
  return problems;
}

/**
 * DATABASE_URL and REDIS_URL together are how several instances are run. Each would
 * otherwise generate its own secret in its own DATA_DIR, and a session, meeting token
 * or file address issued by one would be refused by the others: people would be
 * logged out at random, depending on the instance the load balancer picks.
 */
function severalInstancesProblems(given: Record<string, string>): string[] {
  if (!given.DATABASE_URL || !given.REDIS_URL || given.JWT_SECRET) return [];
  return [
    'JWT_SECRET must be set when DATABASE_URL and REDIS_URL are (several instances): give every instance the same secret of 32 characters or more, e.g. from `openssl rand -base64 48`',
  ];
}

/**
 * JANUS_URL and JANUS_API_SECRET go together: a Janus without an API secret would take
 * requests from anyone who reaches its port, and a secret without a Janus is a setting
 * that was meant to do something and silently does not.
 */
function janusProblems(given: Record<string, string>): string[] {
  if (given.JANUS_URL && !given.JANUS_API_SECRET) {
    return [
      'JANUS_API_SECRET must be set with JANUS_URL: the api_secret of your Janus (one secret for all of them; see deploy/janus/janus.jcfg), e.g. from `openssl rand -hex 24`',
    ];
  }
  if (given.JANUS_API_SECRET && !given.JANUS_URL) {
    return ['JANUS_API_SECRET set without JANUS_URL (set JANUS_URL, e.g. ws://127.0.0.1:8188, to use Janus)'];
  }
  return [];
}

/**
 * Without JWT_SECRET we generate one on first start and keep it in DATA_DIR,
 * so tokens stay valid across restarts without any setup.
 *
 * Instances sharing one DATA_DIR (a shared disk) may start together: the new secret
 * is written aside, complete, then hard-linked into place. link() refuses an existing
 * name, so exactly one secret wins and every instance reads that one; no instance
 * ever reads a half-written file.
 */
function readOrCreateJwtSecret(dataDir: string): string {
  const secretPath = path.join(dataDir, 'jwt-secret');
  const stored = readStoredSecret(secretPath);
  if (stored) return stored;
  const secret = randomBytes(48).toString('base64url');
  const candidatePath = `${secretPath}.${randomBytes(6).toString('hex')}.new`;
  writeFileSync(candidatePath, `${secret}\n`, { mode: 0o600 });
  try {
    if (existsSync(secretPath)) {
      // Another instance may have created it since we looked: its secret wins.
      const winner = readStoredSecret(secretPath);
      if (winner) return winner;
      renameSync(candidatePath, secretPath); // unusable (empty, too short): replaced
      return secret;
    }
    linkSync(candidatePath, secretPath);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      // A file system without hard links: an atomic replace, the last writer wins.
      renameSync(candidatePath, secretPath);
      return secret;
    }
    const winner = readStoredSecret(secretPath);
    if (!winner) throw new Error(`${secretPath} is not a usable secret; remove it or set JWT_SECRET`, { cause: error });
    return winner;
  } finally {
    rmSync(candidatePath, { force: true });
  }
}

/** The secret kept in DATA_DIR, when there is a usable one. */
function readStoredSecret(secretPath: string): string | undefined {
  if (!existsSync(secretPath)) return undefined;
  const stored = readFileSync(secretPath, 'utf8').trim();
  return stored.length >= 32 ? stored : undefined;
}
