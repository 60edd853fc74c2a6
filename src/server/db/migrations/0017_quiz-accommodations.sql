CREATE TABLE "quiz_accommodations" (
	"quiz_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"extra_minutes" integer,
	"extra_percent" integer,
	"deadline" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiz_accommodations_quiz_id_student_id_pk" PRIMARY KEY("quiz_id","student_id"),
	CONSTRAINT "quiz_accommodations_extra_minutes" CHECK ("quiz_accommodations"."extra_minutes" between 0 and 600),
	CONSTRAINT "quiz_accommodations_extra_percent" CHECK ("quiz_accommodations"."extra_percent" between 0 and 300)
);
--> statement-breakpoint
DROP INDEX "quizzes_scores_waiting_idx";--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "closes_at" timestamp with time zone;--> statement-breakpoint
-- No accommodation exists yet: a quiz closes at its deadline plus its time limit and the 30 s grace (decision 036).
UPDATE "quizzes" SET "closes_at" = "deadline" + make_interval(mins => "max_time_minutes") + interval '30 seconds';--> statement-breakpoint
ALTER TABLE "quizzes" ALTER COLUMN "closes_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "quiz_accommodations" ADD CONSTRAINT "quiz_accommodations_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_accommodations" ADD CONSTRAINT "quiz_accommodations_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quiz_accommodations_student_idx" ON "quiz_accommodations" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "quizzes_scores_waiting_idx" ON "quizzes" USING btree ("closes_at") WHERE "quizzes"."review_score" = 'after-deadline' and not "quizzes"."scores_released";