-- Issue 32 (decision 055): people's names in the order a person expects, not the database's byte
-- order ("Ángel" after "Zoe", "adam" after "Zoe"). ICU's root collation where the server has ICU
-- (PostgreSQL's usual builds, PGlite); the database's default order where it has not, so that the
-- queries naming person_name run everywhere.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
    CREATE COLLATION IF NOT EXISTS person_name (provider = icu, locale = 'und');
  ELSE
    CREATE COLLATION IF NOT EXISTS person_name FROM "default";
  END IF;
END $$;
