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
/** One of the seeded students (class 10A). */
export const DEMO_STUDENT_ROLL_NUMBER = 'demo-10a-01';
