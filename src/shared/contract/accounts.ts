import { z } from 'zod/mini';
import {
  changePasswordSchema,
  chooseLanguageSchema,
  emptyBodySchema,
  sessionTokenSchema,
  studentProfileSchema,
  teacherProfileSchema,
} from '../accounts.ts';
import type { UserRole } from '../constants.ts';
import { defineEndpoint } from './endpoint.ts';

/** The signed-in account: its profile and sessions (decision 017). A teacher adds a student into a class (contract/classes.ts). */

export const getTeacherProfile = defineEndpoint({
  method: 'POST',
  path: '/api/teacher/get-teacher-by-id',
  summary: "The calling teacher's profile (the token says who; the body is empty)",
  body: emptyBodySchema,
  response: teacherProfileSchema,
});

export const getStudentProfile = defineEndpoint({
  method: 'POST',
  path: '/api/student/get-student-by-id',
  summary: "The calling student's profile (the token says who; the body is empty)",
  body: emptyBodySchema,
  response: studentProfileSchema,
});

/** get-teacher-by-id and get-student-by-id, per role. */
export const getProfile = { teacher: getTeacherProfile, student: getStudentProfile };

const changePasswordOf = <const Role extends UserRole>(role: Role) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/${role}/change-password`,
    summary: 'Changes the password: every other session is signed out; the answer is a fresh token for this one',
    body: changePasswordSchema,
    response: sessionTokenSchema,
    errors: ['WRONG_CURRENT_PASSWORD'],
  });

const logOutEverywhereOf = <const Role extends UserRole>(role: Role) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/${role}/logout-everywhere`,
    summary: 'Signs the account out of every device, this one included, and ends its meetings',
    body: emptyBodySchema,
    response: z.null(),
  });

export const changePassword = { teacher: changePasswordOf('teacher'), student: changePasswordOf('student') };
export const logOutEverywhere = { teacher: logOutEverywhereOf('teacher'), student: logOutEverywhereOf('student') };

const chooseLanguageOf = <const Role extends UserRole>(role: Role) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/${role}/language`,
    summary:
      "Keeps the interface's language the caller chose (null: the browser's, then the school's); the answer is the choice",
    body: chooseLanguageSchema,
    response: chooseLanguageSchema,
  });

export const chooseLanguage = { teacher: chooseLanguageOf('teacher'), student: chooseLanguageOf('student') };
