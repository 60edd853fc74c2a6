DROP INDEX "students_class_leaderboard_idx";--> statement-breakpoint
DROP INDEX "students_class_name_idx";--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "class";--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "class_key";