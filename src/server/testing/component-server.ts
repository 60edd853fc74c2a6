import type { TestProject } from 'vitest/node';
import { identityKey } from '#shared/identity';
import { classes } from '../db/schema.ts';
import { schoolAdministrator } from './actors.ts';
import { createTestApp, openTemplateCopy } from './test-app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The port of 127.0.0.1 where the app the component tests talk to listens (vitest.config.ts). */
    componentServerPort: number;
    /** The session of the school's administrator, who invites the tests' teachers (decision 030). */
    componentAdministratorToken: string;
    /** A class no teacher teaches (as migration 0013 leaves one a student named): the staff screen's. */
    componentUntaughtClassName: string;
  }
}

/** UPLOAD_MAX_BYTES of the component tests' server: small, so a test can choose a file over it. */
const COMPONENT_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Global setup of the component tests (the `dom` project): the real app on a copy of the test
 * template, listening at the address of their document, reached over HTTP by the screens under test as a browser
 * reaches it. It runs here, in Vitest's own process, because a jsdom test file loads every module
 * as browser code and swaps Node's Blob, FormData and AbortController for jsdom's (decision 028).
 */
export default async function setup(project: TestProject) {
  const database = await openTemplateCopy(project.getProvidedContext());
  const t = await createTestApp({ database, uploadMaxBytes: COMPONENT_UPLOAD_MAX_BYTES });
  await t.app.listen({ host: '127.0.0.1', port: project.getProvidedContext().componentServerPort });
  project.provide('componentAdministratorToken', (await schoolAdministrator(t)).token);
  // No endpoint makes a class without a teacher (only a migration does): one written directly.
  const untaught = 'Drama club (untaught)';
  await t.database.db.insert(classes).values({ name: untaught, nameKey: identityKey(untaught) });
  project.provide('componentUntaughtClassName', untaught);
  return () => t.close();
}
