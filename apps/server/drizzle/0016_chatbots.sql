-- The two checks of learning_events name their columns unqualified (drizzle-kit
-- writes "learning_events"."type"): PostgreSQL copies a partitioned table's
-- check to each existing month partition, where the parent's name does not
-- resolve ("missing FROM-clause entry"). Regenerating this file must keep it.
CREATE TABLE "chatbot_knowledge_documents" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chatbot_id" uuid NOT NULL,
	"title" text NOT NULL,
	"format" text DEFAULT 'markdown' NOT NULL,
	"text" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chatbot_knowledge_documents_pk" PRIMARY KEY("organization_id","id"),
	CONSTRAINT "chatbot_knowledge_documents_format_check" CHECK ("chatbot_knowledge_documents"."format" in ('markdown', 'text'))
);
--> statement-breakpoint
ALTER TABLE "learning_events" DROP CONSTRAINT "learning_events_type_check";--> statement-breakpoint
ALTER TABLE "chatbot_variables" DROP CONSTRAINT "chatbot_variables_data_type_check";--> statement-breakpoint
ALTER TABLE "learning_events" ALTER COLUMN "course_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "learning_events" ADD COLUMN "chatbot_variable_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "citation" jsonb;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "no_answer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "learner_email" text;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "learner_name" text;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "state" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "asked" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "message_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "done" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "last_message_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD COLUMN "question" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD COLUMN "required" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD COLUMN "options" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD COLUMN "validation" jsonb;--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbots" ADD COLUMN "color" text DEFAULT '#4f46e5' NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbots" ADD COLUMN "avatar" text;--> statement-breakpoint
ALTER TABLE "chatbot_knowledge_documents" ADD CONSTRAINT "chatbot_knowledge_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_knowledge_documents" ADD CONSTRAINT "chatbot_knowledge_documents_chatbot_fk" FOREIGN KEY ("organization_id","chatbot_id") REFERENCES "public"."chatbots"("organization_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chatbot_knowledge_documents_chatbot_idx" ON "chatbot_knowledge_documents" USING btree ("organization_id","chatbot_id");--> statement-breakpoint
CREATE INDEX "chatbots_id_idx" ON "chatbots" USING btree ("id");--> statement-breakpoint
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_course_check" CHECK ("course_id" is not null or "type" like 'chatbot.%');--> statement-breakpoint
ALTER TABLE "learning_events" ADD CONSTRAINT "learning_events_type_check" CHECK ("type" in ('course.started', 'slide.viewed', 'variable.set', 'question.answered', 'course.progressed', 'course.passed', 'course.failed', 'course.exited', 'course.completed', 'chatbot.chat.started', 'chatbot.variable.captured', 'chatbot.chat.ended'));--> statement-breakpoint
ALTER TABLE "chatbot_variables" ADD CONSTRAINT "chatbot_variables_data_type_check" CHECK ("chatbot_variables"."data_type" in ('number', 'text', 'boolean', 'date', 'choice'));