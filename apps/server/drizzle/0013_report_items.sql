CREATE TABLE "custom_report_items" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"display_name" text,
	"chart" text DEFAULT 'auto' NOT NULL,
	"query" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custom_report_items_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "custom_report_items_chart_check" CHECK ("custom_report_items"."chart" in ('auto', 'number', 'table', 'bar', 'line', 'pie', 'leaderboard'))
);
--> statement-breakpoint
ALTER TABLE "custom_report_items" ADD CONSTRAINT "custom_report_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_report_items" ADD CONSTRAINT "custom_report_items_report_fk" FOREIGN KEY ("organization_id","report_id") REFERENCES "public"."custom_reports"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_report_items_report_idx" ON "custom_report_items" USING btree ("organization_id","report_id","display_order");--> statement-breakpoint
-- Every item of the first version becomes the same question in the report
-- model: its subject, the subject's default measure (null), and the
-- comparison type as the breakdown.
INSERT INTO "custom_report_items" ("id", "organization_id", "report_id", "display_order", "display_name", "chart", "query", "created_at", "updated_at")
SELECT i."id", i."organization_id", i."report_id", i."display_order", i."display_name", 'auto',
       jsonb_build_object(
         'subject', i."subject",
         'measure', null,
         'breakdown', jsonb_build_object(
           'kind', CASE i."comparison_type" WHEN 'by_course' THEN 'course' WHEN 'over_time' THEN 'week' ELSE 'learner' END,
           'variableName', null),
         'filters', '{"courseIds": [], "period": null, "values": [], "activity": []}'::jsonb,
         'sort', null,
         'limit', null),
       i."created_at", i."updated_at"
FROM (
  SELECT "id", "organization_id", "report_id", "display_order", "display_name", "comparison_type", "created_at", "updated_at",
         jsonb_build_object('kind', 'variable', 'variableIds', jsonb_build_array("variable_id"::text)) AS "subject"
  FROM "custom_report_variables"
  UNION ALL
  SELECT "id", "organization_id", "report_id", "display_order", "display_name", "comparison_type", "created_at", "updated_at",
         jsonb_build_object('kind', 'question', 'questionId', "question_id"::text)
  FROM "custom_report_questions"
  UNION ALL
  SELECT "id", "organization_id", "report_id", "display_order", "display_name", "comparison_type", "created_at", "updated_at",
         jsonb_build_object('kind', 'identifier', 'courseId', "course_id"::text, 'slideNumber', "slide_number",
                            'questionNumber', "question_number", 'questionText', "question_text")
  FROM "custom_report_question_identifiers"
) i;
--> statement-breakpoint
DROP TABLE "custom_report_question_identifiers" CASCADE;--> statement-breakpoint
DROP TABLE "custom_report_questions" CASCADE;--> statement-breakpoint
DROP TABLE "custom_report_variables" CASCADE;