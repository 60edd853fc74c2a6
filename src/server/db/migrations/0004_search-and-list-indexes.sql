-- Trigram operators for the name searches (students_name_trgm_idx, resources_*_trgm_idx). pg_trgm is
-- a trusted contrib extension: the database owner may create it; PGlite loads its bundled copy.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "resources_class_created_idx";--> statement-breakpoint
DROP INDEX "resources_teacher_created_idx";--> statement-breakpoint
CREATE INDEX "resources_file_name_trgm_idx" ON "resources" USING gin ("file_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "resources_description_trgm_idx" ON "resources" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "students_name_trgm_idx" ON "students" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "resources_class_created_idx" ON "resources" USING btree ("class","created_at","id");--> statement-breakpoint
CREATE INDEX "resources_teacher_created_idx" ON "resources" USING btree ("uploaded_by_teacher_id","created_at","id");--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD CONSTRAINT "quiz_attempts_ended_together" CHECK (("quiz_attempts"."submitted_at" is null) = ("quiz_attempts"."ended_by" is null));