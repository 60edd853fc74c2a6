import path from 'node:path';
import { z } from 'zod';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ApiFailure, FieldError, ValidationIssue } from '#shared/api';
import type { ErrorCode } from '#shared/error-codes';
import { JSON_BODY_LIMIT_BYTES } from '#shared/limits';
import { formatStorageSize } from '#shared/resources';
import { createReadCache, type ReadCacheOptions } from './cache/read-cache.ts';
import { createRequestVersions } from './cache/request-versions.ts';
import type { DatabaseHandle } from './db/client.ts';
import { AppError, invalidInput } from './errors.ts';
import { accountsRoutes } from './features/accounts/routes.ts';
import { apiDocsRoutes } from './features/api-docs/routes.ts';
import { createAccountsService } from './features/accounts/service.ts';
import { referencesMissingAccount } from './db/errors.ts';
import { createSessionVersions, followAccountChanges } from './features/accounts/session-versions.ts';
import { healthRoutes } from './features/health/routes.ts';
import { meetingsRoutes, type MeetingsOptions } from './features/meetings/routes.ts';
import { registerRoomTransport, type RoomTransportOptions } from './realtime/room-socket.ts';
import { progressRoutes } from './features/progress/routes.ts';
import { createProgressService } from './features/progress/service.ts';
import { createQuizLifecycle } from './features/quizzes/lifecycle.ts';
import { accommodationsRoutes } from './features/quizzes/accommodations-routes.ts';
import { createAccommodationsService } from './features/quizzes/accommodations.ts';
import { markingRoutes } from './features/quizzes/marking-routes.ts';
import { assignmentsRoutes } from './features/assignments/routes.ts';
import { createAssignmentAuthoring } from './features/assignments/authoring.ts';
import { createHandIns } from './features/assignments/hand-ins.ts';
import { gradebookRoutes } from './features/gradebook/routes.ts';
import { liveGamesRoutes, type LiveGameSocketSettings } from './features/live-games/routes.ts';
import { createLiveGames } from './features/live-games/service.ts';
import { createLiveGamePlay } from './features/live-games/play.ts';
import { createLiveTokens } from './features/live-games/live-tokens.ts';
import { classBoardsRoutes, type ClassBoardSocketSettings } from './features/class-boards/routes.ts';
import { createClassBoards, type ClassBoardsOptions } from './features/class-boards/service.ts';
import { createBoardTokens } from './features/class-boards/board-tokens.ts';
import { roomSessionCheck } from './realtime/room-tokens.ts';
import { createGradebook } from './features/gradebook/service.ts';
import { createHandInComments } from './features/assignments/comments.ts';
import { createDueSoon } from './features/assignments/due-soon.ts';
import { assignmentFileLinks, createHandInFiles } from './features/assignments/hand-in-files.ts';
import { handInFilesRoutes } from './features/assignments/hand-in-files-routes.ts';
import { createMarkingService } from './features/quizzes/marking.ts';
import { quizExportRoutes } from './features/quizzes/export.ts';
import { quizzesRoutes } from './features/quizzes/routes.ts';
import { createQuizImagesService } from './features/quizzes/quiz-images.ts';
import { quizImagesRoutes } from './features/quizzes/quiz-images-routes.ts';
import { createFileAccess } from './features/resources/file-access.ts';
import { resourcesRoutes } from './features/resources/routes.ts';
import { createResourcesService } from './features/resources/service.ts';
import { quoteRoutes } from './features/quote/routes.ts';
import { createQuoteService, type QuotesServiceConfig } from './features/quote/service.ts';
import { notificationsRoutes } from './features/notifications/routes.ts';
import { createNotificationsService } from './features/notifications/service.ts';
import { tasksRoutes } from './features/tasks/routes.ts';
import { createTasksService } from './features/tasks/service.ts';
import { createQuizzesService } from './features/quizzes/service.ts';
import { startAttemptSweep } from './features/quizzes/sweep.ts';
import { studentsRoutes } from './features/students/routes.ts';
import { createSchoolService } from './features/school/service.ts';
import { createSchoolLocaleReader } from './features/school/school-locale.ts';
import { schoolRoutes } from './features/school/routes.ts';
import { createSetupCodeCheck, resolveSetupCode } from './features/school/setup-code.ts';
import { seedDemoSchool } from './demo/seed.ts';
import { removeDemo } from './demo/remove-demo.ts';
import { classesRoutes } from './features/classes/routes.ts';
import { createClassesService } from './features/classes/service.ts';
import { rosterImportRoutes } from './features/roster-import/routes.ts';
import { createRosterImports } from './features/roster-import/service.ts';
import { createStudentsService } from './features/students/service.ts';
import { createTokenService } from './plugins/auth.ts';
import { acceptJsonBodies } from './plugins/json-body.ts';
import { DEFAULT_LARGE_BODY_LIMITS, limitLargeBodies, type LargeBodyLimits } from './plugins/large-bodies.ts';
import {
  addRequestIdHeader,
  applyRequestIdHeader,
  loggableError,
  loggerOptions,
  requestIdOf,
} from './plugins/request-logging.ts';
import { declaredRoutes, enforceRoutePolicies } from './plugins/route-policy.ts';
import { trackRunningHandlers } from './plugins/running-handlers.ts';
import { addSecurityHeaders, applySecurityHeaders } from './plugins/security-headers.ts';
import { serveClient } from './plugins/static-client.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { TrustProxy } from './config.ts';
import type { ThrottleLimits } from './throttle/limits.ts';
import { createThrottle } from './throttle/throttle.ts';
import { createMemoryThrottleStore, type ThrottleStore } from './throttle/throttle-store.ts';

