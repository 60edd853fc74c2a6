import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.ts';
import { createTemplateDatabase, dropTemplateDatabase } from './postgres-databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplateName: string;
  }
}

/**
 * Runs once per `npm test`: migrates one database and keeps it as a template,
 * so each test file starts from a copy in about a second instead of paying
 * PGlite's initdb (5-8 s) or PostgreSQL migrations every time.
 */
export default async function setup(project: TestProject) {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const templateName = await createTemplateDatabase(postgresUrl);
    project.provide('postgresTemplateName', templateName);
    return async () => dropTemplateDatabase(postgresUrl, templateName);
  }

  const template = await openDatabase({ kind: 'pglite' });
  const dump = await template.dumpDataDir!();
  await template.close();
  const directory = path.resolve('.tmp');
  mkdirSync(directory, { recursive: true });
  const templatePath = path.join(directory, `pglite-template-${process.pid}.tar`);
  writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplatePath', templatePath);
  return () => rmSync(templatePath, { force: true });
}
