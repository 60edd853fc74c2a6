-- Issue 30 point 4, decision 046: essays a teacher marks by hand. Each answered essay of a
-- submitted attempt gets a row here at the closing, its points null until a teacher of the quiz's
-- class marks it; quiz_attempts.essays_awaiting counts the unmarked ones, and an attempt with any
-- has no final score (no average or leaderboard counts it). Existing attempts have no essay: 0.
CREATE TABLE "quiz_essay_marks" (
	"attempt_id" uuid NOT NULL,
	"question_id" varchar(40) NOT NULL,
	"quiz_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"points" numeric(8, 2),
	"comment" varchar(2000),
	"marked_by" uuid,
	"marked_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "quiz_essay_marks_attempt_id_question_id_pk" PRIMARY KEY("attempt_id","question_id"),
	CONSTRAINT "quiz_essay_marks_marked_together" CHECK (("quiz_essay_marks"."points" is null) = ("quiz_essay_marks"."marked_at" is null))
);
--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD COLUMN "essays_awaiting" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "quiz_essay_marks" ADD CONSTRAINT "quiz_essay_marks_attempt_id_quiz_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."quiz_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_essay_marks" ADD CONSTRAINT "quiz_essay_marks_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_essay_marks" ADD CONSTRAINT "quiz_essay_marks_marked_by_teachers_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quiz_essay_marks_awaiting_idx" ON "quiz_essay_marks" USING btree ("quiz_id","position","submitted_at","attempt_id") WHERE "quiz_essay_marks"."points" is null;--> statement-breakpoint
CREATE INDEX "quiz_essay_marks_quiz_idx" ON "quiz_essay_marks" USING btree ("quiz_id","position","submitted_at","attempt_id");