import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { startChangeJournal, type ChangeJournal } from './change-journal.ts';
import { changedRows, readAllRows } from './database-snapshot.ts';
import { openTestDatabase } from './test-app.ts';

/**
 * The journal must see what reading every table before and after sees (decision 067): the
 * authorization matrix and the fuzz suite prove with it that a refused request changed nothing.
 */
let database: DatabaseHandle;
let journal: ChangeJournal;
const run = (statement: string) => database.db.execute(sql.raw(statement));

beforeAll(async () => {
  database = await openTestDatabase();
  await run('create table journal_probe (id int primary key, label text not null)');
  await run('create table journal_probe_unkeyed (label text)');
  await run(`insert into journal_probe values (1, 'one'), (2, 'two'), (3, 'three')`);
  journal = await startChangeJournal(database);
});
afterAll(async () => {
  await database.close();
});

/** The journal's changes and the full reads' changes of the same statements, compared. */
async function bothWays(statements: string[]) {
  await journal.mark();
  const before = await readAllRows(database);
  for (const statement of statements) await run(statement);
  const describe = (changes: Awaited<ReturnType<typeof journal.changesSinceMark>>) =>
    changes.map((change) => `${change.kind} ${change.table} ${change.key}`).sort();
  return {
    journal: describe(await journal.changesSinceMark()),
    fullRead: describe(changedRows(before, await readAllRows(database))),
  };
}

describe('the change journal', () => {
  it('reports nothing when nothing changed, a rewrite of the same values included', async () => {
    const found = await bothWays([`update journal_probe set label = label`, 'select 1']);
    expect(found.journal).toEqual([]);
    expect(found.journal).toEqual(found.fullRead);
  });

  it('reports rows added, changed and removed, by primary key, as a full read does', async () => {
    const found = await bothWays([
      `insert into journal_probe values (4, 'four')`,
      `update journal_probe set label = 'TWO' where id = 2`,
      `delete from journal_probe where id = 3`,
      `insert into journal_probe_unkeyed values ('loose')`,
    ]);
    expect(found.journal).toEqual([
      'added journal_probe [4]',
      'added journal_probe_unkeyed {"label":"loose"}',
      'changed journal_probe [2]',
      'removed journal_probe [3]',
    ]);
    expect(found.journal).toEqual(found.fullRead);
  });

  it('sees a row changed and changed back, or added and removed, as no change; a new key as a removal and an addition', async () => {
    const found = await bothWays([
      `update journal_probe set label = 'x' where id = 1`,
      `update journal_probe set label = 'one' where id = 1`,
      `insert into journal_probe values (9, 'nine')`,
      `delete from journal_probe where id = 9`,
      `update journal_probe set id = 10 where id = 4`,
    ]);
    expect(found.journal).toEqual(['added journal_probe [10]', 'removed journal_probe [4]']);
    expect(found.journal).toEqual(found.fullRead);
  });

  it('keeps the row as it was before the call, for the owner checks', async () => {
    await journal.mark();
    await run(`update journal_probe set label = 'Two' where id = 2`);
    const [change] = await journal.changesSinceMark();
    expect(change).toMatchObject({ kind: 'changed', before: { id: 2, label: 'TWO' }, after: { id: 2, label: 'Two' } });
  });

  it('reports a table emptied by truncate', async () => {
    await journal.mark();
    await run('truncate journal_probe_unkeyed');
    expect((await journal.changesSinceMark()).map((change) => change.table)).toEqual(['journal_probe_unkeyed']);
  });
});
