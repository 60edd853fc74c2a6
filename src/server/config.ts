import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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
  JWT_SECRET: z.string().min(32, { error: 'JWT_SECRET must be at least 32 characters' }).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  QUOTES_API_URL: z.url({ protocol: /^https?$/, error: 'QUOTES_API_URL must be an http(s) URL' }).optional(),
  QUOTES_API_KEY: z.string().min(1).optional(),
});

export type AppConfig = {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded PGlite database inside dataDir. */
  databaseUrl: string | undefined;
  jwtSecret: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** API Ninjas-compatible quotes service; unset means the bundled quotes only. */
  quotesApiUrl: string | undefined;
  quotesApiKey: string | undefined;
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
  const parsed = environmentSchema.safeParse(withoutEmptyValues(environment));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => issue.message));
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  // The database and the signing secret live here: only our user may enter.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    jwtSecret: values.JWT_SECRET ?? readOrCreateJwtSecret(dataDir),
    logLevel: values.LOG_LEVEL,
    quotesApiUrl: values.QUOTES_API_URL,
    quotesApiKey: values.QUOTES_API_KEY,
  };
}

/**
 * Without JWT_SECRET we generate one on first start and keep it in DATA_DIR,
 * so tokens stay valid across restarts without any setup.
 */
function readOrCreateJwtSecret(dataDir: string): string {
  const secretPath = path.join(dataDir, 'jwt-secret');
  if (existsSync(secretPath)) {
    const stored = readFileSync(secretPath, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(secretPath, `${secret}\n`, { mode: 0o600 });
  return secret;
}
