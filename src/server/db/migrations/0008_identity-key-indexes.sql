-- Uniqueness and class look-ups move from lower(...) and the class as typed to the key columns
-- 0007 filled (decision 024). The class indexes keep their names, on class_key instead of class.
DROP INDEX "students_roll_number_lower_unique";--> statement-breakpoint
DROP INDEX "students_email_lower_unique";--> statement-breakpoint
DROP INDEX "teachers_email_lower_unique";--> statement-breakpoint
DROP INDEX "quizzes_class_deadline_idx";--> statement-breakpoint
DROP INDEX "resources_class_created_idx";--> statement-breakpoint
DROP INDEX "resources_class_name_idx";--> statement-breakpoint
DROP INDEX "students_class_leaderboard_idx";--> statement-breakpoint
DROP INDEX "students_class_name_idx";--> statement-breakpoint
ALTER TABLE "quizzes" ALTER COLUMN "class_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "resources" ALTER COLUMN "class_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "roll_number_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "email_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "students" ALTER COLUMN "class_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "teachers" ALTER COLUMN "email_key" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "students_roll_number_key_unique" ON "students" USING btree ("roll_number_key");--> statement-breakpoint
CREATE UNIQUE INDEX "students_email_key_unique" ON "students" USING btree ("email_key");--> statement-breakpoint
CREATE UNIQUE INDEX "teachers_email_key_unique" ON "teachers" USING btree ("email_key");--> statement-breakpoint
CREATE INDEX "quizzes_class_deadline_idx" ON "quizzes" USING btree ("class_key","deadline");--> statement-breakpoint
CREATE INDEX "resources_class_created_idx" ON "resources" USING btree ("class_key","created_at","id");--> statement-breakpoint
CREATE INDEX "resources_class_name_idx" ON "resources" USING btree ("class_key",lower("file_name"),"id");--> statement-breakpoint
CREATE INDEX "students_class_leaderboard_idx" ON "students" USING btree ("class_key","average_score" DESC NULLS LAST,"id") WHERE "students"."quizzes_attempted" > 0;--> statement-breakpoint
CREATE INDEX "students_class_name_idx" ON "students" USING btree ("class_key","name");