// A field error's English `message` (logs, API users) is zod's English wording where the schema
// gives none. The shared schemas are zod/mini, which installs no locale: said here, once, for the
// server (decision 073). The browser words codes and loads none.
z.config(z.locales.en());

export type AppOptions = {
  database: DatabaseHandle;
  jwtSecret: string;
  logLevel?: string;
  /** Where log lines go (tests read them); standard output when omitted. */
  logStream?: { write(line: string): void };
  /** Folder of the built client; omitted in API tests. */
  clientDir?: string;
  /** The quotes service for the quote of the day; unset = bundled quotes. */
  quotes?: QuotesServiceConfig;
  /** Where uploaded resources live (local disk or S3-compatible). */
  storage: FileStorage;
  /** UPLOAD_MAX_BYTES: larger uploads are answered 413. */
  uploadMaxBytes: number;
  /** STORAGE_QUOTA_BYTES: what one teacher's files may take in all (the default when omitted). */
  storageQuotaBytes?: number;
  /** TRUST_PROXY: whose X-Forwarded-For names the client (nobody's when omitted). */
  trustProxy?: TrustProxy;
  /** Sign-in and registration throttling (decision 016): where it counts (this process when omitted), its limits. */
  throttle?: { store?: ThrottleStore; limits?: Partial<ThrottleLimits> };
  /** The room transport (decision 065): the pub/sub bus (in-process when omitted) and its sockets' timings. */
  realtime?: RoomTransportOptions;
  /** Meeting rooms: size, ICE servers, the SFU. */
  meetings?: MeetingsOptions;
  /** Live games' socket: shorter timings and smaller limits for tests. */
  liveGames?: Pick<LiveGameSocketSettings, 'roomSize' | 'resumeGraceMs' | 'joinTimeoutMs' | 'limits'>;
  /** Class boards: smaller sizes and thresholds for tests. */
  classBoards?: Pick<ClassBoardsOptions, 'limits'> & Pick<ClassBoardSocketSettings, 'roomSize' | 'joinTimeoutMs'>;
  /** Large JSON bodies at once, per account and server-wide (decision 023's addendum); the defaults when omitted. */
  largeBodies?: Partial<LargeBodyLimits>;
  /** SETUP_CODE: the first run's code (decision 050); derived from jwtSecret when omitted. */
  setupCode?: string | null | undefined;
  /** Short-lived answers to the common reads (decision 015): time limit and where tag versions live (this process when omitted). */
  readCache?: Pick<ReadCacheOptions, 'ttlMs' | 'versions'>;
};

