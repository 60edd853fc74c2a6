CREATE TABLE "students" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"roll_number" varchar(50) NOT NULL,
	"email" varchar(254) NOT NULL,
	"class" varchar(50) NOT NULL,
	"parent_name" varchar(100) NOT NULL,
	"parent_email" varchar(254) NOT NULL,
	"password_hash" text NOT NULL,
	"average_score" double precision DEFAULT 0 NOT NULL,
	"average_accuracy" double precision DEFAULT 0 NOT NULL,
	"total_score" double precision DEFAULT 0 NOT NULL,
	"quizzes_attempted" integer DEFAULT 0 NOT NULL,
	"created_by_teacher_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "teachers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(100) NOT NULL,
	"email" varchar(254) NOT NULL,
	"subject" varchar(100) NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_created_by_teacher_id_teachers_id_fk" FOREIGN KEY ("created_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "students_roll_number_lower_unique" ON "students" USING btree (lower("roll_number"));--> statement-breakpoint
CREATE UNIQUE INDEX "students_email_lower_unique" ON "students" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "teachers_email_lower_unique" ON "teachers" USING btree (lower("email"));