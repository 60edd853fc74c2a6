-- Issue 19 (decision 030): the school, its administrators, deactivated teachers, invitations.
CREATE TABLE "schools" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"name" varchar(120) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schools_single_row" CHECK ("schools"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "teacher_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_hash" text NOT NULL,
	"note" varchar(100) DEFAULT '' NOT NULL,
	"created_by_teacher_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"used_by_teacher_id" uuid
);
--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "is_administrator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "teacher_invitations" ADD CONSTRAINT "teacher_invitations_created_by_teacher_id_teachers_id_fk" FOREIGN KEY ("created_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teacher_invitations" ADD CONSTRAINT "teacher_invitations_used_by_teacher_id_teachers_id_fk" FOREIGN KEY ("used_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "teacher_invitations_code_hash_unique" ON "teacher_invitations" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "teacher_invitations_created_idx" ON "teacher_invitations" USING btree ("created_at" DESC NULLS LAST,"id");--> statement-breakpoint
-- An installation from before issue 19 is a school already: it keeps working under a name the
-- administrator can change, and its earliest teacher becomes that administrator.
INSERT INTO "schools" ("id", "name") SELECT 1, 'Our school' WHERE EXISTS (SELECT 1 FROM "teachers");--> statement-breakpoint
UPDATE "teachers" SET "is_administrator" = true WHERE "id" = (SELECT "id" FROM "teachers" ORDER BY "created_at", "id" LIMIT 1);
