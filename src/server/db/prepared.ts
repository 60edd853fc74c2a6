import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

type Executable<Result> = { execute(values?: Record<string, unknown>): Promise<Result> };

/**
 * A read that nearly every request of a kind sends (an exam's page, its start), prepared once
 * per database, so PostgreSQL parses and plans it once per connection and drizzle builds its SQL
 * once; inside a transaction the plain statement runs (a prepared one belongs to the database's
 * pool, not to the transaction's connection). `build` names its parameters with sql.placeholder.
 */
export function preparedPerDatabase<Result>(
  name: string,
  build: (db: Pick<Database, 'select'>) => Executable<Result> & { prepare(name: string): Executable<Result> },
) {
  const byDatabase = new WeakMap<object, Executable<Result>>();
  return (db: Pick<Database, 'select'>): Executable<Result> => {
    if (db instanceof PgTransaction) return build(db);
    let prepared = byDatabase.get(db);
    if (!prepared) {
      prepared = build(db).prepare(name);
      byDatabase.set(db, prepared);
    }
    return prepared;
  };
}
