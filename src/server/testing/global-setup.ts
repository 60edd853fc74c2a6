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

type Template = { kind: 'postgres'; name: string } | { kind: 'pglite'; path: string };
type SharedTemplate = { template: Promise<Template>; users: number };

/**
 * Both test projects (node, dom) list this setup, and Vitest runs it once for each in the same
 * process: they share one template instead of migrating twice. Removed after the last project.
 */
const SHARED = Symbol.for('studyhall.testDatabaseTemplate');
const shared = globalThis as typeof globalThis & { [SHARED]?: SharedTemplate };

/**
 * Runs once per `npm test`: migrates one database and keeps it as a template,
 * so each test file starts from a copy in about a second instead of paying
 * PGlite's initdb (5-8 s) or PostgreSQL migrations every time.
 */
export default async function setup(project: TestProject) {
  const entry = (shared[SHARED] ??= { template: createTemplate(), users: 0 });
  entry.users += 1;
  const template = await entry.template;
  if (template.kind === 'postgres') project.provide('postgresTemplateName', template.name);
  else project.provide('pgliteTemplatePath', template.path);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared[SHARED];
    await removeTemplate(template);
  };
}

async function createTemplate(): Promise<Template> {
  const postgresUrl = process.env.TEST_DATABASE_URL;
  if (postgresUrl) return { kind: 'postgres', name: await createTemplateDatabase(postgresUrl) };
  const template = await openDatabase({ kind: 'pglite' });
  const dump = await template.dumpDataDir!();
  await template.close();
  const directory = path.resolve('.tmp');
  mkdirSync(directory, { recursive: true });
  const templatePath = path.join(directory, `pglite-template-${process.pid}.tar`);
  writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  return { kind: 'pglite', path: templatePath };
}

async function removeTemplate(template: Template) {
  if (template.kind === 'postgres') await dropTemplateDatabase(process.env.TEST_DATABASE_URL!, template.name);
  else rmSync(template.path, { force: true });
}
