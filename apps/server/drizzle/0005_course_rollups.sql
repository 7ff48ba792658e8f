CREATE TABLE "course_daily_stats" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"day" date NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "course_daily_stats_pk" PRIMARY KEY("course_id","day")
);
--> statement-breakpoint
CREATE TABLE "course_learners" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"first_run_at" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "course_learners_pk" PRIMARY KEY("course_id","learner_id")
);
--> statement-breakpoint
ALTER TABLE "course_daily_stats" ADD CONSTRAINT "course_daily_stats_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_learners" ADD CONSTRAINT "course_learners_course_fk" FOREIGN KEY ("organization_id","course_id") REFERENCES "public"."courses"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_daily_stats_org_day_idx" ON "course_daily_stats" USING btree ("organization_id","day");--> statement-breakpoint
CREATE INDEX "course_learners_course_last_idx" ON "course_learners" USING btree ("organization_id","course_id","last_run_at");--> statement-breakpoint
CREATE INDEX "course_learners_org_last_idx" ON "course_learners" USING btree ("organization_id","last_run_at");