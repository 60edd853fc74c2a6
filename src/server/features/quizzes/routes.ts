import type { FastifyPluginAsync } from 'fastify';
import { deleteQuiz, duplicateQuiz, editQuiz } from '#shared/contract/quiz-lifecycle';
import { addQuiz, getQuiz, listQuizzes, saveAnswers, startQuiz, submitQuiz } from '#shared/contract/quizzes';
import {
  ADD_QUIZ_BODY_LIMIT_BYTES,
  SAVE_ANSWERS_BODY_LIMIT_BYTES,
  SUBMIT_ATTEMPT_BODY_LIMIT_BYTES,
} from '#shared/quizzes';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { QuizLifecycle } from './lifecycle.ts';
import type { QuizzesService } from './service.ts';

/**
 * SPEC §7 quiz calls plus the attempt calls that give the server the timer
 * (start) and the answers as they are picked (answers).
 */
export function quizzesRoutes(
  quizzes: QuizzesService,
  lifecycle: QuizLifecycle,
  throttle: Throttle,
): FastifyPluginAsync {
  return async (app) => {
    const quizzesOfEitherRole = { policy: { caller: 'signed-in', touches: ['own-quizzes', 'class-quizzes'] } } as const;
    const classQuizzes = { policy: { caller: 'student', touches: ['class-quizzes'] } } as const;

    routeEndpoint(
      app,
      addQuiz,
      // A long quiz is bigger than the default JSON limit (decision 023); only a teacher's token
      // gets this far, and each teacher's bytes an hour are bounded before they are read.
      {
        // For one of the caller's own classes (decision 031).
        config: { policy: { caller: 'teacher', touches: ['own-quizzes', 'own-classes'] } },
        bodyLimit: ADD_QUIZ_BODY_LIMIT_BYTES,
        ...throttle.quizBytes(),
      },
      async (request) => {
        const quiz = await quizzes.createQuiz(currentUser(request).id, request.body);
        return { message: `Quiz "${quiz.title}" created successfully`, data: quiz };
      },
    );

    routeEndpoint(app, listQuizzes, { config: quizzesOfEitherRole }, async (request) => {
      const user = currentUser(request);
      const { view, offset, limit } = request.query;
      const listed =
        user.role === 'teacher'
          ? await quizzes.listForTeacher(user.id, { offset, limit })
          : await quizzes.listForStudent(user.id, view, { offset, limit }, request.tagVersions);
      return { message: 'Quizzes found', listed, page: { offset, limit } };
    });

    routeEndpoint(app, getQuiz, { config: quizzesOfEitherRole }, async (request) => {
      const user = currentUser(request);
      const quiz =
        user.role === 'teacher'
          ? await quizzes.getForTeacher(user.id, request.params.id)
          : await quizzes.getForStudent(user.id, request.params.id);
      return { message: 'Quiz found', data: quiz };
    });

    routeEndpoint(app, startQuiz, { config: classQuizzes }, async (request) => ({
      message: 'Quiz started',
      data: await quizzes.startAttempt(currentUser(request).id, request.params.id),
    }));

    routeEndpoint(
      app,
      saveAnswers,
      // Every choice at once can be long (decision 023); only a student's token gets this far.
      { config: classQuizzes, bodyLimit: SAVE_ANSWERS_BODY_LIMIT_BYTES },
      async (request) => ({
        message: 'Answers saved',
        data: await quizzes.saveAnswers(currentUser(request).id, request.params.id, request.body),
      }),
    );

    routeEndpoint(
      app,
      submitQuiz,
      // The quiz's whole text may come back with the choices (decision 023).
      { config: classQuizzes, bodyLimit: SUBMIT_ATTEMPT_BODY_LIMIT_BYTES },
      async (request) => ({
        message: 'Quiz submitted',
        data: await quizzes.submitAttempt(currentUser(request).id, request.body),
      }),
    );

    // Edit, duplicate, delete (decision 036): the caller's own quizzes; the edit and the copy
    // may name another of the caller's classes.
    routeEndpoint(
      app,
      editQuiz,
      {
        config: { policy: { caller: 'teacher', touches: ['own-quizzes', 'own-classes'] } },
        bodyLimit: ADD_QUIZ_BODY_LIMIT_BYTES,
        ...throttle.quizBytes(),
      },
      async (request) => {
        const edited = await lifecycle.editQuiz(currentUser(request).id, request.params.id, request.body);
        return {
          message: edited.regrade
            ? `Quiz "${edited.quiz.title}" saved: ${edited.regrade.attemptsChanged} ${edited.regrade.attemptsChanged === 1 ? 'attempt' : 'attempts'} regraded`
            : `Quiz "${edited.quiz.title}" saved`,
          data: edited,
        };
      },
    );

    routeEndpoint(
      app,
      duplicateQuiz,
      { config: { policy: { caller: 'teacher', touches: ['own-quizzes', 'own-classes'] } } },
      async (request) => {
        const copy = await lifecycle.duplicateQuiz(currentUser(request).id, request.params.id, request.body);
        return { message: `Quiz "${copy.title}" created successfully`, data: copy };
      },
    );

    routeEndpoint(
      app,
      deleteQuiz,
      { config: { policy: { caller: 'teacher', touches: ['own-quizzes'] } } },
      async (request) => {
        const deleted = await lifecycle.deleteQuiz(
          currentUser(request).id,
          request.params.id,
          request.query.withResults,
        );
        return {
          message: deleted.outcome === 'archived' ? 'Quiz archived' : 'Quiz deleted',
          data: deleted,
        };
      },
    );
  };
}
