-- Issue 33, decision 058: assignments for one or more classes, their attachments (library
-- resources), students' hand-ins with their state, grade and version, and (for the uploads and the
-- private thread to come) hand-in files and comments. New tables only: existing rows are untouched.
CREATE TABLE "assignment_attachments" (
	"assignment_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "assignment_attachments_assignment_id_resource_id_pk" PRIMARY KEY("assignment_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "assignment_classes" (
	"assignment_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	CONSTRAINT "assignment_classes_assignment_id_class_id_pk" PRIMARY KEY("assignment_id","class_id")
);
--> statement-breakpoint
CREATE TABLE "assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by_teacher_id" uuid NOT NULL,
	"title" varchar(200) NOT NULL,
	"instructions" varchar(20000) DEFAULT '' NOT NULL,
	"points" numeric(8, 2),
	"due_at" timestamp with time zone,
	"accept_late" boolean DEFAULT true NOT NULL,
	"publish_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assignments_points_positive" CHECK ("assignments"."points" is null or "assignments"."points" > 0)
);
--> statement-breakpoint
CREATE TABLE "hand_in_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hand_in_id" uuid NOT NULL,
	"author_student_id" uuid,
	"author_teacher_id" uuid,
	"author_role" varchar(10) NOT NULL,
	"text" varchar(2000) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_in_comments_role" CHECK ("hand_in_comments"."author_role" in ('student', 'teacher'))
);
--> statement-breakpoint
CREATE TABLE "hand_in_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hand_in_id" uuid NOT NULL,
	"storage_key" varchar(200) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"mime_type" varchar(127) NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_in_files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "hand_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assignment_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"state" varchar(12) NOT NULL,
	"text" varchar(50000) DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"submitted_at" timestamp with time zone,
	"late" boolean DEFAULT false NOT NULL,
	"points" numeric(8, 2),
	"feedback" varchar(5000),
	"graded_by" uuid,
	"graded_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"grade_changed_after_return" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hand_ins_state" CHECK ("hand_ins"."state" in ('draft', 'handed-in', 'graded', 'returned')),
	CONSTRAINT "hand_ins_submitted" CHECK (("hand_ins"."state" = 'draft') = ("hand_ins"."submitted_at" is null)),
	CONSTRAINT "hand_ins_returned" CHECK (("hand_ins"."state" = 'returned') = ("hand_ins"."returned_at" is not null)),
	CONSTRAINT "hand_ins_points" CHECK ("hand_ins"."points" is null or "hand_ins"."points" >= 0)
);
--> statement-breakpoint
ALTER TABLE "assignment_attachments" ADD CONSTRAINT "assignment_attachments_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_attachments" ADD CONSTRAINT "assignment_attachments_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_classes" ADD CONSTRAINT "assignment_classes_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_classes" ADD CONSTRAINT "assignment_classes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_created_by_teacher_id_teachers_id_fk" FOREIGN KEY ("created_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_in_comments" ADD CONSTRAINT "hand_in_comments_hand_in_id_hand_ins_id_fk" FOREIGN KEY ("hand_in_id") REFERENCES "public"."hand_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_in_comments" ADD CONSTRAINT "hand_in_comments_author_student_id_students_id_fk" FOREIGN KEY ("author_student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_in_comments" ADD CONSTRAINT "hand_in_comments_author_teacher_id_teachers_id_fk" FOREIGN KEY ("author_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_in_files" ADD CONSTRAINT "hand_in_files_hand_in_id_hand_ins_id_fk" FOREIGN KEY ("hand_in_id") REFERENCES "public"."hand_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hand_ins" ADD CONSTRAINT "hand_ins_graded_by_teachers_id_fk" FOREIGN KEY ("graded_by") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignment_attachments_resource_idx" ON "assignment_attachments" USING btree ("resource_id");--> statement-breakpoint
CREATE INDEX "assignment_classes_class_idx" ON "assignment_classes" USING btree ("class_id","assignment_id");--> statement-breakpoint
CREATE INDEX "assignments_teacher_created_idx" ON "assignments" USING btree ("created_by_teacher_id","created_at");--> statement-breakpoint
CREATE INDEX "hand_in_comments_thread_idx" ON "hand_in_comments" USING btree ("hand_in_id","created_at","id");--> statement-breakpoint
CREATE INDEX "hand_in_files_hand_in_idx" ON "hand_in_files" USING btree ("hand_in_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hand_ins_assignment_student_unique" ON "hand_ins" USING btree ("assignment_id","student_id");--> statement-breakpoint
CREATE INDEX "hand_ins_assignment_class_idx" ON "hand_ins" USING btree ("assignment_id","class_id","state");--> statement-breakpoint
CREATE INDEX "hand_ins_student_idx" ON "hand_ins" USING btree ("student_id","assignment_id");