-- Issue 19 point 3 (decision 035): meeting rooms belong to a class.
CREATE TABLE "meeting_rooms" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"class_id" uuid NOT NULL,
	"created_by_teacher_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meeting_rooms" ADD CONSTRAINT "meeting_rooms_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_rooms" ADD CONSTRAINT "meeting_rooms_created_by_teacher_id_teachers_id_fk" FOREIGN KEY ("created_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meeting_rooms_class_created_idx" ON "meeting_rooms" USING btree ("class_id","created_at","id");