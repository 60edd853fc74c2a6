ALTER TABLE "quizzes" ADD COLUMN "review_answers" varchar(20) DEFAULT 'after-deadline' NOT NULL;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "review_score" varchar(20) DEFAULT 'after-submit' NOT NULL;--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "scores_released" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "quizzes_scores_waiting_idx" ON "quizzes" USING btree ("deadline") WHERE "quizzes"."review_score" = 'after-deadline' and not "quizzes"."scores_released";--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_review_answers" CHECK ("quizzes"."review_answers" in ('after-deadline', 'after-submit', 'never'));--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_review_score" CHECK ("quizzes"."review_score" in ('after-submit', 'after-deadline'));--> statement-breakpoint
-- Quizzes from before the review options keep today's review: the key right after submitting
-- (decision 032). Their scores were shown at once, so the stored averages already count them.
UPDATE "quizzes" SET "review_answers" = 'after-submit', "scores_released" = true;
