CREATE TABLE "pipeline_run_steps" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"node_type" text NOT NULL,
	"node_name" text NOT NULL,
	"position" integer NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"input" jsonb,
	"output" jsonb,
	"next" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"duration_ms" integer,
	"resume_at" timestamp with time zone,
	CONSTRAINT "pipeline_run_steps_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "pipeline_run_steps_node_unique" UNIQUE("organization_id","run_id","node_id"),
	CONSTRAINT "pipeline_run_steps_status_check" CHECK ("pipeline_run_steps"."status" in ('running', 'waiting', 'succeeded', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "pipeline_runs" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"trigger_kind" text NOT NULL,
	"trigger_key" text NOT NULL,
	"start_node_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"event_id" text,
	"event_type" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"learner_id" uuid,
	"learner_email" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"resume_at" timestamp with time zone,
	"error" text,
	"retry_of" uuid,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pipeline_runs_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "pipeline_runs_trigger_unique" UNIQUE("organization_id","pipeline_id","version","trigger_key"),
	CONSTRAINT "pipeline_runs_status_check" CHECK ("pipeline_runs"."status" in ('queued', 'running', 'waiting', 'succeeded', 'failed', 'skipped')),
	CONSTRAINT "pipeline_runs_trigger_kind_check" CHECK ("pipeline_runs"."trigger_kind" in ('event', 'schedule', 'manual', 'test', 'retry'))
);
--> statement-breakpoint
CREATE TABLE "pipeline_versions" (
	"organization_id" uuid NOT NULL,
	"pipeline_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"nodes" jsonb NOT NULL,
	"edges" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "pipeline_versions_pk" PRIMARY KEY("organization_id","pipeline_id","version")
);
--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "last_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "problem_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "run_retention_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "pipeline_run_steps" ADD CONSTRAINT "pipeline_run_steps_run_fk" FOREIGN KEY ("organization_id","run_id") REFERENCES "public"."pipeline_runs"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_runs" ADD CONSTRAINT "pipeline_runs_version_fk" FOREIGN KEY ("organization_id","pipeline_id","version") REFERENCES "public"."pipeline_versions"("organization_id","pipeline_id","version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_versions" ADD CONSTRAINT "pipeline_versions_created_by_auth_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."auth_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_versions" ADD CONSTRAINT "pipeline_versions_pipeline_fk" FOREIGN KEY ("organization_id","pipeline_id") REFERENCES "public"."pipelines"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pipeline_runs_pipeline_started_idx" ON "pipeline_runs" USING btree ("organization_id","pipeline_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pipeline_runs_running_lease_idx" ON "pipeline_runs" USING btree ("lease_until") WHERE "pipeline_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "pipeline_runs_waiting_resume_idx" ON "pipeline_runs" USING btree ("resume_at") WHERE "pipeline_runs"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "pipeline_runs_queued_idx" ON "pipeline_runs" USING btree ("created_at") WHERE "pipeline_runs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "pipelines_org_updated_idx" ON "pipelines" USING btree ("organization_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pipelines_org_active_idx" ON "pipelines" USING btree ("organization_id") WHERE "pipelines"."active";--> statement-breakpoint
ALTER TABLE "pipelines" ADD CONSTRAINT "pipelines_run_retention_days_check" CHECK ("pipelines"."run_retention_days" in (7, 30, 90, 365));--> statement-breakpoint
-- Every pipeline saved before versions existed becomes its version 1, so a run can name the graph it ran.
INSERT INTO "pipeline_versions" ("organization_id", "pipeline_id", "version", "nodes", "edges", "created_at", "created_by")
SELECT "organization_id", "id", 1, "nodes", "edges", "updated_at", "created_by" FROM "pipelines";
