import type { FastifyPluginAsync } from 'fastify';
import {
  changeStaff,
  checkInvitation,
  createInvitation,
  getSchool,
  listColleagues,
  listInvitations,
  listStaff,
  removeDemoSchool,
  renameSchool,
  setSchoolLanguage,
  setSchoolTimeZone,
  revokeInvitation,
  setUpSchool,
} from '#shared/contract/school';
import { checkSetupCode, fillDemoSchool } from '#shared/contract/school-demo';
import { STAFF_CHANGES, type DemoRemoval } from '#shared/school';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import { schoolAlreadySetUp, type SchoolService } from './service.ts';
import type { SetupCodeCheck } from './setup-code.ts';

/**
 * The school and its staff (decision 030): the first run's setup, invitations, and the
 * administrator's changes to teachers. The first run needs the set-up code from the server's
 * log, its tries throttled per network (decision 050); invitation checks are throttled as
 * registrations are (decision 016).
 */
export function schoolRoutes(
  school: SchoolService,
  throttle: Throttle,
  setupCode: SetupCodeCheck,
  demo: {
    /** Seeds the demo school, refusing where a school exists (decision 041). */
    fill: () => Promise<unknown>;
    /** Removes the demo, whole or not at all (decision 050). */
    remove: () => Promise<DemoRemoval>;
  },
): FastifyPluginAsync {
  return async (app) => {
    const staff: RouteSettings = { config: { policy: { caller: 'administrator', touches: ['school-staff'] } } };

    routeEndpoint(
      app,
      getSchool,
      { config: { policy: { caller: 'anyone', touches: ['school-setup'] } } },
      async () => ({
        message: 'School found',
        data: await school.status(),
      }),
    );

    // A well-formed call to a set-up school is refused before the throttle counts a try: it costs
    // one read, as GET /api/school does, and nobody's refusals lock the route for others
    // (decision 041). A malformed body is a 400 first, as on every route. Before set-up the code
    // is checked next: without it a caller learns nothing (decision 050).
    const setupCodeThrottle = throttle.setupCode();
    const firstRun: RouteSettings = {
      config: { policy: { caller: 'anyone', touches: ['school-setup'] } },
      preHandler: [
        async () => {
          if ((await school.status()).isSetUp) throw schoolAlreadySetUp();
        },
        setupCodeThrottle.preHandler,
      ],
      onSend: setupCodeThrottle.onSend,
    };

    routeEndpoint(app, checkSetupCode, firstRun, async (request) => {
      setupCode.require(request.body.setupCode);
      const status = await school.status();
      if (status.isSetUp) throw schoolAlreadySetUp();
      return { message: 'This is the set-up code', data: status };
    });

    routeEndpoint(app, setUpSchool, firstRun, async (request) => {
      const { setupCode: given, ...details } = request.body;
      setupCode.require(given);
      return { message: 'Your school is ready', data: await school.setUp(details) };
    });

    // The first run's other choice (decision 041): only while no school exists, which the seed's
    // first statement checks and claims at once, and only with the set-up code (decision 050):
    // the demo's administrator has a public password.
    routeEndpoint(app, fillDemoSchool, firstRun, async (request) => {
      setupCode.require(request.body.setupCode);
      if ((await school.status()).isSetUp) throw schoolAlreadySetUp();
      await demo.fill();
      return { message: 'The demo school is ready: sign in with one of its accounts', data: await school.status() };
    });

    routeEndpoint(app, removeDemoSchool, staff, async () => {
      const removed = await demo.remove();
      return {
        message: removed.schoolRemoved
          ? 'The demo has been removed: set the school up again with the code in the server’s log'
          : 'The demo has been removed',
        data: removed,
      };
    });

    routeEndpoint(app, renameSchool, staff, async (request) => ({
      message: 'School renamed',
      data: await school.rename(request.body.name),
    }));

    routeEndpoint(app, setSchoolLanguage, staff, async (request) => ({
      message: "The school's language was set",
      data: await school.setDefaultLocale(request.body.defaultLocale),
    }));

    routeEndpoint(app, setSchoolTimeZone, staff, async (request) => ({
      message: "The school's time zone was set",
      data: await school.setTimeZone(request.body.timeZone),
    }));

    routeEndpoint(
      app,
      checkInvitation,
      { config: { policy: { caller: 'anyone', touches: ['invitation'] } }, ...throttle.registration('teacher') },
      async (request) => ({
        message: 'This invitation can be used',
        data: await school.checkInvitation(request.body.invitation),
      }),
    );

    routeEndpoint(app, listInvitations, staff, async (request) => {
      const { offset, limit } = request.query;
      return {
        message: 'Invitations found',
        listed: await school.listInvitations(request.query),
        page: { offset, limit },
      };
    });

    routeEndpoint(app, createInvitation, staff, async (request) => ({
      message: 'Invitation created: copy its link now, it is shown only once',
      data: await school.createInvitation(request.body, currentUser(request).id),
    }));

    routeEndpoint(app, revokeInvitation, staff, async (request) => ({
      message: 'Invitation revoked',
      data: await school.revokeInvitation(request.params.id),
    }));

    routeEndpoint(app, listStaff, staff, async (request) => {
      const { offset, limit } = request.query;
      return { message: 'Teachers found', listed: await school.listStaff(request.query), page: { offset, limit } };
    });

    routeEndpoint(
      app,
      listColleagues,
      { config: { policy: { caller: 'teacher', touches: ['colleagues'] } } },
      async () => ({ message: 'Teachers found', data: await school.listColleagues() }),
    );

    for (const change of STAFF_CHANGES) {
      routeEndpoint(app, changeStaff[change], staff, async (request) => ({
        message: 'Teacher updated',
        data: await school.changeStaff(change, request.params.id),
      }));
    }
  };
}
