import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/** What load balancers and `npm start` poll: bare JSON, not the envelope. */
export const getHealth = defineEndpoint({
  method: 'GET',
  path: '/api/health',
  summary: 'Whether this instance can serve: 200 while its database answers, 503 when it does not',
  response: {
    form: 'bare-json',
    statuses: {
      200: z.strictObject({
        status: z.literal('ok'),
        /** This instance's release (semver, package.json's version): what an upgrade changes. */
        version: z.string().check(z.regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/)),
      }),
      503: z.strictObject({ status: z.literal('unavailable'), code: z.literal('UNAVAILABLE') }),
    },
  },
});
