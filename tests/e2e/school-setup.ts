import type { APIRequestContext } from '@playwright/test';
import { buildTeacherRegistration, TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { expect } from './fixtures.ts';

/**
 * The e2e server's school (decision 030): set up by the first scenario that needs a teacher,
 * with this administrator, who then invites every teacher of the scenarios. A scenario about
 * the first run itself uses a server of its own.
 */
export const E2E_ADMINISTRATOR = {
  schoolName: 'E2E Secondary School',
  name: 'Adaeze Administrator',
  subject: 'Administration',
  email: 'e2e.administrator@school.test',
  password: 'e2e-administrator-password',
} as const;

async function signIn(request: APIRequestContext, isSetUp: boolean): Promise<string> {
  // Ask first: a refused setup counts against the account like a refused registration (decision 016).
  if (!isSetUp) {
    const setup = await request.post('/api/school/setup', {
      data: { setupCode: TEST_SETUP_CODE, ...E2E_ADMINISTRATOR },
    });
    if (setup.status() === 201) return (await setup.json()).data as string;
    expect(setup.status(), await setup.text()).toBe(409); // set up by a scenario at the same moment
  }
  const login = await request.post('/api/teacher/login', {
    data: { email: E2E_ADMINISTRATOR.email, password: E2E_ADMINISTRATOR.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return (await login.json()).data as string;
}

// The administrator's session per server (the e2e server, the cluster scenario's instances on
// their own database), shared by every scenario's request context.
const tokens = new Map<string, Promise<string>>();

/** The administrator's session on the server this request context talks to, set up or signed in once. */
export async function administratorToken(request: APIRequestContext): Promise<string> {
  const school = await request.get('/api/school');
  const server = new URL(school.url()).origin;
  let token = tokens.get(server);
  if (!token) {
    token = signIn(request, (await school.json()).data.isSetUp as boolean).catch((error: unknown) => {
      tokens.delete(server); // the next scenario tries again
      throw error;
    });
    tokens.set(server, token);
  }
  return token;
}

/** A fresh invitation code (the link is /auth/teacher/register?invitation=<code>). */
export async function invitationCode(request: APIRequestContext, note = ''): Promise<string> {
  const created = await request.post('/api/school/invitations', {
    data: { note },
    headers: { authorization: `Bearer ${await administratorToken(request)}` },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return (await created.json()).data.code as string;
}

/** A teacher's registration with a fresh invitation, ready to post. */
export async function invitedTeacher(request: APIRequestContext, overrides: { subject?: string } = {}) {
  return buildTeacherRegistration(await invitationCode(request), overrides);
}
