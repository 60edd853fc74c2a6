import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type QueryListener } from '../db/client.ts';

/**
 * Test isolation on a real PostgreSQL server: one migrated template database,
 * and a copy of it per test file (CREATE DATABASE ... TEMPLATE is a file copy,
 * far faster than migrating again). Schemas would not do: migrations name "public".
 */

function withDatabase(url: string, databaseName: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${databaseName}`;
  return parsed.toString();
}

async function runAdminQuery(adminUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the server of `adminUrl` (a test's or a bench run's own); drop() removes it. */
export async function createScratchDatabase(adminUrl: string, prefix: string, options = '') {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await runAdminQuery(adminUrl, `CREATE DATABASE ${name} ${options}`);
  return {
    url: withDatabase(adminUrl, name),
    drop: () => runAdminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Creates and migrates this run's template; its name is unique so parallel runs don't collide. */
export async function createTemplateDatabase(adminUrl: string): Promise<string> {
  const templateName = `studyhall_test_template_${randomBytes(4).toString('hex')}`;
  await runAdminQuery(adminUrl, `CREATE DATABASE ${templateName}`);
  const template = await openDatabase({ kind: 'postgres', url: withDatabase(adminUrl, templateName) });
  await template.close();
  return templateName;
}

export async function dropTemplateDatabase(adminUrl: string, templateName: string) {
  await runAdminQuery(adminUrl, `DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
}

/** A fresh migrated database for one test file; closing it drops it. */
export async function openPostgresCopy(
  adminUrl: string,
  templateName: string,
  onQuery?: QueryListener,
): Promise<DatabaseHandle> {
  const name = `studyhall_test_${randomBytes(6).toString('hex')}`;
  // Two workers copying the template at the same instant can collide; retry briefly.
  for (let attempt = 1; ; attempt++) {
    try {
      await runAdminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${templateName}`);
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  const handle = await openDatabase({ kind: 'postgres', url: withDatabase(adminUrl, name), onQuery });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await runAdminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
