import { invitationCodeSchema, sessionTokenSchema } from '../accounts.ts';
import { bodyObject } from '../fields.ts';
import { invitationCheckSchema, schoolSetupSchema } from '../school-setup.ts';
import { defineEndpoint } from './endpoint.ts';

/** The school's endpoints the auth pages call (decision 030); `school.ts` re-exports them with the rest. */

export { getSchool } from './school-status.ts';

export const setUpSchool = defineEndpoint({
  method: 'POST',
  path: '/api/school/setup',
  summary: "Sets up the school with its first teacher, the administrator (once); answers that teacher's session",
  description:
    'Needs the one-time set-up code the server prints in its log while no school exists (decision 050): reaching a fresh server first is not enough. Wrong codes are throttled per network.',
  body: schoolSetupSchema,
  response: sessionTokenSchema,
  status: 201,
  errors: ['SETUP_CODE_WRONG', 'SCHOOL_ALREADY_SET_UP', 'THROTTLED'],
});

const invitationBody = bodyObject({ invitation: invitationCodeSchema });

export const checkInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/invitation',
  summary: 'Whether an invitation can still be used (the registration screen asks before the form is filled)',
  description: 'The code travels in the body, not the address, so it never reaches a log line.',
  body: invitationBody,
  response: invitationCheckSchema,
  errors: ['INVITATION_NOT_FOUND', 'INVITATION_USED', 'INVITATION_EXPIRED', 'INVITATION_REVOKED', 'THROTTLED'],
});
