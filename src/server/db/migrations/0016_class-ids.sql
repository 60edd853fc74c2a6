DROP INDEX "quizzes_class_deadline_idx";--> statement-breakpoint
DROP INDEX "resources_class_created_idx";--> statement-breakpoint
DROP INDEX "resources_class_name_idx";--> statement-breakpoint
DROP INDEX "students_class_leaderboard_idx";--> statement-breakpoint
DROP INDEX "students_class_name_idx";--> statement-breakpoint
ALTER TABLE "quizzes" DROP COLUMN "class";--> statement-breakpoint
ALTER TABLE "quizzes" DROP COLUMN "class_key";--> statement-breakpoint
ALTER TABLE "resources" DROP COLUMN "class";--> statement-breakpoint
ALTER TABLE "resources" DROP COLUMN "class_key";--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "class";--> statement-breakpoint
ALTER TABLE "students" DROP COLUMN "class_key";