-- Issue 18: equal averages share a rank (rank(), standard competition ranking) and are listed
-- by name, then id; the leaderboard indexes carry that order so a page is still an index walk.
DROP INDEX "students_leaderboard_idx";--> statement-breakpoint
DROP INDEX "students_class_leaderboard_idx";--> statement-breakpoint
CREATE INDEX "students_leaderboard_idx" ON "students" USING btree ("average_score" DESC NULLS LAST,"name","id") WHERE "students"."quizzes_attempted" > 0;--> statement-breakpoint
CREATE INDEX "students_class_leaderboard_idx" ON "students" USING btree ("class_key","average_score" DESC NULLS LAST,"name","id") WHERE "students"."quizzes_attempted" > 0;