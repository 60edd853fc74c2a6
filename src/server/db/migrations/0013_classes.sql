-- Issue 19 points 3-5 and 10 (decision 031): classes as records, their teachers and students.
CREATE TABLE "class_students" (
	"class_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_students_class_id_student_id_pk" PRIMARY KEY("class_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "class_teachers" (
	"class_id" uuid NOT NULL,
	"teacher_id" uuid NOT NULL,
	"is_owner" boolean DEFAULT false NOT NULL,
	CONSTRAINT "class_teachers_class_id_teacher_id_pk" PRIMARY KEY("class_id","teacher_id")
);
--> statement-breakpoint
CREATE TABLE "classes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" varchar(50) NOT NULL,
	"name_key" text NOT NULL,
	"subject" varchar(100),
	"join_code" varchar(8),
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "quizzes" ADD COLUMN "class_id" uuid;--> statement-breakpoint
ALTER TABLE "resources" ADD COLUMN "class_id" uuid;--> statement-breakpoint
ALTER TABLE "class_students" ADD CONSTRAINT "class_students_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_students" ADD CONSTRAINT "class_students_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_teachers" ADD CONSTRAINT "class_teachers_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_teachers" ADD CONSTRAINT "class_teachers_teacher_id_teachers_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teachers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_students_student_idx" ON "class_students" USING btree ("student_id","class_id");--> statement-breakpoint
CREATE INDEX "class_teachers_teacher_idx" ON "class_teachers" USING btree ("teacher_id","class_id");--> statement-breakpoint
CREATE UNIQUE INDEX "classes_name_key_unique" ON "classes" USING btree ("name_key");--> statement-breakpoint
CREATE UNIQUE INDEX "classes_join_code_unique" ON "classes" USING btree ("join_code");--> statement-breakpoint
ALTER TABLE "quizzes" ADD CONSTRAINT "quizzes_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resources" ADD CONSTRAINT "resources_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quizzes_class_id_deadline_idx" ON "quizzes" USING btree ("class_id","deadline");--> statement-breakpoint
CREATE INDEX "resources_class_id_created_idx" ON "resources" USING btree ("class_id","created_at","id");--> statement-breakpoint
CREATE INDEX "resources_class_id_name_idx" ON "resources" USING btree ("class_id",lower("file_name"),"id");;--> statement-breakpoint
-- Each class key in use becomes a class, named as it is most often spelled, NFC and trimmed as
-- a new class's name is (the keys were filled by identityKey in 0007, so name_key needs no
-- JavaScript). A tie goes to the spelling used first, then to the first in byte order ("C"), so
-- PGlite and PostgreSQL pick alike whatever their collations. Its join code stays off (null)
-- until one of its teachers turns it on: nobody has seen a code yet.
INSERT INTO "classes" ("name", "name_key", "created_at")
SELECT DISTINCT ON ("counted"."key") "counted"."name", "counted"."key", "counted"."class_created_at"
FROM (
	SELECT btrim(normalize("spelled"."name", NFC)) AS "name", "spelled"."key", count(*) AS "uses",
		min("spelled"."created_at") AS "first_used",
		min(min("spelled"."created_at")) OVER (PARTITION BY "spelled"."key") AS "class_created_at"
	FROM (
		SELECT "class" AS "name", "class_key" AS "key", "created_at" FROM "students"
		UNION ALL SELECT "class", "class_key", "created_at" FROM "quizzes"
		UNION ALL SELECT "class", "class_key", "created_at" FROM "resources"
	) AS "spelled"
	GROUP BY 1, 2
) AS "counted"
ORDER BY "counted"."key", "counted"."uses" DESC, "counted"."first_used", "counted"."name" COLLATE "C";--> statement-breakpoint
-- Taught by every teacher with a quiz or resource in it; the earliest of them owns it.
WITH "taught" AS (
	SELECT "class_key", "created_by_teacher_id" AS "teacher_id", "created_at" FROM "quizzes"
	UNION ALL SELECT "class_key", "uploaded_by_teacher_id", "created_at" FROM "resources"
), "firsts" AS (
	SELECT "class_key", "teacher_id", min("created_at") AS "first_at" FROM "taught" GROUP BY "class_key", "teacher_id"
)
INSERT INTO "class_teachers" ("class_id", "teacher_id", "is_owner")
SELECT "classes"."id", "firsts"."teacher_id",
	row_number() OVER (PARTITION BY "firsts"."class_key" ORDER BY "firsts"."first_at", "firsts"."teacher_id") = 1
FROM "firsts" JOIN "classes" ON "classes"."name_key" = "firsts"."class_key";--> statement-breakpoint
-- Every student joins their class, as of their account's creation.
INSERT INTO "class_students" ("class_id", "student_id", "joined_at")
SELECT "classes"."id", "students"."id", "students"."created_at"
FROM "students" JOIN "classes" ON "classes"."name_key" = "students"."class_key";--> statement-breakpoint
UPDATE "quizzes" SET "class_id" = "classes"."id" FROM "classes" WHERE "classes"."name_key" = "quizzes"."class_key";--> statement-breakpoint
UPDATE "resources" SET "class_id" = "classes"."id" FROM "classes" WHERE "classes"."name_key" = "resources"."class_key";--> statement-breakpoint
ALTER TABLE "quizzes" ALTER COLUMN "class_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "resources" ALTER COLUMN "class_id" SET NOT NULL;
