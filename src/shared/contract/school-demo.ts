import { schoolStatusSchema, setupCodeBodySchema } from '../school-setup.ts';
import { defineEndpoint } from './endpoint.ts';

/** Apart from school-setup.ts: only /setup calls it, and every auth page downloads that file. */
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
