import './check-node-version.ts';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { listenForBackups } from './backup/backup-socket.ts';
import { acquireDataDirLock, DataDirInUseError, type DataDirLock } from './backup/data-dir-lock.ts';
import { movedAwayMessage } from './backup/move-to-postgres.ts';
import { removeStagingLeftovers } from './backup/snapshot.ts';
import { ConfigError, loadConfig, type JanusConfig } from './config.ts';
import { openDatabase, pgliteDirectory } from './db/client.ts';
import { describeIdentityConflict, findIdentityConflicts } from './db/identity-keys.ts';
import { schools } from './db/schema.ts';
import { resolveSetupCode, setupCodeAnnouncement } from './features/school/setup-code.ts';
import type { TagVersions } from './cache/read-cache.ts';
import { createPubSub } from './realtime/pubsub.ts';
import { createFileStorage } from './storage/create-storage.ts';
import type { JanusLogger } from './features/meetings/janus/janus-gateway.ts';

const CLIENT_DIR = fileURLToPath(new URL('../../dist/client', import.meta.url));

/** Process entry: read config, open and migrate the database, serve, shut down cleanly. */
async function main() {
  // A .env file beside the project is read like the real environment (which wins).
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // The embedded database belongs to this process alone (decision 019); PostgreSQL needs no lock.
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    const { dataDir } = config;
    // After npm run move-to-postgres the embedded copy is stale: starting on it would split the school in two.
    const movedAway = movedAwayMessage(dataDir);
    if (movedAway) {
      console.error(`StudyHall cannot start: ${movedAway}`);
      process.exit(1);
    }
    try {
      lock = acquireDataDirLock(dataDir, {
        purpose: 'server',
        onLost: (holder) => {
          console.error(
            `Another process (pid ${holder?.pid ?? 'unknown'}) took over ${dataDir}: stopping now so that only one writes its database`,
          );
          process.exit(1);
        },
      });
    } catch (error) {
      if (error instanceof DataDirInUseError) {
        console.error(`StudyHall cannot start: ${error.message}`);
        process.exit(1);
      }
      throw error;
    }
    await removeStagingLeftovers(dataDir);
  }

  const database = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          listenUrl: config.databaseListenUrl,
          onMigrationWait: () => console.info('Another instance is migrating the database; waiting for it to finish'),
        }
      : { kind: 'pglite', dataDir: pgliteDirectory(config.dataDir) },
  );
  // Accounts the identity rules of decision 024 found to be an older account's: named at every start until renamed.
  for (const conflict of await findIdentityConflicts(database.db)) console.warn(describeIdentityConflict(conflict));
  // Rooms (meetings): Redis when several instances serve one school (an unreachable REDIS_URL stops the start).
  let reportRedisProblem = (error: Error) => console.error(`Redis: ${error.message}`);
  const pubsub = await createPubSub(config, { onError: (error) => reportRedisProblem(error) });
  // The read cache's versions: shared through the same Redis, so every instance sees every write.
  const readCacheVersions = config.redisUrl
    ? await redisTagVersions(config.redisUrl, (error) => reportRedisProblem(error))
    : undefined;
  // Throttling counts in the same Redis, so a budget is one budget whichever instance answers.
  let reportThrottleStatus = (change: ThrottleStatus) =>
    console.error(`Redis (throttling): ${change.isReachable ? 'reachable again' : change.error?.message}`);
  const throttleStore = config.redisUrl
    ? await redisThrottleStore(config.redisUrl, (change) => reportThrottleStatus(change))
    : undefined;
  // Janus only when configured (janode is not even loaded otherwise); it logs through the app's
  // logger once there is one.
  let janusLogger: JanusLogger = { info: (_, message) => console.info(message), warn: (_, m) => console.warn(m) };
  const janus = config.janus
    ? await startJanusRooms(config.janus, config.redisUrl, {
        info: (object, message) => janusLogger.info(object, message),
        warn: (o, m) => janusLogger.warn(o, m),
      })
    : undefined;
  const app = await buildApp({
    database,
    jwtSecret: config.jwtSecret,
    setupCode: config.setupCode,
    logLevel: config.logLevel,
    clientDir: CLIENT_DIR,
    quotes: { url: config.quotesApiUrl, key: config.quotesApiKey },
    storage: await createFileStorage(config),
    uploadMaxBytes: config.uploadMaxBytes,
    storageQuotaBytes: config.storageQuotaBytes,
    trustProxy: config.trustProxy,
    throttle: {
      store: throttleStore,
      limits: { signInPerNetwork: config.signInLimitPerIp, registrationsPerNetwork: config.registrationLimitPerIp },
    },
    realtime: { pubsub },
    meetings: { sfu: janus?.sfu, roomSize: config.meetingRoomSize, iceServers: config.iceServers },
    readCache: { ttlMs: config.readCacheMs, versions: readCacheVersions },
  });
  janusLogger = app.log;
  reportRedisProblem = (error) => app.log.warn({ err: error }, 'Redis: connection problem');
  reportThrottleStatus = (change) =>
    change.isReachable
      ? app.log.info('Redis (throttling): reachable again; counting in Redis')
      : app.log.warn(
          { err: change.error },
          'Redis (throttling): unreachable; counting in this instance until it is back',
        );
  // npm run backup asks the server itself while it runs: only this process may read the database.
  const backups = lock ? await listenForBackups({ dataDir: config.dataDir, database, log: app.log }) : undefined;
  // Runs after the room sockets have closed and given their seats back (preClose).
  app.addHook('onClose', () => pubsub.close());
  // Janus (decision 037), connected in the background, so the app starts and runs whether each
  // Janus is up or not; each change of a server's reachability is one log line.
  if (janus) {
    for (const gateway of janus.gateways) void gateway.start();
    app.addHook('onClose', () => janus.close());
  }

  let isShuttingDown = false;
  const shutDown = async (signal: string) => {
    if (isShuttingDown) {
      app.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    isShuttingDown = true;
    app.log.info(`${signal}: closing connections and the database`);
    try {
      await backups?.close(); // a snapshot being copied holds the database: let it finish
      await app.close(); // stops accepting, drains requests, then closes the database (onClose)
      lock?.release();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutDown('SIGINT'));
  process.on('SIGTERM', () => void shutDown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`StudyHall is ready on port ${config.port} (database: ${database.kind}, data: ${config.dataDir})`);
  // The first run (decision 050): only someone who reads this log can set the school up.
  const [school] = await database.db.select({ id: schools.id }).from(schools).limit(1);
  if (!school) app.log.warn(setupCodeAnnouncement(resolveSetupCode(config.setupCode, config.jwtSecret), config.port));
}

/**
 * One gateway per Janus server, and the record of which serves each room: in Redis when several
 * instances share them (REDIS_URL), in memory otherwise. Loaded only when JANUS_URL is set.
 */
/**
 * janode (the Janus client) is an optional dependency (decision 052): its native part, unix-dgram,
 * needs build tools, and npm leaves janode out where it cannot build it.
 */
const JANODE_MISSING =
  'JANUS_URL is set, but janode (the Janus client) is not installed: its native part needs build tools. ' +
  'Install them (Debian/Ubuntu: apt install build-essential python3), run `npm ci` again, then start.';
function isJanodeMissing(error: unknown) {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && /['"]janode['"/]/.test(message);
}

async function startJanusRooms(janus: JanusConfig, redisUrl: string | undefined, logger: JanusLogger) {
  const [{ JanusGateway }, { createJanusRooms }] = await Promise.all([
    import('./features/meetings/janus/janus-gateway.ts'),
    import('./features/meetings/janus/janus-rooms.ts'),
  ]).catch((error: unknown) => {
    throw isJanodeMissing(error) ? new Error(JANODE_MISSING) : error;
  });
  const gateways = janus.urls.map((url) => new JanusGateway({ url, apiSecret: janus.apiSecret, logger }));
  const roomServers = redisUrl ? await redisRoomServers(redisUrl, logger) : undefined;
  return {
    gateways,
    sfu: createJanusRooms(gateways, roomServers),
    async close() {
      await Promise.all(gateways.map((gateway) => gateway.close()));
      await roomServers?.close();
    },
  };
}

async function redisRoomServers(url: string, logger: JanusLogger) {
  const [{ createRedisRoomServers }, { DEFAULT_NAMESPACE }] = await Promise.all([
    import('./features/meetings/janus/redis-room-servers.ts'),
    import('./realtime/redis-pubsub.ts'),
  ]);
  return createRedisRoomServers({
    url,
    namespace: DEFAULT_NAMESPACE,
    onError: (error) => logger.warn({ err: error }, 'Redis (Janus rooms): connection problem'),
  });
}

/** Loaded only when REDIS_URL is set, as the Redis bus is. */
async function redisTagVersions(url: string, onError: (error: Error) => void): Promise<TagVersions> {
  const [{ createRedisTagVersions }, { DEFAULT_NAMESPACE }] = await Promise.all([
    import('./cache/redis-tag-versions.ts'),
    import('./realtime/redis-pubsub.ts'),
  ]);
  return createRedisTagVersions({ url, namespace: DEFAULT_NAMESPACE, onError });
}

type ThrottleStatus = { isReachable: boolean; error?: Error };

/** Loaded only when REDIS_URL is set. */
async function redisThrottleStore(url: string, onStatus: (change: ThrottleStatus) => void) {
  const [{ createRedisThrottleStore }, { DEFAULT_NAMESPACE }] = await Promise.all([
    import('./throttle/redis-throttle-store.ts'),
    import('./realtime/redis-pubsub.ts'),
  ]);
  return createRedisThrottleStore({ url, namespace: DEFAULT_NAMESPACE, onStatus });
}

main().catch((error: unknown) => {
  console.error('StudyHall failed to start:', error);
  process.exit(1);
});
