CREATE TABLE "quiz_regrades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quiz_id" uuid NOT NULL,
	"teacher_id" uuid,
	"regraded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts_changed" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quiz_regrades" ADD CONSTRAINT "quiz_regrades_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_regrades" ADD CONSTRAINT "quiz_regrades_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quiz_regrades_quiz_idx" ON "quiz_regrades" USING btree ("quiz_id","regraded_at");