import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADD_QUIZ_BODY_LIMIT_BYTES,
  newQuizSchema,
  quizIdParamsSchema,
  quizListQuerySchema,
  saveAnswersSchema,
  submitAttemptSchema,
} from '#shared/quizzes';
import { emptyBodySchema } from '#shared/accounts';
import { ok, okPage } from '../../http.ts';
import { currentUser, requireRole, requireUser, type TokenService } from '../../plugins/auth.ts';
import type { QuizzesService } from './service.ts';

/**
 * SPEC §7 quiz calls plus the attempt calls that give the server the timer
 * (start) and the answers as they are picked (answers).
 */
export function quizzesRoutes(quizzes: QuizzesService, tokens: TokenService): FastifyPluginAsyncZod {
  return async (app) => {
    const teacherOnly = requireRole(tokens, 'teacher');
    const studentOnly = requireRole(tokens, 'student');
    const anyUser = requireUser(tokens);

    app.post(
      '/api/teacher/add-quiz',
      // A long quiz is bigger than the default JSON limit; only a teacher's token gets this far.
      { schema: { body: newQuizSchema }, onRequest: teacherOnly, bodyLimit: ADD_QUIZ_BODY_LIMIT_BYTES },
      async (request, reply) => {
        const quiz = await quizzes.createQuiz(currentUser(request).id, request.body);
        return reply.code(201).send(ok(`Quiz "${quiz.title}" created successfully`, quiz));
      },
    );

    app.get(
      '/api/get-all-quiz',
      { schema: { querystring: quizListQuerySchema }, onRequest: anyUser },
      async (request, reply) => {
        const user = currentUser(request);
        const { view, offset, limit } = request.query;
        const listed =
          user.role === 'teacher'
            ? await quizzes.listForTeacher(user.id, { offset, limit })
            : await quizzes.listForStudent(user.id, view, { offset, limit });
        return okPage(reply, 'Quizzes found', listed, { offset, limit });
      },
    );

    app.get('/api/quiz/:id', { schema: { params: quizIdParamsSchema }, onRequest: anyUser }, async (request) => {
      const user = currentUser(request);
      const quiz =
        user.role === 'teacher'
          ? await quizzes.getForTeacher(user.id, request.params.id)
          : await quizzes.getForStudent(user.id, request.params.id);
      return ok('Quiz found', quiz);
    });

    app.post(
      '/api/quiz/:id/start',
      { schema: { params: quizIdParamsSchema, body: emptyBodySchema }, onRequest: studentOnly },
      async (request) => ok('Quiz started', await quizzes.startAttempt(currentUser(request).id, request.params.id)),
    );

    app.put(
      '/api/quiz/:id/answers',
      { schema: { params: quizIdParamsSchema, body: saveAnswersSchema }, onRequest: studentOnly },
      async (request) =>
        ok('Answers saved', await quizzes.saveAnswers(currentUser(request).id, request.params.id, request.body)),
    );

    app.post(
      '/api/student/update-student',
      { schema: { body: submitAttemptSchema }, onRequest: studentOnly },
      async (request) => ok('Quiz submitted', await quizzes.submitAttempt(currentUser(request).id, request.body)),
    );
  };
}
