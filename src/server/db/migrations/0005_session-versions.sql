ALTER TABLE "students" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;