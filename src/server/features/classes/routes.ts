import type { FastifyPluginAsync } from 'fastify';
import {
  addClassStudent,
  addCoTeacher,
  changeClass,
  createClass,
  joinClass,
  listMyClasses,
  listRoster,
  listStudentClasses,
  moveClassStudent,
  removeClassStudent,
  removeClassTeacher,
  updateClass,
} from '#shared/contract/classes';
import { assignClassTeacher, listUntaughtClasses } from '#shared/contract/school';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { AccountsService } from '../accounts/service.ts';
import type { ClassesService } from './service.ts';

/**
 * Classes as records (decision 031): a teacher's classes, their teachers and join codes, and
 * rosters; a student's classes and joining one by code. Which class a teacher may touch is
 * decided by requireTaughtClass in the service, from the token's teacher.
 */
export function classesRoutes(
  classes: ClassesService,
  accounts: AccountsService,
  throttle: Throttle,
): FastifyPluginAsync {
  return async (app) => {
    const ownClasses: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['own-classes'] } } };
    const roster: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['class-roster'] } } };

    routeEndpoint(app, listMyClasses, ownClasses, async (request) => ({
      message: 'Classes found',
      data: await classes.listForTeacher(currentUser(request).id),
    }));

    routeEndpoint(app, createClass, ownClasses, async (request) => ({
      message: 'Class created',
      data: await classes.create(currentUser(request).id, request.body),
    }));

    routeEndpoint(app, updateClass, ownClasses, async (request) => ({
      message: 'Class updated',
      data: await classes.update(currentUser(request).id, request.params.id, request.body),
    }));

    const CHANGES = {
      archive: { run: classes.archive, message: 'Class archived' },
      unarchive: { run: classes.unarchive, message: 'Class active again' },
      'rotate-code': { run: classes.rotateCode, message: 'New join code made: the old one no longer works' },
      'turn-off-code': { run: classes.turnOffCode, message: 'Join code turned off' },
    } as const;
    for (const [change, { run, message }] of Object.entries(CHANGES) as [
      keyof typeof CHANGES,
      (typeof CHANGES)[keyof typeof CHANGES],
    ][]) {
      routeEndpoint(app, changeClass[change], ownClasses, async (request) => ({
        message,
        data: await run(currentUser(request).id, request.params.id),
      }));
    }

    routeEndpoint(app, addCoTeacher, ownClasses, async (request) => ({
      message: 'Co-teacher added',
      data: await classes.addCoTeacher(currentUser(request).id, request.params.id, request.body),
    }));

    routeEndpoint(app, removeClassTeacher, ownClasses, async (request) => ({
      message: 'Teacher removed from the class',
      data: await classes.removeTeacher(currentUser(request).id, request.params.id, request.params.memberId),
    }));

    routeEndpoint(app, listRoster, roster, async (request) => ({
      message: 'Students found',
      data: await classes.roster(currentUser(request).id, request.params.id),
    }));

    // Adding students is throttled per teacher (decision 016).
    routeEndpoint(
      app,
      addClassStudent,
      {
        config: { policy: { caller: 'teacher', touches: ['new-account', 'class-roster'] } },
        ...throttle.studentsAdded(),
      },
      async (request) => {
        const classId = request.params.id;
        const student = await accounts.addStudentToClass(currentUser(request).id, classId, request.body);
        return {
          message: `Student ${student.name} added to ${student.class}`,
          data: await classes.rosterEntry(classId, student._id),
        };
      },
    );

    routeEndpoint(app, removeClassStudent, roster, async (request) => ({
      message: 'Student removed from the class; their account and results stay',
      data: await classes.removeStudent(currentUser(request).id, request.params.id, request.params.memberId),
    }));

    routeEndpoint(app, moveClassStudent, roster, async (request) => {
      const { id, memberId } = request.params;
      const entry = await classes.moveStudent(currentUser(request).id, id, memberId, request.body);
      return { message: `${entry.name} moved to the class`, data: entry };
    });

    // Classes no teacher teaches (decision 031): the administrator sees them and gives each a teacher.
    const untaught: RouteSettings = { config: { policy: { caller: 'administrator', touches: ['untaught-classes'] } } };
    routeEndpoint(app, listUntaughtClasses, untaught, async (request) => {
      const { offset, limit } = request.query;
      return { message: 'Classes found', listed: await classes.listUntaught(request.query), page: { offset, limit } };
    });
    routeEndpoint(app, assignClassTeacher, untaught, async (request) => {
      const assigned = await classes.assignTeacher(request.params.id, request.body);
      return { message: `${assigned.teachers[0]?.name ?? 'The teacher'} now teaches ${assigned.name}`, data: assigned };
    });

    routeEndpoint(
      app,
      listStudentClasses,
      { config: { policy: { caller: 'student', touches: ['own-classes'] } } },
      async (request) => ({ message: 'Classes found', data: await classes.studentClasses(currentUser(request).id) }),
    );

    // A wrong code counts as a failure, as a wrong password does: codes cannot be guessed by trying.
    routeEndpoint(
      app,
      joinClass,
      { config: { policy: { caller: 'student', touches: ['own-classes'] } }, ...throttle.classCode() },
      async (request) => ({
        message: 'You joined the class',
        data: await classes.join(currentUser(request).id, request.body),
      }),
    );
  };
}
