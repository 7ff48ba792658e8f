CREATE TABLE "learner_variable_latest" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"variable_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"value_id" uuid NOT NULL,
	"value" text,
	"value_number" double precision,
	"value_boolean" boolean,
	"value_date" timestamp with time zone,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "learner_variable_latest_pk" PRIMARY KEY("variable_id","learner_id")
);
--> statement-breakpoint
CREATE TABLE "question_daily_stats" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"day" date NOT NULL,
	"responses" integer DEFAULT 0 NOT NULL,
	"graded" integer DEFAULT 0 NOT NULL,
	"correct" integer DEFAULT 0 NOT NULL,
	"points" double precision DEFAULT 0 NOT NULL,
	"new_learners" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "question_daily_stats_pk" PRIMARY KEY("question_id","day")
);
--> statement-breakpoint
CREATE TABLE "question_learners" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"learner_id" uuid NOT NULL,
	"first_answered_at" timestamp with time zone NOT NULL,
	CONSTRAINT "question_learners_pk" PRIMARY KEY("question_id","learner_id")
);
--> statement-breakpoint
CREATE TABLE "variable_stats" (
	"organization_id" uuid NOT NULL,
	"course_id" uuid NOT NULL,
	"variable_id" uuid PRIMARY KEY NOT NULL,
	"usage_count" integer DEFAULT 0 NOT NULL,
	"learner_count" integer DEFAULT 0 NOT NULL,
	"last_recorded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "learner_variable_latest" ADD CONSTRAINT "learner_variable_latest_variable_fk" FOREIGN KEY ("organization_id","course_id","variable_id") REFERENCES "public"."variables"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_daily_stats" ADD CONSTRAINT "question_daily_stats_question_fk" FOREIGN KEY ("organization_id","course_id","question_id") REFERENCES "public"."questions"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_learners" ADD CONSTRAINT "question_learners_question_fk" FOREIGN KEY ("organization_id","course_id","question_id") REFERENCES "public"."questions"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_stats" ADD CONSTRAINT "variable_stats_variable_fk" FOREIGN KEY ("organization_id","course_id","variable_id") REFERENCES "public"."variables"("organization_id","course_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learner_variable_latest_learner_idx" ON "learner_variable_latest" USING btree ("organization_id","learner_id");--> statement-breakpoint
CREATE INDEX "learner_variable_latest_number_idx" ON "learner_variable_latest" USING btree ("variable_id","value_number" DESC NULLS LAST,"recorded_at");--> statement-breakpoint
CREATE INDEX "question_daily_stats_org_day_idx" ON "question_daily_stats" USING btree ("organization_id","day");