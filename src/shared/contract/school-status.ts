import { schoolStatusSchema } from '../school-status.ts';
import { defineEndpoint } from './endpoint.ts';
import { SCHOOL_STATUS_PATH } from './school-status-path.ts';

/** GET /api/school alone: every signed-in screen asks it for the school's language (decision 055). */
export const getSchool = defineEndpoint({
  method: 'GET',
  path: SCHOOL_STATUS_PATH,
  summary: 'Whether the school is set up, its name, and whether the demo school is there',
  response: schoolStatusSchema,
});
