import { expect } from 'vitest';
import type { StudentProfile, TeacherProfile } from '#shared/accounts';
import type { UserRole } from '#shared/constants';
import { buildStudentRegistration, buildTeacherRegistration } from './factories.ts';
import type { TestApp } from './test-app.ts';

/** Registers and logs in an account of a role through the real API. */
async function signUp<Profile>(t: TestApp, role: UserRole, registration: object, credentials: object) {
  const registered = await t.call({ method: 'POST', url: `/api/${role}/register`, payload: registration });
  expect(registered.status).toBe(201);
  const login = await t.call({ method: 'POST', url: `/api/${role}/login`, payload: credentials });
  expect(login.status).toBe(200);
  return { profile: registered.body.data as Profile, token: login.body.data as string };
}

export async function signUpTeacher(t: TestApp, overrides = {}) {
  const registration = buildTeacherRegistration(overrides);
  const credentials = { email: registration.email, password: registration.password };
  return { registration, ...(await signUp<TeacherProfile>(t, 'teacher', registration, credentials)) };
}

export async function signUpStudent(t: TestApp, overrides = {}) {
  const registration = buildStudentRegistration(overrides);
  const credentials = { rollNumber: registration.rollNumber, password: registration.password };
  return { registration, ...(await signUp<StudentProfile>(t, 'student', registration, credentials)) };
}
