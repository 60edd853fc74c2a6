import { z } from 'zod/mini';
import { teacherAccountFields } from './accounts.ts';
import { bodyObject, localeSchema, requiredText } from './fields.ts';
import { timeZoneSchema } from './time-zones.ts';

/**
 * The school's first run and a teacher's invitation (decision 030): what the auth pages use of
 * the school. `school.ts` re-exports it with the staff screen's schemas.
 */

export const SCHOOL_LIMITS = {
  name: 120,
  invitationNote: 100,
  /** An invitation may be used for this long after it was made. */
  invitationDays: 7,
  pageSizeDefault: 25,
  pageSizeMax: 100,
} as const;

export { schoolStatusSchema, type SchoolStatus } from './school-status.ts';

export const schoolNameSchema = requiredText(SCHOOL_LIMITS.name);

/** The first run's one-time set-up code, as printed in the server's log (decision 050). */
export const setupCodeSchema = requiredText(100);

/** POST /api/school/setup: the set-up code, the school's name and its first teacher, the administrator. */
export const schoolSetupSchema = bodyObject({
  setupCode: setupCodeSchema,
  schoolName: schoolNameSchema,
  /** The school's default language (issue 32); the set-up page sends the one it is shown in. English when left out. */
  defaultLocale: z.optional(localeSchema),
  /** The school's time zone (decision 062); the set-up page sends the browser's. UTC when left out. */
  timeZone: z.optional(timeZoneSchema),
  ...teacherAccountFields,
});
export type SchoolSetup = z.infer<typeof schoolSetupSchema>;
/** What the school service needs: the route has checked the code. */
export type SchoolSetupDetails = Omit<SchoolSetup, 'setupCode'>;

/** What the teacher registration reads from an invitation link before the form is sent. */
export const invitationCheckSchema = z.strictObject({ schoolName: z.string(), expiresAt: z.iso.datetime() });
