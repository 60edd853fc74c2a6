CREATE TABLE "tasks" (
	"owner_role" varchar(10) NOT NULL,
	"owner_id" uuid NOT NULL,
	"id" varchar(9) NOT NULL,
	"text" varchar(500) NOT NULL,
	"is_completed" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "tasks_owner_role_owner_id_id_pk" PRIMARY KEY("owner_role","owner_id","id")
);
--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "tasks_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "tasks_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "students_leaderboard_idx" ON "students" USING btree ("average_score" DESC NULLS LAST,"id") WHERE "students"."quizzes_attempted" > 0;--> statement-breakpoint
CREATE INDEX "students_class_leaderboard_idx" ON "students" USING btree ("class","average_score" DESC NULLS LAST,"id") WHERE "students"."quizzes_attempted" > 0;--> statement-breakpoint
CREATE INDEX "students_class_name_idx" ON "students" USING btree ("class","name");