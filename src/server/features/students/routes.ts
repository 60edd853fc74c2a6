import type { FastifyPluginAsync } from 'fastify';
import { listClasses, listStudents, resetStudentPassword, updateStudentDetails } from '#shared/contract/students';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { RouteSettings } from '../../endpoint-route.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { StudentsService } from './service.ts';

/**
 * The teacher's students screen: the students of the caller's classes and those classes to
 * filter them by (issue 19 points 6 and 8: contact details only to a class's teachers).
 */
export function studentsRoutes(students: StudentsService, throttle: Throttle): FastifyPluginAsync {
  return async (app) => {
    const classStudents: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['class-roster'] } } };
    const ownClasses: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['own-classes'] } } };

    routeEndpoint(app, listStudents, classStudents, async (request) => {
      const { offset, limit } = request.query;
      const listed = await students.listStudents(currentUser(request).id, request.query);
      return { message: 'Students found', listed, page: { offset, limit } };
    });

    routeEndpoint(app, listClasses, ownClasses, async (request) => ({
      message: 'Classes found',
      data: await students.listClasses(currentUser(request).id),
    }));

    // A teacher manages a student of one of their classes (decisions 031 and 033).
    routeEndpoint(app, updateStudentDetails, classStudents, async (request) => {
      const student = await students.updateDetails(currentUser(request).id, request.params.id, request.body);
      return { message: `${student.name}'s details were saved`, data: student };
    });

    // The temporary password is in this answer only: never logged, never stored in clear.
    routeEndpoint(app, resetStudentPassword, classStudents, async (request) => {
      const { temporaryPassword, rollNumber } = await students.resetPassword(
        currentUser(request).id,
        request.params.id,
      );
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
