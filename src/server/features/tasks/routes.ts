import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { updateTasksSchema } from '#shared/tasks';
import { ok } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { TasksService } from './service.ts';

/** SPEC §7 update-task for each role, plus reading the caller's list. */
export function tasksRoutes(taskLists: TasksService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/tasks', { config: { policy: { caller: 'signed-in', touches: ['own-tasks'] } } }, async (request) =>
      ok('Tasks found', await taskLists.getList(currentUser(request))),
    );

    // teacherID / studentID in the body are stripped by the schema: the token decides whose list it is.
    for (const role of ['teacher', 'student'] as const) {
      app.post(
        `/api/${role}/update-task`,
        { schema: { body: updateTasksSchema }, config: { policy: { caller: role, touches: ['own-tasks'] } } },
        async (request) => ok('Tasks saved', await taskLists.replaceList(currentUser(request), request.body)),
      );
    }
  };
}
