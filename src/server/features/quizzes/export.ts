import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { exportQuiz } from '#shared/contract/quizzes';
import { giftFileName, toQuestionInput, writeGift } from '#shared/gift';
import type { Database } from '../../db/client.ts';
import { quizzes } from '../../db/schema.ts';
import { routeEndpoint } from '../../endpoint-route.ts';
import { forbidden, notFound } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { contentDisposition } from '../resources/content-type.ts';

/**
 * GET /api/quizzes/:id/export?format=gift (issue 20 point 6): the stored questions as GIFT, for
 * the teacher who may see the quiz's analytics. Its own file beside the quizzes service: a
 * read of one row and a pure writer (src/shared/gift.ts).
 */

/** The quiz's title and questions, if this teacher may read its answer key (the teacher detail's rule). */
export async function quizForExport(db: Database, teacherId: string, quizId: string) {
  const [row] = await db
    .select({ title: quizzes.title, questions: quizzes.questions, createdBy: quizzes.createdByTeacherId })
    .from(quizzes)
    .where(eq(quizzes.id, quizId))
    .limit(1);
  if (!row) throw notFound('This quiz does not exist');
  // The same rule as the teacher's quiz detail (service getForTeacher), which shows the key too.
  if (row.createdBy !== teacherId) throw forbidden('Only the teacher who created this quiz can export it');
  return { title: row.title, questions: row.questions };
}

export function quizExportRoutes(db: Database): FastifyPluginAsync {
  return async (app) => {
    routeEndpoint(
      app,
      exportQuiz,
      { config: { policy: { caller: 'teacher', touches: ['own-quizzes'] } } },
      async (request, reply) => {
        const quiz = await quizForExport(db, currentUser(request).id, request.params.id);
        return reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('content-disposition', contentDisposition('attachment', giftFileName(quiz.title)))
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .send(writeGift(quiz.questions.map(toQuestionInput)));
      },
    );
  };
}
