import type { FastifyPluginAsync } from 'fastify';
import type { DatabaseHandle } from '../../db/client.ts';

/** Load balancers and `npm start` users poll this: 200 only when the database answers. */
export function healthRoutes(database: Pick<DatabaseHandle, 'ping'>): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/api/health',
      { config: { policy: { caller: 'anyone', touches: ['nothing'] } } },
      async (request, reply) => {
        try {
          await database.ping();
          return { status: 'ok' };
        } catch (error) {
          request.log.warn({ err: error }, 'health check: database did not answer');
          return reply.code(503).send({ status: 'unavailable' });
        }
      },
    );
  };
}
