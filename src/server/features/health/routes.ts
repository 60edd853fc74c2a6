import type { FastifyPluginAsync } from 'fastify';
import { getHealth } from '#shared/contract/health';
import type { DatabaseHandle } from '../../db/client.ts';
import { routeEndpoint } from '../../endpoint-route.ts';

/** Load balancers and `npm start` users poll this: 200 only when the database answers. */
export function healthRoutes(database: Pick<DatabaseHandle, 'ping'>): FastifyPluginAsync {
  return async (app) => {
    routeEndpoint(
      app,
      getHealth,
      { config: { policy: { caller: 'anyone', touches: ['nothing'] } } },
      async (request, reply) => {
        try {
          await database.ping();
          return { status: 'ok' };
        } catch (error) {
          request.log.warn({ err: error }, 'health check: database did not answer');
          return reply.code(503).send({ status: 'unavailable', code: 'UNAVAILABLE' });
        }
      },
    );
  };
}
