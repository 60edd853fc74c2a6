-- Issue 33 (decision 061): one "due soon" notification per student and assignment, made when the
-- student's bell is read (no scheduler); a scheduled assignment's notifications found by its id to
-- move with its publish time. Number 0027: 0026 is another branch's.
CREATE UNIQUE INDEX "notifications_due_soon_once_idx" ON "notifications" USING btree ("recipient_id",("params"->>'assignmentId')) WHERE "notifications"."kind" = 'ASSIGNMENT_DUE_SOON';--> statement-breakpoint
CREATE INDEX "notifications_assignment_posted_idx" ON "notifications" USING btree (("params"->>'assignmentId')) WHERE "notifications"."kind" = 'ASSIGNMENT_POSTED';