/** How long a shutdown waits for handlers whose clients have gone before it closes the database. */
const SHUTDOWN_HANDLER_WAIT_MS = 10_000;

/** Builds the whole application; tests call this and use inject(). */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // JSON lines with a request id; no password, token or answer key in any of them (decision 018).
    logger: loggerOptions({ level: options.logLevel ?? 'info', stream: options.logStream }),
    genReqId: requestIdOf,
    // X-Forwarded-* are believed only from the proxies TRUST_PROXY names: request.ip is the
    // client's address (throttling counts by it), request.protocol says HTTPS (HSTS).
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Errors raised before routing (a malformed URL) speak the envelope too; no hook runs for them.
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders(request, reply);
      applyRequestIdHeader(request, reply);
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply).code(status).send(failure(httpLayerCode(status), error.message));
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  acceptJsonBodies(app, limitLargeBodies(app, { ...DEFAULT_LARGE_BODY_LIMITS, ...options.largeBodies }));
  app.setErrorHandler(handleError);
  addSecurityHeaders(app);
  addRequestIdHeader(app);
  const runningHandlers = trackRunningHandlers(app);

  // Without its versions the cache reads the database instead: worth a warning (one every
  // 10 s, not one per request while Redis is away), not a failure.
  const reportTagVersionsProblem = atMostEvery(10_000, (error: unknown) =>
    app.log.warn({ err: error }, 'read cache: tag versions unavailable'),
  );
  const readCache = createReadCache({ ...options.readCache, onError: reportTagVersionsProblem });
  // Session versions share the tag versions (Redis with several instances), in a cache of their own.
  const sessions = createSessionVersions(options.database.db, {
    versions: options.readCache?.versions,
    onError: reportTagVersionsProblem,
  });
  // A removed or signed-out account is refused at once, on every instance, whoever changed it.
  const stopFollowingAccounts = await followAccountChanges(
    options.database,
    sessions,
    atMostEvery(10_000, (error: unknown) =>
      app.log.warn(
        { err: error },
        'sessions: database notices of account changes are not arriving; listening again (behind PgBouncer in transaction mode, set DATABASE_LISTEN_URL to a direct connection)',
      ),
    ),
  );
  // With Redis versions, a request reads its session version and its pages' tags in one round trip.
  const requestVersions = options.readCache?.versions ? createRequestVersions(options.readCache.versions) : undefined;
  const tokens = createTokenService(options.jwtSecret, sessions, Date.now, requestVersions);
  const accounts = createAccountsService(options.database.db, tokens, sessions);
  const throttle = createThrottle({
    store: options.throttle?.store ?? createMemoryThrottleStore(),
    secret: options.jwtSecret,
    limits: options.throttle?.limits,
  });
  // The school's default language for the pages the server sends (decision 055 addendum).
  const schoolLocale = createSchoolLocaleReader(options.database.db);
  const school = createSchoolService(options.database.db, tokens, sessions, { onLocaleChange: schoolLocale.forget });
  // Before any route: each route's token check comes from its declared policy (decision 020).
  enforceRoutePolicies(app, tokens, school.isAdministrator);
  // First: its WebSocket support must see every later route (upgrade requests to them are closed).
  const transport = await registerRoomTransport(app, options.realtime);
  await app.register(
    meetingsRoutes({
      db: options.database.db,
      jwtSecret: options.jwtSecret,
      sessions,
      transport,
      meetings: options.meetings,
    }),
  );

  await app.register(healthRoutes(options.database));

  await app.register(accountsRoutes(accounts, throttle));
  await app.register(
    schoolRoutes(
      school,
      throttle,
      createSetupCodeCheck(resolveSetupCode(options.setupCode ?? undefined, options.jwtSecret)),
      {
        // Either may create or remove the school, and with it its language.
        fill: () => seedDemoSchool(options.database.db, options.storage).finally(schoolLocale.forget),
        remove: () => removeDemo(options.database.db, options.storage, readCache).finally(schoolLocale.forget),
      },
    ),
  );
  await app.register(classesRoutes(createClassesService(options.database.db, readCache), accounts, throttle));
  const rosterImports = createRosterImports(options.database.db, readCache, { secret: options.jwtSecret });
  await app.register(rosterImportRoutes(rosterImports, throttle));
  const fileAccess = createFileAccess(options.jwtSecret);
  const quizzes = createQuizzesService(options.database.db, readCache, fileAccess);
  await app.register(quizzesRoutes(quizzes, createQuizLifecycle(options.database.db, readCache), throttle));
  await app.register(accommodationsRoutes(createAccommodationsService(options.database.db, readCache)));
  await app.register(markingRoutes(createMarkingService(options.database.db, readCache)));
  const resources = createResourcesService(options.database.db, options.storage, fileAccess, app.log, readCache, {
    storageQuotaBytes: options.storageQuotaBytes,
  });
  const { signAttachment } = assignmentFileLinks(fileAccess);
  await app.register(
    assignmentsRoutes(
      createAssignmentAuthoring(options.database.db, signAttachment),
      createHandIns(options.database.db, signAttachment),
    ),
  );
  await app.register(
    handInFilesRoutes({
      files: createHandInFiles(options.database.db, fileAccess, resources),
      comments: createHandInComments(options.database.db),
      storage: options.storage,
      uploadMaxBytes: options.uploadMaxBytes,
    }),
  );
  await app.register(gradebookRoutes(createGradebook(options.database.db)));
  const liveTokens = createLiveTokens(options.jwtSecret);
  await app.register(
    liveGamesRoutes(createLiveGames(options.database.db, fileAccess, { tokens: liveTokens, cache: readCache }), {
      transport,
      play: createLiveGamePlay(options.database.db, fileAccess, { cache: readCache }),
      authenticate: (token) => liveTokens.check(token),
      isSessionCurrent: roomSessionCheck(sessions),
      ...options.liveGames,
    }),
  );
  const boardTokens = createBoardTokens(options.jwtSecret);
  await app.register(
    classBoardsRoutes(
      createClassBoards(options.database.db, { tokens: boardTokens, limits: options.classBoards?.limits }),
      {
        transport,
        authenticate: (token) => boardTokens.check(token),
        isSessionCurrent: roomSessionCheck(sessions),
        roomSize: options.classBoards?.roomSize,
        joinTimeoutMs: options.classBoards?.joinTimeoutMs,
      },
    ),
  );
  await app.register(quizExportRoutes(options.database.db));
  await app.register(progressRoutes(createProgressService(options.database.db, readCache)));
  await app.register(
    studentsRoutes(createStudentsService(options.database.db, { sessions, cache: readCache }), throttle),
  );
  await app.register(tasksRoutes(createTasksService(options.database.db)));
  await app.register(
    notificationsRoutes(
      createNotificationsService(options.database.db, { beforeRead: createDueSoon(options.database.db) }),
    ),
  );
  await app.register(quoteRoutes(createQuoteService(options.quotes ?? {}, app.log)));
  await app.register(
    resourcesRoutes({
      resources,
      storage: options.storage,
      fileAccess,
      uploadMaxBytes: options.uploadMaxBytes,
    }),
  );
  await app.register(
    quizImagesRoutes({
      images: createQuizImagesService(options.database.db, options.storage, fileAccess, app.log, {
        storageQuotaBytes: options.storageQuotaBytes,
      }),
      storage: options.storage,
      uploadMaxBytes: options.uploadMaxBytes,
    }),
  );
  await app.register(apiDocsRoutes(() => declaredRoutes(app)));
  startAttemptSweep(app, quizzes);

  const appShellFor = options.clientDir ? await serveClient(app, options.clientDir, schoolLocale.read) : null;
  app.setNotFoundHandler(async (request, reply) => {
    // HEAD too: it must describe what GET would send (Fastify adds HEAD only to declared GET routes).
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      request.url !== '/api';
    // Client-side routes (/dashboard/...) are all answered by the SPA shell, in the visitor's language.
    if (appShellFor && isPageRequest && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.header('cache-control', 'no-cache').sendFile(await appShellFor(request));
    }
    return reply
      .code(404)
      .send(failure('ROUTE_NOT_FOUND', `${request.method} ${request.url.split('?')[0]} does not exist`));
  });

  app.addHook('onClose', async () => {
    await runningHandlers.settled(SHUTDOWN_HANDLER_WAIT_MS);
    if (runningHandlers.count > 0) app.log.warn(`closing with ${runningHandlers.count} request(s) still running`);
    await rosterImports.close();
    await stopFollowingAccounts();
    await readCache.close();
    await throttle.close();
    await options.database.close();
  });
  return app;
}

