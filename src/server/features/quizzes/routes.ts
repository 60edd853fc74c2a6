import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADD_QUIZ_BODY_LIMIT_BYTES,
  newQuizSchema,
  quizIdParamsSchema,
  quizListQuerySchema,
  SAVE_ANSWERS_BODY_LIMIT_BYTES,
  saveAnswersSchema,
  SUBMIT_ATTEMPT_BODY_LIMIT_BYTES,
  submitAttemptSchema,
} from '#shared/quizzes';
import { emptyBodySchema } from '#shared/accounts';
import { ok, okPage } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { QuizzesService } from './service.ts';

/**
 * SPEC §7 quiz calls plus the attempt calls that give the server the timer
 * (start) and the answers as they are picked (answers).
 */
export function quizzesRoutes(quizzes: QuizzesService, throttle: Throttle): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/teacher/add-quiz',
      // A long quiz is bigger than the default JSON limit (decision 023); only a teacher's token
      // gets this far, and each teacher's bytes an hour are bounded before they are read.
      {
        schema: { body: newQuizSchema },
        config: { policy: { caller: 'teacher', touches: ['own-quizzes'] } },
        bodyLimit: ADD_QUIZ_BODY_LIMIT_BYTES,
        ...throttle.quizBytes(),
      },
      async (request, reply) => {
        const quiz = await quizzes.createQuiz(currentUser(request).id, request.body);
        return reply.code(201).send(ok(`Quiz "${quiz.title}" created successfully`, quiz));
      },
    );

    app.get(
      '/api/get-all-quiz',
      {
        schema: { querystring: quizListQuerySchema },
        config: { policy: { caller: 'signed-in', touches: ['own-quizzes', 'class-quizzes'] } },
      },
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

    app.get(
      '/api/quiz/:id',
      {
        schema: { params: quizIdParamsSchema },
        config: { policy: { caller: 'signed-in', touches: ['own-quizzes', 'class-quizzes'] } },
      },
      async (request) => {
        const user = currentUser(request);
        const quiz =
          user.role === 'teacher'
            ? await quizzes.getForTeacher(user.id, request.params.id)
            : await quizzes.getForStudent(user.id, request.params.id);
        return ok('Quiz found', quiz);
      },
    );

    app.post(
      '/api/quiz/:id/start',
      {
        schema: { params: quizIdParamsSchema, body: emptyBodySchema },
        config: { policy: { caller: 'student', touches: ['class-quizzes'] } },
      },
      async (request) => ok('Quiz started', await quizzes.startAttempt(currentUser(request).id, request.params.id)),
    );

    app.put(
      '/api/quiz/:id/answers',
      {
        schema: { params: quizIdParamsSchema, body: saveAnswersSchema },
        config: { policy: { caller: 'student', touches: ['class-quizzes'] } },
        // Every choice at once can be long (decision 023); only a student's token gets this far.
        bodyLimit: SAVE_ANSWERS_BODY_LIMIT_BYTES,
      },
      async (request) =>
        ok('Answers saved', await quizzes.saveAnswers(currentUser(request).id, request.params.id, request.body)),
    );

    app.post(
      '/api/student/update-student',
      {
        schema: { body: submitAttemptSchema },
        config: { policy: { caller: 'student', touches: ['class-quizzes'] } },
        // The quiz's whole text may come back with the choices (decision 023).
        bodyLimit: SUBMIT_ATTEMPT_BODY_LIMIT_BYTES,
      },
      async (request) => ok('Quiz submitted', await quizzes.submitAttempt(currentUser(request).id, request.body)),
    );
  };
}
