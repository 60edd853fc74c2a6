-- Identity keys (decision 024), added empty: the migrator's JavaScript step after this migration
-- (fillIdentityKeys in db/identity-keys.ts) fills them with exactly what the application computes,
-- which SQL cannot (lower() follows the locale); 0008 then makes them NOT NULL and indexes them.
ALTER TABLE "quizzes" ADD COLUMN "class_key" text;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "class_key" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "roll_number_key" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "email_key" text;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "class_key" text;--> statement-breakpoint
ALTER TABLE "teachers" ADD COLUMN "email_key" text;