-- A course's events are read by type (funnel steps, a course's last slide):
-- the type moves into the course index's key, before the time, so each
-- (course, type) is one range; the learner, slide and question make the
-- funnels' reads index-only.
DROP INDEX "learning_events_course_idx";--> statement-breakpoint
CREATE INDEX "learning_events_course_idx" ON "learning_events" USING btree ("organization_id","course_id","type","occurred_at","learner_id","slide_number","question_id");