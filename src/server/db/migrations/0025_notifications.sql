-- Issue 33 point 5 (decision 059): what changed for someone, for the bell. The recipient is a role
-- and the id of that role's table, as tasks name an owner (no foreign key: two tables); kind is a
-- NOTIFICATION_PARAMS code and params its data. Number 0025: 0024 is the assignments' migration.
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_role" varchar(10) NOT NULL,
	"recipient_id" uuid NOT NULL,
	"kind" varchar(40) NOT NULL,
	"params" jsonb NOT NULL,
	"class_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp (3) with time zone,
	CONSTRAINT "notifications_recipient_role" CHECK ("notifications"."recipient_role" in ('teacher', 'student'))
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_recipient_created_idx" ON "notifications" USING btree ("recipient_role","recipient_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_recipient_unread_idx" ON "notifications" USING btree ("recipient_role","recipient_id","created_at") WHERE "notifications"."read_at" is null;