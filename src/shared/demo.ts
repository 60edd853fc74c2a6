/**
 * The demo school that `npm run seed` creates. Public on purpose: anyone may
 * try it, so never seed a production database that real people use.
 */
/** The school the first demo teacher sets up and administers. */
export const DEMO_SCHOOL_NAME = 'StudyHall Demo School';
export const DEMO_PASSWORD = 'studyhall-demo';
export const DEMO_TEACHER_EMAIL = 'demo.teacher@example.com';
export const DEMO_SCIENCE_TEACHER_EMAIL = 'demo.science@example.com';
/**
 * The demo's teachers, by which the server knows the demo is there (decision 050): demo rows
 * carry no mark of their own, the seed's fixed accounts are the mark.
 */
export const DEMO_TEACHER_EMAILS = [DEMO_TEACHER_EMAIL, DEMO_SCIENCE_TEACHER_EMAIL] as const;
/** The demo's classes; its students' usernames are made from them (`demoRollNumber`). */
export const DEMO_CLASS_NAMES = ['10A', '10B'] as const;
/** The username of the demo class's student at `index` (0-based): `demo-10a-01`. */
export const demoRollNumber = (className: string, index: number) =>
  `demo-${className.toLowerCase()}-${String(index + 1).padStart(2, '0')}`;
/** One of the seeded students (class 10A): `demo-10a-01`. */
export const DEMO_STUDENT_ROLL_NUMBER = demoRollNumber(DEMO_CLASS_NAMES[0], 0);
const DEMO_ROLL_NUMBER = new RegExp(
  `^demo-(${DEMO_CLASS_NAMES.map((className) => className.toLowerCase()).join('|')})-\\d{2}$`,
);

/**
 * Whether an account is one of the demo's shared ones, which every visitor signs in to: a
 * visitor's own settings (the language chosen on the sign-in page) are not written to it, or the
 * next visitor would inherit them. By the seed's fixed emails and its usernames' form.
 */
export const isSharedDemoAccount = (account: { email?: string; rollNumber?: string }) =>
  (account.email !== undefined && (DEMO_TEACHER_EMAILS as readonly string[]).includes(account.email.toLowerCase())) ||
  (account.rollNumber !== undefined && DEMO_ROLL_NUMBER.test(account.rollNumber));
