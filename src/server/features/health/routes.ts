import type { FastifyPluginAsync } from 'fastify';
import { getHealth } from '#shared/contract/health';
import type { DatabaseHandle } from '../../db/client.ts';
import { routeEndpoint } from '../../endpoint-route.ts';
import { APP_VERSION } from '../../version.ts';

/**
 * One database check for every health check that arrives while it runs (decision 048). A
 * check is a round trip through the database, and on PGlite a statement on the only thread
 * (~1–2.5 ms of it, most of what a check cost in the profile): probed 50 times a second on a
 * busy machine, the checks alone took the share of a core the server could get, and queued
 * behind each other. Sharing keeps the answer exact (the database answered after the check
 * arrived) and makes the cost fall as the checks pile up: the busier the server, the more
 * checks one ping answers.
 */
export function shareInFlight(check: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () =>
    (running ??= check().finally(() => {
      running = undefined;
    }));
}

/** Load balancers and `npm start` users poll this: 200 only when the database answers. */
export function healthRoutes(database: Pick<DatabaseHandle, 'ping'>): FastifyPluginAsync {
  const ping = shareInFlight(() => database.ping());
  return async (app) => {
    routeEndpoint(
      app,
      getHealth,
      { config: { policy: { caller: 'anyone', touches: ['nothing'] } } },
      async (request, reply) => {
        try {
          await ping();
          return { status: 'ok', version: APP_VERSION } as const;
        } catch (error) {
          request.log.warn({ err: error }, 'health check: database did not answer');
          return reply.code(503).send({ status: 'unavailable', code: 'UNAVAILABLE' });
        }
      },
    );
  };
}
