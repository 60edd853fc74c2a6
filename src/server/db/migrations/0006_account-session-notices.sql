-- Issue 17: an account's sessions end the moment its session version moves or its row is
-- deleted, on every instance, whoever made the change (the app, another instance, psql).
-- The trigger NOTIFYs '<role>:<id>'; each instance LISTENs (session-versions.ts) and forgets
-- the version it kept. NOTIFY is delivered at commit, and not at all on rollback.
CREATE FUNCTION studyhall_notify_account_sessions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('studyhall_account_sessions', TG_ARGV[0] || ':' || OLD.id::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER teachers_session_notices
  AFTER DELETE OR UPDATE OF session_version ON teachers
  FOR EACH ROW EXECUTE FUNCTION studyhall_notify_account_sessions('teacher');--> statement-breakpoint
CREATE TRIGGER students_session_notices
  AFTER DELETE OR UPDATE OF session_version ON students
  FOR EACH ROW EXECUTE FUNCTION studyhall_notify_account_sessions('student');
