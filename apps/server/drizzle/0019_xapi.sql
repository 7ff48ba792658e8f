-- The Learning Record Store (xAPI): statements kept whole with their query terms,
-- attachments, State / Activity Profile / Agent Profile documents, activity
-- definitions, and what maps statements onto courses (registrations, slide numbers).
-- The event log learns a new source, 'xapi'.
CREATE TABLE "xapi_activities" (
	"organization_id" uuid NOT NULL,
	"activity_id" text NOT NULL,
	"definition" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "xapi_activities_pk" PRIMARY KEY("organization_id","activity_id")
);
--> statement-breakpoint
CREATE TABLE "xapi_attachments" (
	"organization_id" uuid NOT NULL,
	"sha2" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "xapi_attachments_pk" PRIMARY KEY("organization_id","sha2")
);
--> statement-breakpoint
CREATE TABLE "xapi_documents" (
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"activity_id" text DEFAULT '' NOT NULL,
	"agent_key" text DEFAULT '' NOT NULL,
	"registration" text DEFAULT '' NOT NULL,
	"document_id" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "xapi_documents_pk" PRIMARY KEY("organization_id","kind","activity_id","agent_key","registration","document_id"),
	CONSTRAINT "xapi_documents_kind_check" CHECK ("xapi_documents"."kind" in ('state', 'activity_profile', 'agent_profile'))
);
--> statement-breakpoint
CREATE TABLE "xapi_registrations" (
	"organization_id" uuid NOT NULL,
	"registration" uuid NOT NULL,
	"course_activity_id" text NOT NULL,
	CONSTRAINT "xapi_registrations_pk" PRIMARY KEY("organization_id","registration")
);
--> statement-breakpoint
CREATE TABLE "xapi_slides" (
	"organization_id" uuid NOT NULL,
	"course_activity_id" text NOT NULL,
	"slide_activity_id" text NOT NULL,
	"number" integer NOT NULL,
	CONSTRAINT "xapi_slides_pk" PRIMARY KEY("organization_id","course_activity_id","slide_activity_id")
);
--> statement-breakpoint
CREATE TABLE "xapi_statements" (
	"organization_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"stored" timestamp with time zone NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"verb_id" text NOT NULL,
	"actor_key" text,
	"object_activity_id" text,
	"object_agent_key" text,
	"object_statement_id" uuid,
	"registration" uuid,
	"search_keys" text[] NOT NULL,
	"is_voiding" boolean DEFAULT false NOT NULL,
	"voided" boolean DEFAULT false NOT NULL,
	"statement" jsonb NOT NULL,
	"unmapped_reason" text,
	"api_key_id" uuid,
	CONSTRAINT "xapi_statements_pk" PRIMARY KEY("organization_id","id")
);
--> statement-breakpoint
ALTER TABLE "learning_events" DROP CONSTRAINT "learning_events_source_check";--> statement-breakpoint
ALTER TABLE "xapi_activities" ADD CONSTRAINT "xapi_activities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_attachments" ADD CONSTRAINT "xapi_attachments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_documents" ADD CONSTRAINT "xapi_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_registrations" ADD CONSTRAINT "xapi_registrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_slides" ADD CONSTRAINT "xapi_slides_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "xapi_statements" ADD CONSTRAINT "xapi_statements_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "xapi_statements_stored_idx" ON "xapi_statements" USING btree ("organization_id","stored","id");--> statement-breakpoint
CREATE INDEX "xapi_statements_object_statement_idx" ON "xapi_statements" USING btree ("organization_id","object_statement_id") WHERE "xapi_statements"."object_statement_id" is not null;--> statement-breakpoint
CREATE INDEX "xapi_statements_search_idx" ON "xapi_statements" USING gin ("search_keys");--> statement-breakpoint
CREATE INDEX "xapi_statements_unmapped_idx" ON "xapi_statements" USING btree ("organization_id","stored") WHERE "xapi_statements"."unmapped_reason" is not null;--> statement-breakpoint
-- Unqualified: PostgreSQL re-reads the expression for each month's partition,
-- where "learning_events"."source" names no table.
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_source_check" CHECK ("source" in ('api', 'xapi', 'backfill', 'chatbot', 'pipeline', 'seed'));