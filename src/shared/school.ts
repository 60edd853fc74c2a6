import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { bodyObject, hasForbiddenCharacters, localeSchema, pagingFields } from './fields.ts';
import { SCHOOL_LIMITS, schoolNameSchema } from './school-setup.ts';
import { timeZoneSchema } from './time-zones.ts';

// What the auth pages need lives apart, so their tight budget does not carry the staff screen's schemas.
export * from './school-setup.ts';

/**
 * The school and its staff (issue 19, decision 030): one school per installation, set up once
 * with its first teacher, the administrator; other teachers join by invitation.
 */

export const renameSchoolSchema = bodyObject({ name: schoolNameSchema });

/** The administrator sets the school's default language (issue 32). */
export const schoolLanguageSchema = bodyObject({ defaultLocale: localeSchema });

/** The administrator sets the school's time zone, the one due dates are entered and shown in (decision 062). */
export const schoolTimeZoneSchema = bodyObject({ timeZone: timeZoneSchema });

/** What removing the demo removed (decision 050); `schoolRemoved`: the school was the demo's, the server is back at its first run. */
export const demoRemovalSchema = z.strictObject({
  teachers: z.int(),
  students: z.int(),
  classes: z.int(),
  quizzes: z.int(),
  attempts: z.int(),
  resources: z.int(),
  files: z.int(),
  schoolRemoved: z.boolean(),
});
export type DemoRemoval = z.infer<typeof demoRemovalSchema>;

export const createInvitationSchema = bodyObject({
  /** Who it is for, so the list says which invitation is whose. */
  note: z._default(
    z.optional(
      z.string().check(
        z.trim(),
        z.maxLength(SCHOOL_LIMITS.invitationNote),
        z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
      ),
    ),
    '',
  ),
});
export type CreateInvitation = z.input<typeof createInvitationSchema>;

export const INVITATION_STATES = ['pending', 'used', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

/** One invitation as the administrator's list shows it (never its code: only its creator saw the link). */
export const invitationSchema = z.strictObject({
  _id: z.string(),
  note: z.string(),
  state: z.enum(INVITATION_STATES),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  /** The teacher who registered with it, once used. */
  usedBy: z.nullable(z.strictObject({ _id: z.string(), name: z.string() })),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** A new invitation: the only answer that carries its code (the link is built from it). */
export const createdInvitationSchema = z.strictObject({ invitation: invitationSchema, code: z.string() });
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;

export const staffListQuerySchema = z.object({ ...pagingFields(SCHOOL_LIMITS) });

/** One teacher of the staff list. */
export const staffMemberSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  isAdministrator: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/** An active teacher as any teacher of the school sees them (a co-teacher picker): a name, never an email. */
export const colleagueSchema = z.strictObject({ _id: z.string(), name: z.string() });
export type Colleague = z.infer<typeof colleagueSchema>;

export const STAFF_CHANGES = ['deactivate', 'reactivate', 'make-administrator', 'remove-administrator'] as const;
export type StaffChange = (typeof STAFF_CHANGES)[number];
