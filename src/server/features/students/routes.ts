import type { FastifyPluginAsync } from 'fastify';
import { listClasses, listStudents, resetStudentPassword, updateStudentDetails } from '#shared/contract/students';
import { routeEndpoint } from '../../endpoint-route.ts';
import type { RouteSettings } from '../../endpoint-route.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { StudentsService } from './service.ts';

/** The teacher's students screen: the school's students and the classes to filter them by. */
export function studentsRoutes(students: StudentsService, throttle: Throttle): FastifyPluginAsync {
  return async (app) => {
    const schoolStudents: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['school-students'] } } };

    routeEndpoint(app, listStudents, schoolStudents, async (request) => {
      const { offset, limit } = request.query;
      return { message: 'Students found', listed: await students.listStudents(request.query), page: { offset, limit } };
    });

    routeEndpoint(app, listClasses, schoolStudents, async () => ({
      message: 'Classes found',
      data: await students.listClasses(),
    }));

    // A teacher manages a student within the reach of the screen above (decision 033); the
    // classes as records (decision 031) narrow that reach for every one of these at once.
    routeEndpoint(app, updateStudentDetails, schoolStudents, async (request) => {
      const student = await students.updateDetails(request.params.id, request.body);
      return { message: `${student.name}'s details were saved`, data: student };
    });

    // The temporary password is in this answer only: never logged, never stored in clear.
    routeEndpoint(app, resetStudentPassword, schoolStudents, async (request) => {
      const { temporaryPassword, rollNumber } = await students.resetPassword(request.params.id);
      try {
        await throttle.forgetPasswordFailures({ id: request.params.id, rollNumber });
      } catch (error) {
        // The reset stands; the lock-out only runs out by itself (at most 15 minutes).
        request.log.warn({ err: error }, 'throttle: lock-out not lifted after a password reset');
      }
      return {
        message: 'The password was reset. Give the student the temporary password; it is shown only once.',
        data: { temporaryPassword },
      };
    });
  };
}
