import { z } from 'zod/mini';
import { localeSchema } from './fields.ts';

/*
 * GET /api/school's answer on its own: every signed-in screen reads it for the school's language
 * (decision 055's addendum), and must not carry the set-up form's schemas with it (the time
 * zones' validation, the teacher's account fields: decision 014's budgets).
 */

/** Whether the school is set up, and its name (the sign-in pages show it). */
export const schoolStatusSchema = z.strictObject({
  isSetUp: z.boolean(),
  /** Null until the school is set up. */
  name: z.nullable(z.string()),
  /** The demo school's accounts exist (decision 050): only then does the landing page name them. */
  hasDemo: z.boolean(),
  /** The interface's language for whoever has not chosen one (issue 32); English before set-up. */
  defaultLocale: localeSchema,
  /** The IANA zone due dates are entered and shown in (decision 062); UTC before set-up. */
  timeZone: z.string(),
});
export type SchoolStatus = z.infer<typeof schoolStatusSchema>;
