import { expect } from 'vitest';
import type { StudentProfile, TeacherProfile } from '#shared/accounts';
import { buildStudentRegistration, buildTeacherRegistration } from './factories.ts';
import type { TestApp } from './test-app.ts';

/** Registers and logs in a teacher through the real API. */
export async function signUpTeacher(t: TestApp, overrides = {}) {
  const registration = buildTeacherRegistration(overrides);
  const registered = await t.call({ method: 'POST', url: '/api/teacher/register', payload: registration });
  expect(registered.status).toBe(201);
  const login = await t.call({
    method: 'POST',
    url: '/api/teacher/login',
    payload: { email: registration.email, password: registration.password },
  });
  return { registration, profile: registered.body.data as TeacherProfile, token: login.body.data as string };
}

/** Registers and logs in a student through the real API. */
export async function signUpStudent(t: TestApp, overrides = {}) {
  const registration = buildStudentRegistration(overrides);
  const registered = await t.call({ method: 'POST', url: '/api/student/register', payload: registration });
  expect(registered.status).toBe(201);
  const login = await t.call({
    method: 'POST',
    url: '/api/student/login',
    payload: { rollNumber: registration.rollNumber, password: registration.password },
  });
  return { registration, profile: registered.body.data as StudentProfile, token: login.body.data as string };
}
