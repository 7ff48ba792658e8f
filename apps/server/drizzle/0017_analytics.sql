-- Analytics: the findings of the scheduled insight job (one per fingerprint
-- and organization, so a rerun updates a finding instead of adding a twin),
-- and the indexes the analytics screens read by: a course's events with
-- their learner (index-only counts), a course's slide views run by run
-- (learning paths), each learner's last answer to each question of a course,
-- an organization's answers in a period (the overview).
-- The settings and saved funnels tables exist since the first migration.
CREATE TABLE "analytics_insights" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"fingerprint" text NOT NULL,
	"severity" text DEFAULT 'info' NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"link" text NOT NULL,
	"score" double precision DEFAULT 0 NOT NULL,
	"course_id" uuid,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dismissed_at" timestamp with time zone,
	"dismissed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_insights_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "analytics_insights_fingerprint_unique" UNIQUE("organization_id","fingerprint"),
	CONSTRAINT "analytics_insights_kind_check" CHECK ("analytics_insights"."kind" in ('answer_key', 'hard_question', 'drop_off_slide', 'rate_change', 'inactive_rising')),
	CONSTRAINT "analytics_insights_severity_check" CHECK ("analytics_insights"."severity" in ('info', 'warning', 'critical'))
);
--> statement-breakpoint
DROP INDEX "learning_events_course_idx";--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD COLUMN "insights_computed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analytics_insights" ADD CONSTRAINT "analytics_insights_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_insights" ADD CONSTRAINT "analytics_insights_dismissed_by_auth_user_id_fk" FOREIGN KEY ("dismissed_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_insights_org_score_idx" ON "analytics_insights" USING btree ("organization_id","score");--> statement-breakpoint
CREATE INDEX "course_run_questions_org_created_idx" ON "course_run_questions" USING btree ("organization_id","created_at","learner_id","course_id","correct");--> statement-breakpoint
CREATE INDEX "course_run_questions_course_last_idx" ON "course_run_questions" USING btree ("organization_id","course_id","question_id","learner_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"correct");--> statement-breakpoint
CREATE INDEX "learning_events_slide_path_idx" ON "learning_events" USING btree ("organization_id","course_id","run_id","occurred_at","id","slide_number","learner_id") WHERE "type" = 'slide.viewed';--> statement-breakpoint
CREATE INDEX "learning_events_course_idx" ON "learning_events" USING btree ("organization_id","course_id","occurred_at","learner_id");