import { z } from 'zod/mini';
import {
  colleagueSchema,
  createdInvitationSchema,
  createInvitationSchema,
  demoRemovalSchema,
  invitationSchema,
  renameSchoolSchema,
  schoolLanguageSchema,
  schoolStatusSchema,
  schoolTimeZoneSchema,
  staffListQuerySchema,
  staffMemberSchema,
  type StaffChange,
} from '../school.ts';
import { assignClassTeacherSchema, assignedClassSchema, untaughtClassSchema } from '../classes.ts';
import { bodyObject } from '../fields.ts';
import { defineEndpoint } from './endpoint.ts';

/** The school and its staff (issue 19, decision 030): setup, invitations, the administrator's staff screen. */

// The first run's and the registration's endpoints live apart: the auth pages load only them.
export * from './school-setup.ts';

export const renameSchool = defineEndpoint({
  method: 'POST',
  path: '/api/school/rename',
  summary: "Changes the school's name (administrators)",
  body: renameSchoolSchema,
  response: schoolStatusSchema,
});

export const setSchoolLanguage = defineEndpoint({
  method: 'POST',
  path: '/api/school/language',
  summary: "Sets the school's default language of the interface, for whoever has not chosen one (administrators)",
  body: schoolLanguageSchema,
  response: schoolStatusSchema,
});

export const setSchoolTimeZone = defineEndpoint({
  method: 'POST',
  path: '/api/school/time-zone',
  summary: "Sets the school's time zone, the one due dates are entered and shown in (administrators)",
  body: schoolTimeZoneSchema,
  response: schoolStatusSchema,
});

export const removeDemoSchool = defineEndpoint({
  method: 'DELETE',
  path: '/api/school/demo',
  summary: "Removes the demo school's accounts, classes, quizzes, attempts, resources and files (administrators)",
  description:
    'As `npm run demo:remove` (decision 050), in one transaction. Refused with DEMO_IN_USE, removing nothing, when other teachers have work in a demo class or a demo teacher is the only administrator. Where only the demo was there the school goes too: the server is back at its first run. Without a demo it removes nothing.',
  response: demoRemovalSchema,
  errors: ['DEMO_IN_USE'],
});

export const listInvitations = defineEndpoint({
  method: 'GET',
  path: '/api/school/invitations',
  summary: 'Invitations, newest first, each with its state (administrators)',
  query: staffListQuerySchema,
  response: z.array(invitationSchema),
  paged: true,
});

export const createInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/school/invitations',
  summary: 'A new invitation for a teacher: its code is in this answer only (administrators)',
  body: createInvitationSchema,
  response: createdInvitationSchema,
  status: 201,
});

const idParams = z.object({ id: z.uuid() });
/** The address says it all: a body, if sent, must be empty (decision 025). */
const noBody = z.nullish(bodyObject({}));

export const revokeInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/school/invitations/:id/revoke',
  summary: 'Revokes an invitation that has not been used (administrators)',
  params: idParams,
  body: noBody,
  response: invitationSchema,
  errors: ['NOT_FOUND', 'INVITATION_USED'],
});

export const listStaff = defineEndpoint({
  method: 'GET',
  path: '/api/school/teachers',
  summary: "The school's teachers, by name, with their role and state (administrators)",
  query: staffListQuerySchema,
  response: z.array(staffMemberSchema),
  paged: true,
});

export const listColleagues = defineEndpoint({
  method: 'GET',
  path: '/api/school/colleagues',
  summary: "The school's active teachers, by name, names only: whom a teacher may add to a class (any teacher)",
  response: z.array(colleagueSchema),
});

const STAFF_CHANGE_SUMMARIES: Record<StaffChange, string> = {
  deactivate: 'Deactivates a teacher: every session ends at once, on every instance; sign-in is refused',
  reactivate: 'Lets a deactivated teacher sign in again',
  'make-administrator': 'Makes a teacher an administrator of the school',
  'remove-administrator': 'Takes away a teacher’s administration (never from the last active administrator)',
};

const changeStaffOf = <const Change extends StaffChange>(change: Change) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/school/teachers/:id/${change}`,
    summary: `${STAFF_CHANGE_SUMMARIES[change]} (administrators)`,
    params: idParams,
    body: noBody,
    response: staffMemberSchema,
    errors: ['NOT_FOUND', 'LAST_ADMINISTRATOR'],
  });

/** The administrator's four changes to a teacher, by name. */
export const changeStaff = {
  deactivate: changeStaffOf('deactivate'),
  reactivate: changeStaffOf('reactivate'),
  'make-administrator': changeStaffOf('make-administrator'),
  'remove-administrator': changeStaffOf('remove-administrator'),
};

export const listUntaughtClasses = defineEndpoint({
  method: 'GET',
  path: '/api/school/untaught-classes',
  summary: 'Classes no teacher teaches, by name, with their student count (administrators)',
  query: staffListQuerySchema,
  response: z.array(untaughtClassSchema),
  paged: true,
});

export const assignClassTeacher = defineEndpoint({
  method: 'POST',
  path: '/api/school/untaught-classes/:id/teacher',
  summary: 'Gives a class no teacher teaches an active teacher of the school, as its owner (administrators)',
  params: idParams,
  body: assignClassTeacherSchema,
  response: assignedClassSchema,
  errors: ['NOT_FOUND', 'CLASS_HAS_TEACHER', 'TEACHER_NOT_ACTIVE'],
});
