import {
  sessionTokenSchema,
  studentLoginSchema,
  studentProfileSchema,
  studentRegistrationSchema,
  teacherLoginSchema,
  teacherProfileSchema,
  teacherRegistrationSchema,
} from '../accounts.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * Registering and logging in (SPEC §7): the only account calls without a token, throttled per
 * network and per account (decision 016). Apart from the other account calls so the auth pages
 * load these alone.
 */

export const registerTeacher = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/register',
  summary: 'Creates a teacher account with an invitation, which it uses up (decision 030)',
  body: teacherRegistrationSchema,
  response: teacherProfileSchema,
  status: 201,
  errors: [
    'EMAIL_TAKEN',
    'ACCOUNT_EXISTS',
    'INVITATION_NOT_FOUND',
    'INVITATION_USED',
    'INVITATION_EXPIRED',
    'INVITATION_REVOKED',
    'THROTTLED',
  ],
});

export const registerStudent = defineEndpoint({
  method: 'POST',
  path: '/api/student/register',
  summary: 'Creates a student account in the class of a join code (any case, with or without the dash)',
  body: studentRegistrationSchema,
  response: studentProfileSchema,
  status: 201,
  errors: ['CLASS_CODE_INVALID', 'EMAIL_TAKEN', 'ROLL_NUMBER_TAKEN', 'ACCOUNT_EXISTS', 'THROTTLED'],
});

export const logInTeacher = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/login',
  summary: "A session token for a teacher's email and password",
  body: teacherLoginSchema,
  response: sessionTokenSchema,
  errors: ['WRONG_CREDENTIALS', 'ACCOUNT_DEACTIVATED', 'THROTTLED'],
});

export const logInStudent = defineEndpoint({
  method: 'POST',
  path: '/api/student/login',
  summary: "A session token for a student's account username and password",
  body: studentLoginSchema,
  response: sessionTokenSchema,
  errors: ['WRONG_CREDENTIALS', 'THROTTLED'],
});
