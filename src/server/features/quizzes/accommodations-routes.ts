import type { FastifyPluginAsync } from 'fastify';
import { listAccommodations, removeAccommodation, setAccommodation } from '#shared/contract/quiz-accommodations';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { AccommodationsService } from './accommodations.ts';

/** A quiz's accommodations (decision 036): the teachers of its class give them. */
export function accommodationsRoutes(accommodations: AccommodationsService): FastifyPluginAsync {
  return async (app) => {
    const taughtQuizzes = { config: { policy: { caller: 'teacher', touches: ['taught-quizzes'] } } } as const;

    routeEndpoint(app, listAccommodations, taughtQuizzes, async (request) => ({
      message: 'Accommodations found',
      data: await accommodations.list(currentUser(request).id, request.params.id),
    }));

    routeEndpoint(app, setAccommodation, taughtQuizzes, async (request) => ({
      message: 'Accommodation saved',
      data: await accommodations.set(
        currentUser(request).id,
        request.params.id,
        request.params.studentId,
        request.body,
      ),
    }));

    routeEndpoint(app, removeAccommodation, taughtQuizzes, async (request) => ({
      message: 'Accommodation removed',
      data: await accommodations.remove(currentUser(request).id, request.params.id, request.params.studentId),
    }));
  };
}
