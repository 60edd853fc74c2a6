import { z } from 'zod/mini';
import {
  addClassStudentSchema,
  addCoTeacherSchema,
  createClassSchema,
  joinClassSchema,
  moveClassStudentSchema,
  rosterEntrySchema,
  studentClassSchema,
  teacherClassSchema,
  updateClassSchema,
} from '../classes.ts';
import { bodyObject } from '../fields.ts';
import {
  rosterImportStatusSchema,
  rosterImportCheckSchema,
  rosterImportBodySchema,
  startedRosterImportSchema,
} from '../roster-import.ts';
import { defineEndpoint } from './endpoint.ts';

/** Classes as records (issue 19 points 3–6, decision 031): a teacher's classes, join codes, rosters. */

const classParams = z.object({ id: z.uuid() });
const classMemberParams = z.object({
  id: z.uuid(),
  memberId: z.uuid(),
});
/** The address says it all: a body, if sent, must be empty (decision 025). */
const noBody = z.nullish(bodyObject({}));

export { listMyClasses } from './my-classes.ts';

export const createClass = defineEndpoint({
  method: 'POST',
  path: '/api/classes',
  summary: 'Creates a class taught by the caller, with a fresh join code',
  body: createClassSchema,
  response: teacherClassSchema,
  status: 201,
  errors: ['CLASS_NAME_TAKEN'],
});

export const updateClass = defineEndpoint({
  method: 'PATCH',
  path: '/api/classes/:id',
  summary: 'Renames a class of the caller or changes its subject',
  params: classParams,
  body: updateClassSchema,
  response: teacherClassSchema,
  errors: ['NOT_FOUND', 'CLASS_NAME_TAKEN'],
});

const classChange = (change: 'archive' | 'unarchive' | 'rotate-code' | 'turn-off-code', summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/classes/:id/${change}`,
    summary,
    params: classParams,
    body: noBody,
    response: teacherClassSchema,
    errors: ['NOT_FOUND'],
  });

/** The changes to a class that need no input beyond its address. */
export const changeClass = {
  archive: classChange('archive', 'Archives a class of the caller: off the pickers, its code stops working'),
  unarchive: classChange('unarchive', 'Makes an archived class of the caller active again'),
  'rotate-code': classChange('rotate-code', 'Gives a class of the caller a new join code; the old one stops at once'),
  'turn-off-code': classChange('turn-off-code', 'Turns off the join code of a class of the caller'),
};

export const addCoTeacher = defineEndpoint({
  method: 'POST',
  path: '/api/classes/:id/teachers',
  summary: 'Adds an active teacher of the school as a co-teacher of a class of the caller',
  params: classParams,
  body: addCoTeacherSchema,
  response: teacherClassSchema,
  errors: ['NOT_FOUND', 'TEACHER_NOT_ACTIVE'],
});

export const removeClassTeacher = defineEndpoint({
  method: 'DELETE',
  path: '/api/classes/:id/teachers/:memberId',
  summary:
    "Removes a teacher from a class of the caller: oneself, or another as the class's owner (never its last teacher)",
  params: classMemberParams,
  response: teacherClassSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'LAST_CLASS_TEACHER'],
});

export const listRoster = defineEndpoint({
  method: 'GET',
  path: '/api/classes/:id/students',
  summary: 'The students of a class of the caller, by name, with their contact details',
  params: classParams,
  response: z.array(rosterEntrySchema),
  errors: ['NOT_FOUND'],
});

export const addClassStudent = defineEndpoint({
  method: 'POST',
  path: '/api/classes/:id/students',
  summary: "Creates a student's account in an active class of the caller; answers their roster entry",
  params: classParams,
  body: addClassStudentSchema,
  response: rosterEntrySchema,
  status: 201,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED', 'EMAIL_TAKEN', 'ROLL_NUMBER_TAKEN', 'ACCOUNT_EXISTS'],
});

export const removeClassStudent = defineEndpoint({
  method: 'DELETE',
  path: '/api/classes/:id/students/:memberId',
  summary: 'Removes a student from a class of the caller; their account and past attempts stay',
  params: classMemberParams,
  response: z.array(rosterEntrySchema),
  errors: ['NOT_FOUND'],
});

export const moveClassStudent = defineEndpoint({
  method: 'POST',
  path: '/api/classes/:id/students/:memberId/move',
  summary:
    'Moves a student from a class of the caller to another active class of the caller in one step; answers their entry in the class they joined',
  params: classMemberParams,
  body: moveClassStudentSchema,
  response: rosterEntrySchema,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED'],
});

export const listStudentClasses = defineEndpoint({
  method: 'GET',
  path: '/api/student/classes',
  summary: 'The classes the calling student belongs to, by name',
  response: z.array(studentClassSchema),
});

export const joinClass = defineEndpoint({
  method: 'POST',
  path: '/api/student/join-class',
  summary: 'The calling student joins the class of a join code (any case, with or without the dash)',
  body: joinClassSchema,
  response: z.array(studentClassSchema),
  errors: ['CLASS_CODE_INVALID'],
});

// ---- Class lists from CSV (issue 19 point 6, decision 034) --------------------------------

export const checkRosterImport = defineEndpoint({
  method: 'POST',
  path: '/api/classes/:id/import/check',
  summary:
    'Checks a class list (CSV text) for an active class of the caller: every row with its problems; writes nothing',
  params: classParams,
  body: rosterImportBodySchema,
  response: rosterImportCheckSchema,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED'],
});

export const startRosterImport = defineEndpoint({
  method: 'POST',
  path: '/api/classes/:id/import',
  summary:
    'Checks the class list again and, with no problem in it, starts importing it into an active class of the caller (all rows or none); answers the import to follow',
  params: classParams,
  body: rosterImportBodySchema,
  response: startedRosterImportSchema,
  status: 202,
  errors: ['NOT_FOUND', 'CLASS_ARCHIVED', 'ROSTER_ROWS_INVALID', 'IMPORT_RUNNING'],
});

export const getRosterImport = defineEndpoint({
  method: 'GET',
  path: '/api/imports/:id',
  summary:
    'An import the caller started: its progress, its outcome and, on the first read after it is done, the generated passwords',
  params: z.object({ id: z.uuid() }),
  response: rosterImportStatusSchema,
  errors: ['NOT_FOUND'],
});
