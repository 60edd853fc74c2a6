CREATE TABLE "resource_stars" (
	"resource_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_stars_resource_id_student_id_pk" PRIMARY KEY("resource_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" varchar(10) NOT NULL,
	"file_name" varchar(255) NOT NULL,
	"storage_key" varchar(200),
	"link_url" varchar(2000),
	"description" varchar(1000),
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"class" varchar(50) NOT NULL,
	"subject" varchar(100) NOT NULL,
	"mime_type" varchar(127) NOT NULL,
	"size_bytes" bigint NOT NULL,
	"uploaded_by_teacher_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "resource_stars" ADD CONSTRAINT "resource_stars_resource_id_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resource_stars" ADD CONSTRAINT "resource_stars_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_uploaded_by_teacher_id_teachers_id_fk" FOREIGN KEY ("uploaded_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resource_stars_student_idx" ON "resource_stars" USING btree ("student_id","resource_id");--> statement-breakpoint
CREATE INDEX "resources_class_created_idx" ON "resources" USING btree ("class","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "resources_class_name_idx" ON "resources" USING btree ("class",lower("file_name"),"id");--> statement-breakpoint
CREATE INDEX "resources_teacher_created_idx" ON "resources" USING btree ("uploaded_by_teacher_id","created_at" DESC NULLS LAST,"id");