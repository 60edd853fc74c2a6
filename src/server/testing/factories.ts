import { randomBytes } from 'node:crypto';
import type { StudentRegistration, TeacherRegistration } from '#shared/accounts';

/**
 * Account builders shared by API tests, e2e scenarios and (later) the demo
 * seed. Every call yields unique emails and roll numbers.
 */
const uniqueSuffix = () => randomBytes(4).toString('hex');

export function buildTeacherRegistration(overrides: Partial<TeacherRegistration> = {}): TeacherRegistration {
  const suffix = uniqueSuffix();
  return {
    name: `Teacher ${suffix}`,
    subject: 'Mathematics',
    email: `teacher.${suffix}@school.test`,
    password: `correct-horse-${suffix}`,
    ...overrides,
  };
}

export function buildStudentRegistration(overrides: Partial<StudentRegistration> = {}): StudentRegistration {
  const suffix = uniqueSuffix();
  return {
    name: `Student ${suffix}`,
    rollNumber: `roll-${suffix}`,
    email: `student.${suffix}@school.test`,
    class: '10A',
    parentName: `Parent ${suffix}`,
    parentEmail: `parent.${suffix}@family.test`,
    password: `battery-staple-${suffix}`,
    ...overrides,
  };
}
