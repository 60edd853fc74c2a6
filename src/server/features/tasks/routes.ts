import type { FastifyPluginAsync } from 'fastify';
import { getTaskList, updateTaskList } from '#shared/contract/tasks';
import { UPDATE_TASKS_BODY_LIMIT_BYTES } from '#shared/tasks';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { TasksService } from './service.ts';

/** SPEC §7 update-task for each role, plus reading the caller's list. */
export function tasksRoutes(taskLists: TasksService): FastifyPluginAsync {
  return async (app) => {
    routeEndpoint(
      app,
      getTaskList,
      { config: { policy: { caller: 'signed-in', touches: ['own-tasks'] } } },
      async (request) => ({
        message: 'Tasks found',
        data: await taskLists.getList(currentUser(request)),
      }),
    );

    // teacherID / studentID in the body are stripped by the schema: the token decides whose list it is.
    for (const role of ['teacher', 'student'] as const) {
      routeEndpoint(
        app,
        updateTaskList[role],
        {
          config: { policy: { caller: role, touches: ['own-tasks'] } },
          // The whole list in one body; only the role's token gets this far.
          bodyLimit: UPDATE_TASKS_BODY_LIMIT_BYTES,
        },
        async (request) => ({
          message: 'Tasks saved',
          data: await taskLists.replaceList(currentUser(request), request.body),
        }),
      );
    }
  };
}
