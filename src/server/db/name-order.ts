import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A person's name as lists sort it (issue 32, migration 0029): the `person_name` collation, ICU's
 * root order ("adam", "Ángel", "émile", "Zoe"), not the database's byte order. One order for every
 * language, so the pages the server cuts are the pages a reader expects; ties go on to the id.
 */
export function byName(name: AnyColumn | SQL): SQL {
  return sql`${name} collate person_name`;
}