/** `report`, called at most once per `intervalMs` (later calls in the interval are dropped). */
function atMostEvery<T>(intervalMs: number, report: (value: T) => void): (value: T) => void {
  let lastAt = -Infinity;
  return (value) => {
    const now = Date.now();
    if (now - lastAt < intervalMs) return;
    lastAt = now;
    report(value);
  };
}

/**
 * TRUST_PROXY for Fastify: a number of proxies becomes proxy-addr's "trust the first n hops"
 * (hop 0 is the connecting address). Fastify 5 no longer accepts a bare number, because a
 * hop count cannot tell a proxy from a client that connects directly: with a number, a
 * client that reaches the instance without the proxy chooses its own address. Addresses are
 * the safe form (decision 016).
 */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

function failure(code: ErrorCode, message: string, errors?: FieldError[]): ApiFailure {
  return errors ? { success: false, code, message, data: null, errors } : { success: false, code, message, data: null };
}

/** The code of a refusal by Fastify itself (bad JSON, a body too large, a malformed address...), by its status. */
function httpLayerCode(status: number): ErrorCode {
  const byStatus: Partial<Record<number, ErrorCode>> = {
    400: 'MALFORMED_REQUEST',
    404: 'ROUTE_NOT_FOUND',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
  };
  return byStatus[status] ?? 'REQUEST_REFUSED';
}

