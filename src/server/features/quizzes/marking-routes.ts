import type { FastifyPluginAsync } from 'fastify';
import { listEssaysToMark, markEssay } from '#shared/contract/quiz-marking';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { MarkingService } from './marking.ts';

/** Marking essays by hand (decision 046): the teachers of the quiz's class. */
export function markingRoutes(marking: MarkingService): FastifyPluginAsync {
  return async (app) => {
    const taughtQuizzes = { config: { policy: { caller: 'teacher', touches: ['taught-quizzes'] } } } as const;

    routeEndpoint(app, listEssaysToMark, taughtQuizzes, async (request) => {
      const { view, offset, limit } = request.query;
      const listed = await marking.list(currentUser(request).id, request.params.id, view, { offset, limit });
      return { message: 'Essays found', listed, page: { offset, limit } };
    });

    routeEndpoint(app, markEssay, taughtQuizzes, async (request) => {
      const { id, attemptId, questionId } = request.params;
      return {
        message: 'Essay marked',
        data: await marking.mark(currentUser(request).id, id, attemptId, questionId, request.body),
      };
    });
  };
}
