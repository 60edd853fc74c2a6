import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';

/**
 * The demo's sign-ins the landing page names once the server says the demo is there (decision
 * 050), by the value of their <code>'s DEMO_CREDENTIAL_MARKER. The prerendered page leaves them
 * empty: a school without the demo never shows its public password.
 */
export const DEMO_CREDENTIALS = {
  'teacher-email': DEMO_TEACHER_EMAIL,
  'student-username': DEMO_STUDENT_ROLL_NUMBER,
  password: DEMO_PASSWORD,
} as const;

export type DemoCredential = keyof typeof DEMO_CREDENTIALS;