function fieldPath(instancePath: string): string[] {
  return instancePath.split('/').filter((part) => part !== '');
}

/** Turns every failure into the envelope with a real status code. */
function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.headers) void reply.headers(error.headers);
    return reply
      .code(error.statusCode)
      .send({ ...failure(error.code, error.message, error.errors), ...error.throttled });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const invalid = invalidInput(
      error.validation.map((issue) => ({
        // zod's facts of the issue (its bounds, a refinement's own code) give the field error's code.
        ...(issue.params as Omit<ValidationIssue, 'path' | 'code' | 'message'>),
        path: fieldPath(issue.instancePath),
        code: issue.keyword,
        message:
          issue.instancePath === '/' ? 'The request body must be a JSON object' : (issue.message ?? 'is invalid'),
      })),
    );
    return reply.code(invalid.statusCode).send(failure(invalid.code, invalid.message, invalid.errors));
  }
  // Fastify's own client errors: bad JSON, wrong content type, body too large...
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const message =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? `The request is too large: at most ${formatStorageSize(request.routeOptions.bodyLimit ?? JSON_BODY_LIMIT_BYTES)} can be sent at once.`
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type; send JSON'
          : error.message;
    return reply.code(error.statusCode).send(failure(httpLayerCode(error.statusCode), message));
  }
  // The account was removed between the token check and the write (decision 017's addendum).
  if (referencesMissingAccount(error))
    return reply.code(401).send(failure('ACCOUNT_REMOVED', 'Your account no longer exists'));
  if (isAbandonedByClient(error, request)) {
    // A cancelled upload, a closed tab: nothing failed here, and nobody is left to answer.
    request.log.info({ code: error.code, reason: error.message }, 'request abandoned by the client');
    return reply.code(400).send(failure('REQUEST_INTERRUPTED', 'The request was interrupted'));
  }
  request.log.error({ err: loggableError(error) }, 'unhandled error');
  // Nothing about the failure itself; the request id lets a person point us at its log line.
  return reply
    .code(500)
    .send(failure('INTERNAL_ERROR', `Something went wrong on our side. Please try again. (Reference: ${request.id})`));
}

/** The request's own stream broke because the client hung up (not a failure of ours). */
function isAbandonedByClient(error: FastifyError, request: FastifyRequest): boolean {
  const isStreamError =
    error.code === 'ECONNRESET' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted';
  return isStreamError && (request.raw.destroyed || request.raw.aborted);
}
