import { bodyObject } from '../fields.ts';
import { schoolStatusSchema, setupCodeSchema } from '../school-setup.ts';
import { defineEndpoint } from './endpoint.ts';

/** POST /api/school/setup-code and POST /api/school/demo: the set-up code alone (decision 050). */
export const setupCodeBodySchema = bodyObject({ setupCode: setupCodeSchema });

/** The set-up screen's first step: the code is checked before the school's form shows (decision 050). */
export const checkSetupCode = defineEndpoint({
  method: 'POST',
  path: '/api/school/setup-code',
  summary: "Whether a set-up code is the server's (the set-up screen asks before its form)",
  description:
    "Changes nothing; answers the school's status (not set up). Throttled with the set-up: a wrong code counts against the network.",
  body: setupCodeBodySchema,
  response: schoolStatusSchema,
  errors: ['SETUP_CODE_WRONG', 'SCHOOL_ALREADY_SET_UP', 'THROTTLED'],
});

/** Apart from school-setup.ts: only /setup calls these, and every auth page downloads that file. */
export const fillDemoSchool = defineEndpoint({
  method: 'POST',
  path: '/api/school/demo',
  summary: 'Fills a fresh server with the demo school and its public demo accounts (only while no school is set up)',
  description:
    "The first run's other choice (decision 041), as `npm run seed` fills it. Needs the set-up code from the server's log, as the set-up does (decision 050). Refused with SCHOOL_ALREADY_SET_UP once any school exists, so the public demo passwords never go into a real school. Takes tens of seconds: the demo's passwords are hashed and its attempts taken.",
  body: setupCodeBodySchema,
  response: schoolStatusSchema,
  status: 201,
  errors: ['SETUP_CODE_WRONG', 'SCHOOL_ALREADY_SET_UP', 'THROTTLED'],
});
