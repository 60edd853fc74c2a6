CREATE TABLE "quiz_images" (
	"file_key" varchar(64) PRIMARY KEY NOT NULL,
	"storage_key" varchar(200) NOT NULL,
	"uploaded_by_teacher_id" uuid NOT NULL,
	"mime_type" varchar(127) NOT NULL,
	"size_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiz_images_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "quiz_images" ADD CONSTRAINT "quiz_images_uploaded_by_teacher_id_teachers_id_fk" FOREIGN KEY ("uploaded_by_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quiz_images_teacher_idx" ON "quiz_images" USING btree ("uploaded_by_teacher_id");