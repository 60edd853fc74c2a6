import type { FastifyPluginAsync } from 'fastify';
import { checkRosterImport, getRosterImport, startRosterImport } from '#shared/contract/classes';
import { ROSTER_IMPORT_BODY_LIMIT_BYTES } from '#shared/roster-import';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { RosterImports } from './service.ts';

/**
 * Class lists from CSV (decision 034): check, import as a job, read the job. Which class a
 * teacher may import into is requireTaughtClass's answer, from the token's teacher.
 */
export function rosterImportRoutes(imports: RosterImports, throttle: Throttle): FastifyPluginAsync {
  return async (app) => {
    routeEndpoint(
      app,
      checkRosterImport,
      {
        config: { policy: { caller: 'teacher', touches: ['class-roster'] } },
        bodyLimit: ROSTER_IMPORT_BODY_LIMIT_BYTES,
      },
      async (request) => {
        const check = await imports.check(currentUser(request).id, request.params.id, request.body.csv);
        return {
          message:
            check.rowsWithProblems === 0
              ? `All ${check.rows.length} rows can be imported`
              : `${check.rowsWithProblems} of ${check.rows.length} rows have problems`,
          data: check,
        };
      },
    );

    // Every start is charged to the teacher's hourly budget: each can hash 2,000 passwords.
    routeEndpoint(
      app,
      startRosterImport,
      {
        config: { policy: { caller: 'teacher', touches: ['new-account', 'class-roster'] } },
        bodyLimit: ROSTER_IMPORT_BODY_LIMIT_BYTES,
        ...throttle.rosterImports(),
      },
      async (request) => ({
        message: 'Import started',
        data: await imports.start(currentUser(request).id, request.params.id, request.body.csv, request.log),
      }),
    );

    routeEndpoint(
      app,
      getRosterImport,
      { config: { policy: { caller: 'teacher', touches: ['own-imports'] } } },
      async (request) => {
        const status = await imports.status(currentUser(request).id, request.params.id, {
          isHead: request.method === 'HEAD',
        });
        return { message: `Import ${status.state}`, data: status };
      },
    );
  };
}
