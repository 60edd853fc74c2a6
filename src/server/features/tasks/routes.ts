import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UPDATE_TASKS_BODY_LIMIT_BYTES, updateTasksSchema } from '#shared/tasks';
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
        {
          schema: { body: updateTasksSchema },
          config: { policy: { caller: role, touches: ['own-tasks'] } },
          // The whole list in one body; only the role's token gets this far.
          bodyLimit: UPDATE_TASKS_BODY_LIMIT_BYTES,
        },
        async (request) => ok('Tasks saved', await taskLists.replaceList(currentUser(request), request.body)),
      );
    }
  };
}
