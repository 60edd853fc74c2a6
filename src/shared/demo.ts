/**
 * The demo school that `npm run seed` creates. Public on purpose: anyone may
 * try it, so never seed a production database that real people use.
 */
/** The school the first demo teacher sets up and administers. */
export const DEMO_SCHOOL_NAME = 'StudyHall Demo School';
export const DEMO_PASSWORD = 'studyhall-demo';
export const DEMO_TEACHER_EMAIL = 'demo.teacher@example.com';
/** One of the seeded students (class 10A). */
export const DEMO_STUDENT_ROLL_NUMBER = 'demo-10a-01';
