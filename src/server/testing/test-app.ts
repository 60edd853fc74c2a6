import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../app.ts';
import { openDatabase, type DatabaseHandle, type QueryListener } from '../db/client.ts';
import { RESOURCE_LIMITS } from '#shared/resources';
import type { FileStorage } from '../storage/file-storage.ts';
import { createDiskStorage } from '../storage/disk-storage.ts';
import { checkAnswersAgainstContract } from './contract-check.ts';
import { TEST_SETUP_CODE } from './factories.ts';
import { openPostgresCopy } from './postgres-databases.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/**
 * A real database for one test file: a copy of the migrated PostgreSQL template
 * when TEST_DATABASE_URL is set (CI), otherwise an in-memory PGlite clone.
 */
export async function openTestDatabase(onQuery?: QueryListener): Promise<DatabaseHandle> {
  return openTemplateCopy(
    process.env.TEST_DATABASE_URL
      ? { postgresTemplateName: inject('postgresTemplateName') }
      : { pgliteTemplatePath: inject('pgliteTemplatePath') },
    onQuery,
  );
}

/** A copy of the template global-setup.ts made, from what it provided (a global setup has no inject()). */
export async function openTemplateCopy(
  template: { postgresTemplateName?: string; pgliteTemplatePath?: string },
  onQuery?: QueryListener,
): Promise<DatabaseHandle> {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (postgresUrl) return openPostgresCopy(postgresUrl, template.postgresTemplateName!, onQuery);
  const dump = readFileSync(template.pgliteTemplatePath!);
  return openDatabase({ kind: 'pglite', loadDataDir: new Blob([dump]), onQuery });
}

export type TestApp = {
  app: FastifyInstance;
  storage: FileStorage;
  /** The disk storage's folder when the test did not bring its own storage. */
  uploadsFolder: string | undefined;
  database: DatabaseHandle;
  /** inject() with the JSON body parsed, for terse assertions. */
  call(options: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
  close(): Promise<void>;
};

export async function createTestApp(
  options: {
    /** An open database to serve (closed with the app); a fresh copy of the template when omitted. */
    database?: DatabaseHandle;
    onQuery?: QueryListener;
    quotes?: AppOptions['quotes'];
    /** Defaults to a fresh folder on disk, removed on close. */
    storage?: FileStorage;
    uploadMaxBytes?: number;
    /** The room transport: a shared pub/sub (two apps on one Redis), shorter pings and heartbeats. */
    realtime?: AppOptions['realtime'];
    /** Room size, ICE servers, the SFU, shorter join time-out, smaller budgets. */
    meetings?: AppOptions['meetings'];
    /** Live games' socket: a shorter resume grace, smaller budgets. */
    liveGames?: AppOptions['liveGames'];
    classBoards?: AppOptions['classBoards'];
    /** Given: every log line at info and above is pushed here, parsed (otherwise silent). */
    logs?: Record<string, unknown>[];
    /** With `logs`: the lowest level captured (info when omitted). */
    logLevel?: 'info' | 'debug' | 'trace';
    /** A built client to serve (index.html + assets), as `npm start` does. */
    clientDir?: string;
    /** The read cache's time limit and tag versions (Redis: several instances). */
    readCache?: AppOptions['readCache'];
    /** STORAGE_QUOTA_BYTES (5 GB when omitted). */
    storageQuotaBytes?: number;
    /** TRUST_PROXY (nobody when omitted). */
    trustProxy?: AppOptions['trustProxy'];
    /** Throttling's store (Redis: several instances) and limits; the real defaults when omitted. */
    throttle?: AppOptions['throttle'];
    /** Large JSON bodies at once (decision 023's addendum); the real defaults when omitted. */
    largeBodies?: AppOptions['largeBodies'];
    /** The first run's code: TEST_SETUP_CODE when omitted; null: derived from the JWT secret, as without SETUP_CODE. */
    setupCode?: string | null;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase(options.onQuery));
  const uploadsFolder = options.storage ? undefined : await mkdtemp(path.join(tmpdir(), 'studyhall-uploads-'));
  const storage = options.storage ?? (await createDiskStorage(uploadsFolder!));
  const app = await buildApp({
    database,
    jwtSecret: TEST_JWT_SECRET,
    setupCode: options.setupCode === undefined ? TEST_SETUP_CODE : options.setupCode,
    logLevel: options.logs ? (options.logLevel ?? 'info') : 'silent',
    logStream: options.logs
      ? { write: (line: string) => void options.logs!.push(JSON.parse(line) as Record<string, unknown>) }
      : undefined,
    quotes: options.quotes,
    storage,
    uploadMaxBytes: options.uploadMaxBytes ?? RESOURCE_LIMITS.uploadMaxBytesDefault,
    realtime: options.realtime,
    meetings: options.meetings,
    liveGames: options.liveGames,
    classBoards: options.classBoards,
    readCache: options.readCache,
    storageQuotaBytes: options.storageQuotaBytes,
    largeBodies: options.largeBodies,
    trustProxy: options.trustProxy,
    throttle: options.throttle,
    clientDir: options.clientDir,
  });
  checkAnswersAgainstContract(app);
  if (uploadsFolder) app.addHook('onClose', async () => rm(uploadsFolder, { recursive: true, force: true }));
  return { app, storage, uploadsFolder, database, call: callerOf(app), close: () => app.close() };
}

/** inject() with the JSON body parsed (undefined when it is not JSON). */
function callerOf(app: FastifyInstance): TestApp['call'] {
  return async (options) => {
    const response = await app.inject(options);
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, body, headers: response.headers, raw: response.body };
  };
}

/** Another instance beside a test app: its own Fastify app on the same database and storage, as two servers behind a balancer. */
export type SecondInstance = { app: FastifyInstance; call: TestApp['call']; close(): Promise<void> };

export async function startSecondInstance(
  first: TestApp,
  options: {
    readCache?: AppOptions['readCache'];
    throttle?: AppOptions['throttle'];
    realtime?: AppOptions['realtime'];
    liveGames?: AppOptions['liveGames'];
    classBoards?: AppOptions['classBoards'];
  } = {},
): Promise<SecondInstance> {
  const app = await buildApp({
    database: { ...first.database, close: async () => {} }, // the first app closes it
    jwtSecret: TEST_JWT_SECRET,
    setupCode: TEST_SETUP_CODE,
    logLevel: 'silent',
    storage: first.storage,
    uploadMaxBytes: RESOURCE_LIMITS.uploadMaxBytesDefault,
    readCache: options.readCache,
    throttle: options.throttle,
    realtime: options.realtime,
    liveGames: options.liveGames,
    classBoards: options.classBoards,
  });
  checkAnswersAgainstContract(app);
  return { app, call: callerOf(app), close: () => app.close() };
}

/** Bearer header for a token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
