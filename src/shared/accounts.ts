import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { bodyObject, identityText, joinCodeText, localeSchema, requiredText } from './fields.ts';
import { emailKey } from './identity.ts';
import { FIELD_LIMITS } from './limits.ts';

/**
 * Account payloads (SPEC §5, §7). The same schemas validate the client's forms
 * and the server's requests, so both sides report the same problems.
 */

/**
 * zod's practical address pattern with letters, marks and digits of any script (internationalised
 * addresses, RFC 6531): 'ǅemal@škola.example', 'ipek@bücher.de' or its punycode form.
 */
const EMAIL_ADDRESS =
  /^(?:[\p{L}\p{M}\p{N}_'+-]+\.)*[\p{L}\p{M}\p{N}_'+-]*[\p{L}\p{M}\p{N}_+-]@(?:[\p{L}\p{N}][\p{L}\p{M}\p{N}-]*\.)+(?:[\p{L}\p{M}]{2,}|xn--[a-z0-9-]+)$/iu;

/** An address that identifies an account: compared by its emailKey (decision 024). */
const emailAddress = () =>
  identityText(FIELD_LIMITS.email, emailKey).check(
    z.refine((value) => EMAIL_ADDRESS.test(value) && !emailKey(value).startsWith('@'), {
      params: fieldCode('INVALID_EMAIL'),
    }),
  );

/** A password being set: the registration rules (decision 002). */
const newPassword = z.string().check(
  z.minLength(1),
  z.minLength(FIELD_LIMITS.passwordMin),
  z.maxLength(FIELD_LIMITS.passwordMax),
  z.refine((password) => password.trim() !== '', { params: fieldCode('ONLY_SPACES') }),
);

// A login only needs *a* password; its length rules belong to registration.
const anyPassword = z.string().check(z.minLength(1), z.maxLength(FIELD_LIMITS.passwordMax));

/** The random part of an invitation link: 32 characters of base64url (24 random bytes). */
export const INVITATION_CODE_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** The code of a teacher's invitation link (decision 030), as pasted or read from the address. */
export const invitationCodeSchema = z.string().check(
  z.trim(),
  z.minLength(1),
  z.refine((value) => INVITATION_CODE_PATTERN.test(value), { params: fieldCode('INVITATION_CODE_FORM') }),
);

/** A teacher's own details: registering with an invitation, or setting up the school. */
export const teacherAccountFields = {
  // Labelled "Full name" on the form (SPEC §2): its problems say the same words.
  name: requiredText(FIELD_LIMITS.name),
  subject: requiredText(FIELD_LIMITS.subject),
  email: emailAddress(),
  password: newPassword,
};

/** Teachers join by invitation (decision 030): the link's code comes with the form. */
export const teacherRegistrationSchema = bodyObject({ ...teacherAccountFields, invitation: invitationCodeSchema });
export type TeacherRegistration = z.infer<typeof teacherRegistrationSchema>;

// Logins store nothing, so keys they do not read lose nothing: clients may post the whole form.
export const teacherLoginSchema = z.object({
  email: requiredText(FIELD_LIMITS.email),
  password: anyPassword,
});
export type TeacherLogin = z.infer<typeof teacherLoginSchema>;

/** A student's details a teacher may edit (decision 033): the registration's rules, without class and password. */
export const studentDetailFields = {
  name: requiredText(FIELD_LIMITS.name),
  // Letters may carry combining signs (Devanagari vowel signs; NFC leaves most of them apart).
  rollNumber: identityText(FIELD_LIMITS.rollNumber).check(
    // Joiners (ZWNJ, ZWJ) are how Persian and Indic names are written; the identity key ignores them.
    z.refine((value) => /^[\p{L}\p{N}._-](?:[\p{L}\p{M}\p{N}._-]|\u200C|\u200D)*$/u.test(value), {
      params: fieldCode('USERNAME_CHARACTERS'),
    }),
  ),
  email: emailAddress(),
  parentName: requiredText(FIELD_LIMITS.name),
  parentEmail: emailAddress(),
};

/** A new student account's fields but its class: a teacher adding one into a class names the class in the address. */
export const studentAccountFields = { ...studentDetailFields, password: newPassword };

/**
 * Student self-registration (decision 031): the class is the one of the join code the teacher
 * gave, never a name typed in, so nobody joins a class they were not given the code of.
 */
export const studentRegistrationSchema = bodyObject({ ...studentAccountFields, classCode: joinCodeText() });
export type StudentRegistration = z.infer<typeof studentRegistrationSchema>;

export const studentLoginSchema = z.object({
  rollNumber: requiredText(FIELD_LIMITS.rollNumber),
  password: anyPassword,
});
export type StudentLogin = z.infer<typeof studentLoginSchema>;

const changePasswordFields = {
  currentPassword: anyPassword,
  newPassword,
};

/**
 * POST /api/{role}/change-password (decision 017): the current password proves it is the
 * account holder; the new one follows the registration rules. The account is the token's.
 */
export const changePasswordSchema = z.strictObject(changePasswordFields).check(
  z.refine((input) => input.newPassword !== input.currentPassword, {
    path: ['newPassword'],
    params: fieldCode('PASSWORD_UNCHANGED'),
  }),
);
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** The change-password form: the same, plus the new password typed twice (the server never sees the copy). */
export const changePasswordFormSchema = z.object({ ...changePasswordFields, confirmPassword: z.string() }).check(
  z.refine((input) => input.newPassword !== input.currentPassword, {
    path: ['newPassword'],
    params: fieldCode('PASSWORD_UNCHANGED'),
  }),
  z.refine((input) => input.confirmPassword === input.newPassword, {
    path: ['confirmPassword'],
    params: fieldCode('PASSWORDS_DIFFER'),
  }),
);

/** Bodies of the profile calls are empty; anything sent is ignored. */
export const emptyBodySchema = z.nullish(z.looseObject({}));

/** What the API presents of a teacher (SPEC §3, minus the password). */
export const teacherProfileSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  /** Administers the school: the staff screen (decision 030). */
  isAdministrator: z.boolean(),
  /** The interface's language the teacher chose (issue 32); null: not chosen. */
  locale: z.nullable(localeSchema),
});
export type TeacherProfile = z.infer<typeof teacherProfileSchema>;

/** What the API presents of a student to the student or their teachers. */
export const studentProfileSchema = z.strictObject({
  _id: z.string(),
  name: z.string(),
  rollNumber: z.string(),
  email: z.string(),
  class: z.string(),
  parentName: z.string(),
  parentEmail: z.string(),
  averageScore: z.number(),
  averageAccuracy: z.number(),
  totalScore: z.number(),
  /** A teacher reset the password (decision 033): every call but the change is refused until a new one is chosen. */
  mustChangePassword: z.boolean(),
  /** The interface's language the student chose (issue 32); null: not chosen. */
  locale: z.nullable(localeSchema),
});
export type StudentProfile = z.infer<typeof studentProfileSchema>;

/** A person chooses the interface's language (issue 32); null goes back to the browser's and the school's. */
export const chooseLanguageSchema = bodyObject({ locale: z.nullable(localeSchema) });
export type ChooseLanguage = z.infer<typeof chooseLanguageSchema>;

/** A session token (JWT, 12 hours): sent as `Authorization: Bearer …`. */
export const sessionTokenSchema = z.string().check(z.minLength(1));
